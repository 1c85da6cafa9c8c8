import { requireActingUser, requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { ValidationError } from "../../errors.ts";
import type { Resolver } from "../../posts/freshness/address-guard.ts";
import { EndpointRefused, vetEndpoint } from "./endpoint-guard.ts";
import * as repo from "./repository.ts";
import {
  PUSH_MESSAGES as M,
  type PushSubscribeInput,
  type PushUnsubscribeInput,
} from "./schema.ts";
import { readOrMakeVapidKeys } from "./vapid.ts";

/**
 * Push subscriptions (docs/decisions/0109-push-alerts.md): a member turns push on per device
 * (browser profile); the device's endpoint is checked now and again at every send.
 */

/** The speed figure is published only with at least this many alert pushes behind it. */
export const SPEED_MIN_PUSHES = 20;
/** …sent within this many days. */
export const SPEED_WINDOW_DAYS = 30;
export const SPEED_PERCENTILE = 0.95;

/** "Chrome on Android": what the settings list calls a device, from its User-Agent. */
export function deviceLabel(userAgent: string | undefined): string {
  const ua = userAgent ?? "";
  const browser =
    [
      [/Edg(A|iOS)?\//, "Edge"],
      [/SamsungBrowser\//, "Samsung Internet"],
      [/OPR\/|Opera/, "Opera"],
      [/Firefox\/|FxiOS\//, "Firefox"],
      [/Chrome\/|CriOS\//, "Chrome"],
      [/Safari\//, "Safari"],
    ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] ?? "A browser";
  const system =
    [
      [/Android/, "Android"],
      [/iPhone/, "iPhone"],
      [/iPad/, "iPad"],
      [/CrOS/, "ChromeOS"],
      [/Windows/, "Windows"],
      [/Mac OS X|Macintosh/, "macOS"],
      [/Linux/, "Linux"],
    ].find(([pattern]) => (pattern as RegExp).test(ua))?.[1] ?? null;
  return system ? `${browser} on ${system}` : String(browser);
}

export function createPushService(
  {
    db,
    config,
    now,
  }: Pick<Deps, "db" | "now"> & {
    config: Pick<Deps["config"], "pushAllowLoopback">;
  },
  options: { resolve?: Resolver } = {},
) {
  return {
    /** The browser's applicationServerKey (made the first time anyone asks). */
    async publicKey(): Promise<string> {
      return (await readOrMakeVapidKeys(db)).publicKey;
    },

    /** `POST /api/push_subscribe`: this device gets the member's pushes. */
    async subscribe(
      user: CurrentUser | null,
      input: PushSubscribeInput,
      device: { userAgent?: string } = {},
    ) {
      const actor = requireActingUser(user, input.user_id);
      try {
        await vetEndpoint(input.endpoint, config.pushAllowLoopback, options.resolve);
      } catch (error) {
        if (error instanceof EndpointRefused)
          throw new ValidationError({ endpoint: error.message });
        throw error;
      }
      await repo.saveSubscription(db, {
        userId: actor.id,
        endpoint: input.endpoint,
        p256dh: input.keys.p256dh,
        auth: input.keys.auth,
        deviceLabel: deviceLabel(device.userAgent),
      });
      return { message: M.subscribed, subscribed: true };
    },

    /** `POST /api/push_unsubscribe`: this device gets no more pushes. */
    async unsubscribe(user: CurrentUser | null, input: PushUnsubscribeInput) {
      const actor = requireActingUser(user, input.user_id);
      const removed = await repo.deleteSubscription(db, actor.id, input.endpoint);
      return { message: removed ? M.unsubscribed : M.notSubscribed, subscribed: false };
    },

    /** The member's devices that get pushes, newest first (the settings page's list). */
    async devices(user: CurrentUser | null) {
      const actor = requireUser(user);
      const rows = await repo.listSubscriptions(db, actor.id);
      return rows.map((row) => ({
        label: row.device_label || "A browser",
        since: row.created_at.toISOString(),
        last_used: row.last_used_at?.toISOString() ?? null,
        endpoint: row.endpoint,
      }));
    },

    /**
     * How soon alert pushes leave after their deal became public: the 95th percentile over the
     * last 30 days, in whole seconds rounded up, or null with fewer than 20 pushes to go by.
     */
    async alertSpeed(): Promise<{ seconds: number | null; pushes: number }> {
      const since = new Date(now().getTime() - SPEED_WINDOW_DAYS * 86_400_000);
      const { seconds, count } = await repo.timingPercentile(db, since, SPEED_PERCENTILE);
      if (count < SPEED_MIN_PUSHES || seconds === null) return { seconds: null, pushes: count };
      return { seconds: Math.max(1, Math.ceil(seconds)), pushes: count };
    },
  };
}

export type PushService = ReturnType<typeof createPushService>;
