import { createHash } from "node:crypto";
import type { Db } from "../../../db/index.ts";
import type { Resolver } from "../../posts/freshness/address-guard.ts";
import { EndpointRefused, vetEndpoint, type VettedEndpoint } from "./endpoint-guard.ts";
import * as repo from "./repository.ts";
import { PushFailed, sendPush } from "./sender.ts";
import { readOrMakeVapidKeys, vapidSubject, type VapidKeys } from "./vapid.ts";

/**
 * The push.send job's work (docs/decisions/0109-push-alerts.md): each message to each of its
 * member's subscriptions it has not reached yet, a few at a time. 404 and 410 mean the browser
 * dropped the subscription: it is removed. No answer, 429 or 5xx: the job fails after trying the
 * rest and pg-boss retries it, and the retry skips the devices already reached (push_deliveries).
 * Other answers (400, 403, 413) would fail again as they are: logged, not retried.
 */

export interface PushJobDeps {
  db: Db;
  now: () => Date;
  publicUrl: string;
  log: { info(msg: string): void; warn(msg: string): void };
  /** PUSH_ALLOW_LOOPBACK: tests' local push service. */
  allowLoopback: boolean;
  /** Tests: how host names resolve. */
  resolve?: Resolver;
  /** Sends at once (a member's devices, or many members'). */
  concurrency?: number;
}

export const DEFAULT_PUSH_CONCURRENCY = 16;

/** An attempt's failures that another attempt may get through. */
class PushRetry extends Error {}

export function sendPushMessages(deps: PushJobDeps) {
  let vapid: Promise<VapidKeys> | undefined;
  const subject = vapidSubject(deps.publicUrl);
  return async ({ messageIds }: { messageIds: number[] }) => {
    if (messageIds.length === 0) return;
    vapid ??= readOrMakeVapidKeys(deps.db).catch((error: unknown) => {
      vapid = undefined;
      throw error;
    });
    const keys = await vapid;
    const pending = await repo.findUndelivered(deps.db, messageIds);
    // One guard check per endpoint host per attempt: DNS asked once for a member's many messages.
    const vetted = new Map<string, Promise<VettedEndpoint>>();
    const vet = (endpoint: string) => {
      const origin = new URL(endpoint).origin;
      let found = vetted.get(origin);
      if (!found) {
        found = vetEndpoint(endpoint, deps.allowLoopback, deps.resolve);
        // Handled where awaited; this keeps an unawaited rejection from being reported.
        found.catch(() => {});
        vetted.set(origin, found);
      }
      return found.then((target) => ({ ...target, url: new URL(endpoint) }));
    };
    let failed = 0;
    let gone = 0;
    const sendOne = async (row: (typeof pending)[number]) => {
      const at = deps.now();
      if (row.created_at.getTime() + row.ttl_seconds * 1000 < at.getTime()) return; // stale
      let target: VettedEndpoint;
      try {
        target = await vet(row.endpoint);
      } catch (error) {
        if (!(error instanceof EndpointRefused)) throw error;
        deps.log.warn(`push: subscription ${row.subscription_id} not sent: ${error.message}`);
        return;
      }
      let status: number;
      try {
        ({ status } = await sendPush(
          target,
          row,
          { title: row.title, body: row.body, url: row.url, tag: row.tag },
          {
            ttlSeconds: row.ttl_seconds,
            urgency: row.urgency,
            topic: topicOf(row.tag),
            vapid: keys,
            subject,
          },
        ));
      } catch (error) {
        if (!(error instanceof PushFailed)) throw error;
        failed++;
        deps.log.warn(`push: subscription ${row.subscription_id}: ${error.message}`);
        return;
      }
      if (status >= 200 && status < 300) {
        const sentAt = deps.now();
        await repo.recordDelivery(deps.db, {
          messageId: row.message_id,
          subscriptionId: row.subscription_id,
          at: sentAt,
          publicSeconds: row.public_at
            ? Math.max(0, (sentAt.getTime() - row.public_at.getTime()) / 1000)
            : null,
        });
      } else if (status === 404 || status === 410) {
        gone++;
        await repo.deleteSubscriptionById(deps.db, row.subscription_id);
      } else if (status === 429 || status >= 500) {
        failed++;
        deps.log.warn(
          `push: subscription ${row.subscription_id}: the push service answered ${status}`,
        );
      } else {
        deps.log.warn(
          `push: subscription ${row.subscription_id}: the push service refused the message (${status})`,
        );
      }
    };
    await eachAtMost(deps.concurrency ?? DEFAULT_PUSH_CONCURRENCY, pending, sendOne);
    if (gone)
      deps.log.info(`push: ${gone} subscriptions removed (the push service no longer has them)`);
    if (failed)
      throw new PushRetry(`push: ${failed} of ${pending.length} sends failed; retrying those`);
  };
}

/**
 * The Topic header (RFC 8030 §5.4): at most 32 base64url characters. A tag longer or with other
 * characters is hashed down, so the same tag always makes the same topic.
 */
export function topicOf(tag: string): string {
  if (/^[A-Za-z0-9_-]{1,32}$/.test(tag)) return tag;
  return createHash("sha256").update(tag).digest("base64url").slice(0, 32);
}

/** Runs `work` on every item, at most `limit` at once. */
async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T) => Promise<void>) {
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(runners);
}
