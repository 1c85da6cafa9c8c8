import { PushKeyResponse, PushSubscriptionResponse } from "../../core/member/push/responses.ts";
import { PushSubscribeBody, PushUnsubscribeBody } from "../../core/member/push/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** Push notifications to members' devices (record 0109). */
export const pushApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/push_key",
    tag: "Notifications",
    summary:
      "The site's VAPID public key (public_key, base64url) for PushManager.subscribe's " +
      "applicationServerKey, and the signed-in member's devices that get push notifications",
    response: PushKeyResponse,
    auth: true,
    handler: async ({ request }) => ({
      status: "true" as const,
      public_key: await services.push.publicKey(),
      devices: await services.push.devices(request.user),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/push_subscribe",
    tag: "Notifications",
    summary:
      "Turns push notifications on for this device: the browser's PushSubscription " +
      "{endpoint, keys: {p256dh, auth}}. The endpoint must be https on a public address (422 " +
      "otherwise, saying why); the same endpoint subscribed again moves to the signed-in member",
    body: PushSubscribeBody,
    response: PushSubscriptionResponse,
    auth: true,
    rateLimit: RATE_LIMITS.push,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.push.subscribe(request.user, input, {
        userAgent: request.headers["user-agent"],
      })),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/push_unsubscribe",
    tag: "Notifications",
    summary:
      "Turns push notifications off for this device {endpoint}; subscribed false either way, " +
      "with a message saying whether it was on",
    body: PushUnsubscribeBody,
    response: PushSubscriptionResponse,
    auth: true,
    rateLimit: RATE_LIMITS.push,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.push.unsubscribe(request.user, input)),
    }),
  });
};
