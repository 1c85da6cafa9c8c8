import { z } from "zod";

/** `POST /api/push_subscribe` and `/api/push_unsubscribe` (record 0109). */
export const PushSubscriptionResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  subscribed: z.boolean().describe("this device now gets the member's push notifications"),
});

/** `POST /api/push_key` (record 0109). */
export const PushKeyResponse = z.strictObject({
  status: z.literal("true"),
  public_key: z
    .string()
    .describe(
      "the site's VAPID public key, base64url: PushManager.subscribe's applicationServerKey",
    ),
  devices: z
    .array(
      z.strictObject({
        label: z
          .string()
          .describe("the browser and system, as its User-Agent said: “Chrome on Android”"),
        since: z.string().describe("when push was turned on there (ISO 8601)"),
        last_used: z.string().nullable().describe("when a push last reached it (ISO 8601)"),
        endpoint: z.string().describe("the device's push endpoint, to tell this device among them"),
      }),
    )
    .describe("the signed-in member's devices that get push notifications, newest first"),
});
