import http from "node:http";
import https from "node:https";
import net from "node:net";
import webpush from "web-push";
import type { PushUrgency } from "../../../db/schema.ts";
import type { VapidKeys } from "./vapid.ts";
import type { VettedEndpoint } from "./endpoint-guard.ts";
import { pinnedLookup } from "../../posts/freshness/address-guard.ts";

/**
 * One push to one browser (RFC 8030), docs/decisions/0109-push-alerts.md. web-push builds the
 * request: the payload encrypted to the browser's keys (aes128gcm, RFC 8291) and the VAPID
 * Authorization header (RFC 8292). The request itself is sent here rather than by web-push's
 * sendNotification, because that one resolves the host again (the address checked by
 * ./endpoint-guard.ts could be swapped under it) and speaks only https (a test's local push
 * service is http).
 */

/** What the service worker is given (the push event's data, JSON). */
export interface PushPayload {
  title: string;
  body: string;
  /** A site path: where tapping the notification leads. */
  url: string;
  /** Notifications with the same tag replace each other on the device. */
  tag: string;
}

export interface PushOptions {
  /** How long the push service keeps the message for a device that is offline. */
  ttlSeconds: number;
  urgency: PushUrgency;
  /** A newer message with the same topic replaces one still waiting at the push service. */
  topic?: string;
}

export interface SubscriptionKeys {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How the push service answered: 201 taken; 404 and 410 mean the subscription is gone. */
export interface PushAnswer {
  status: number;
}

/** A send that got no answer (refused connection, timeout). */
export class PushFailed extends Error {}

const SEND_TIMEOUT_MS = 10_000;

export function sendPush(
  target: VettedEndpoint,
  subscription: SubscriptionKeys,
  payload: PushPayload,
  options: PushOptions & { vapid: VapidKeys; subject: string },
): Promise<PushAnswer> {
  const details = webpush.generateRequestDetails(
    {
      endpoint: subscription.endpoint,
      keys: { p256dh: subscription.p256dh, auth: subscription.auth },
    },
    JSON.stringify(payload),
    {
      vapidDetails: {
        subject: options.subject,
        publicKey: options.vapid.publicKey,
        privateKey: options.vapid.privateKey,
      },
      TTL: options.ttlSeconds,
      urgency: options.urgency,
      contentEncoding: "aes128gcm",
      ...(options.topic ? { topic: options.topic } : {}),
    },
  );
  const { url, address, family } = target;
  const secure = url.protocol === "https:";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
  return new Promise<PushAnswer>((resolve, reject) => {
    const request = (secure ? https : http).request({
      method: "POST",
      protocol: url.protocol,
      hostname: host,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers,
      agent: false,
      timeout: SEND_TIMEOUT_MS,
      // The socket connects to the address the guard checked, whatever DNS says now.
      lookup: pinnedLookup(address, family),
      ...(secure && !net.isIP(host) ? { servername: host } : {}),
    });
    request.on("timeout", () =>
      request.destroy(new PushFailed(`no answer within ${SEND_TIMEOUT_MS / 1000} s`)),
    );
    request.on("error", (error) =>
      reject(error instanceof PushFailed ? error : new PushFailed(error.message)),
    );
    request.on("response", (response) => {
      // The answer's body says nothing the status does not; read and drop it (a few bytes).
      response.resume();
      response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
      response.on("error", () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.end(details.body ?? undefined);
  });
}
