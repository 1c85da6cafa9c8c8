import type { DbOrTx } from "../../../db/index.ts";
import type { PushUrgency } from "../../../db/schema.ts";
import { defineJob } from "../../jobs/job.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import * as repo from "./repository.ts";

/**
 * Queuing pushes (docs/decisions/0109-push-alerts.md): called inside the transaction that writes
 * what they tell of (the notification), so a push exists only if that was committed, and the
 * push.send job that sends them is queued in the same transaction. Members without a
 * subscription get no message at all.
 */

/** What is pushed, each with its own urgency and shelf life at the push service. */
export const PUSH_KINDS = {
  /** An instant keyword alert: a deal dies within the hour, so it is urgent and soon stale. */
  alert: { urgency: "high", ttlSeconds: 60 * 60 },
  /** A reply to the member's comment. */
  reply: { urgency: "normal", ttlSeconds: 24 * 60 * 60 },
  /** New deals in the member's feed: one notification, replaced by the next. */
  feed: { urgency: "low", ttlSeconds: 12 * 60 * 60 },
  /** A moderator's decision on the member's post or comment. */
  moderation: { urgency: "normal", ttlSeconds: 3 * 24 * 60 * 60 },
} as const satisfies Record<string, { urgency: PushUrgency; ttlSeconds: number }>;

export type PushKind = keyof typeof PUSH_KINDS;

export interface PushNotice {
  userId: number;
  kind: PushKind;
  title: string;
  body: string;
  /** A site path (the deal, the comment). */
  url: string;
  /** Replaces an earlier notification with the same tag on the device (and topic at the service). */
  tag: string;
  /** When the deal it tells of became public (alerts): the speed figure's start. */
  publicAt?: Date;
}

/** One job per this many messages: a batch a single attempt sends in seconds. */
export const MESSAGES_PER_JOB = 200;

/** Sends push messages to their members' subscriptions. */
export const pushSendJob = defineJob<{ messageIds: number[] }>({
  name: "push.send",
  retryLimit: 6,
  retryDelaySeconds: 10,
  retryDelayMaxSeconds: 600,
  timeoutSeconds: 5 * 60,
  keepSeconds: 3600,
  // Alerts must leave within seconds of the deal (the 30 s, p95): poll every second.
  pollSeconds: 1,
});

/** The first `max` characters of `text`, cut at a word with an ellipsis when longer. */
export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Title and body are kept short: the payload stays far below the 4 kB push services take. */
const TITLE_MAX = 80;
const BODY_MAX = 240;
/** Largest number of user ids in one lookup (PostgreSQL's bound is 65,535 parameters). */
const USERS_PER_LOOKUP = 5_000;

export async function queuePushes(
  jobs: JobQueue,
  tx: DbOrTx,
  notices: readonly PushNotice[],
): Promise<number> {
  if (notices.length === 0) return 0;
  const subscribed = new Set<number>();
  const userIds = [...new Set(notices.map((n) => n.userId))];
  for (let i = 0; i < userIds.length; i += USERS_PER_LOOKUP) {
    for (const id of await repo.subscribedAmong(tx, userIds.slice(i, i + USERS_PER_LOOKUP)))
      subscribed.add(id);
  }
  const wanted = notices.filter((n) => subscribed.has(n.userId));
  let queued = 0;
  for (let i = 0; i < wanted.length; i += MESSAGES_PER_JOB) {
    const ids = await repo.insertMessages(
      tx,
      wanted.slice(i, i + MESSAGES_PER_JOB).map((n) => ({
        ...n,
        title: shorten(n.title, TITLE_MAX),
        body: shorten(n.body, BODY_MAX),
        ...PUSH_KINDS[n.kind],
      })),
    );
    await jobs.send(pushSendJob, { messageIds: ids }, tx);
    queued += ids.length;
  }
  return queued;
}
