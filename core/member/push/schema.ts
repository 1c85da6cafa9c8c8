import { z } from "zod";
import { claimedUserId } from "../../people/accounts/schema.ts";
import { text } from "../../validation.ts";

/**
 * Push subscriptions (docs/decisions/0109-push-alerts.md): what a browser's
 * PushSubscription.toJSON() gives, checked at the door. Whether the endpoint may be reached
 * (https, a public address) is the service's question: it needs DNS and the site's settings.
 */

export const PUSH_MESSAGES = {
  endpoint: "The push endpoint must be a full https address.",
  endpointTooLong: "The push endpoint is too long.",
  p256dh:
    "The subscription's p256dh key must be an uncompressed P-256 public key (65 bytes, base64url).",
  auth: "The subscription's auth secret must be 16 bytes, base64url.",
  keys: "The subscription's keys are missing: send keys.p256dh and keys.auth.",
  subscribed: "Push notifications are on for this device.",
  unsubscribed: "Push notifications are off for this device.",
  notSubscribed: "This device was not subscribed; push notifications are off.",
} as const;

/** Push services' endpoints run to a few hundred characters; this is a bound, not a guess. */
export const MAX_ENDPOINT_LENGTH = 2048;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** The bytes of a base64url text, or null when it is not one. */
export function base64urlBytes(value: string): Buffer | null {
  if (!BASE64URL.test(value)) return null;
  return Buffer.from(value.replace(/=+$/, ""), "base64url");
}

const endpoint = text({ error: PUSH_MESSAGES.endpoint })
  .trim()
  .max(MAX_ENDPOINT_LENGTH, PUSH_MESSAGES.endpointTooLong)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
    error: PUSH_MESSAGES.endpoint,
  });

const p256dh = text({ error: PUSH_MESSAGES.p256dh })
  .trim()
  .refine(
    (value) => {
      const bytes = base64urlBytes(value);
      return bytes !== null && bytes.length === 65 && bytes[0] === 0x04;
    },
    { error: PUSH_MESSAGES.p256dh },
  );

const auth = text({ error: PUSH_MESSAGES.auth })
  .trim()
  .refine((value) => base64urlBytes(value)?.length === 16, { error: PUSH_MESSAGES.auth });

/** `POST /api/push_subscribe` {endpoint, keys: {p256dh, auth}}: this device gets pushes. */
export const PushSubscribeBody = z.object({
  user_id: claimedUserId,
  endpoint,
  keys: z.object({ p256dh, auth }, { error: PUSH_MESSAGES.keys }),
});
export type PushSubscribeInput = z.output<typeof PushSubscribeBody>;

/** `POST /api/push_unsubscribe` {endpoint}: this device gets no more pushes. */
export const PushUnsubscribeBody = z.object({
  user_id: claimedUserId,
  endpoint,
});
export type PushUnsubscribeInput = z.output<typeof PushUnsubscribeBody>;
