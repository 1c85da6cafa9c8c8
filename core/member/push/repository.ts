import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { PushUrgency } from "../../../db/schema.ts";

/** Push subscriptions, messages, deliveries and timings (migration 040). */

export async function saveSubscription(
  db: DbOrTx,
  row: { userId: number; endpoint: string; p256dh: string; auth: string; deviceLabel: string },
) {
  // The same endpoint subscribed again (new keys, or another member on the same browser) is one
  // row, which moves to the member subscribing now: the browser delivers to one profile only.
  await db
    .insertInto("push_subscriptions")
    .values({
      user_id: row.userId,
      endpoint: row.endpoint,
      p256dh: row.p256dh,
      auth: row.auth,
      device_label: row.deviceLabel,
    })
    .onConflict((oc) =>
      oc.column("endpoint").doUpdateSet({
        user_id: row.userId,
        p256dh: row.p256dh,
        auth: row.auth,
        device_label: row.deviceLabel,
        created_at: sql<Date>`now()`,
      }),
    )
    .execute();
}

/** Removes a member's subscription of `endpoint`; whether there was one. */
export async function deleteSubscription(db: DbOrTx, userId: number, endpoint: string) {
  const result = await db
    .deleteFrom("push_subscriptions")
    .where("user_id", "=", userId)
    .where("endpoint", "=", endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function deleteSubscriptionById(db: DbOrTx, id: number) {
  return db.deleteFrom("push_subscriptions").where("id", "=", id).execute();
}

export function listSubscriptions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("push_subscriptions")
    .select(["id", "endpoint", "device_label", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .execute();
}

/** Of `userIds`, those with at least one subscription. */
export async function subscribedAmong(db: DbOrTx, userIds: readonly number[]) {
  if (userIds.length === 0) return new Set<number>();
  const rows = await db
    .selectFrom("push_subscriptions")
    .select("user_id")
    .distinct()
    .where("user_id", "in", userIds)
    .execute();
  return new Set(rows.map((r) => Number(r.user_id)));
}

export interface NewPushMessage {
  userId: number;
  kind: string;
  title: string;
  body: string;
  url: string;
  tag: string;
  urgency: PushUrgency;
  ttlSeconds: number;
  publicAt?: Date | null;
}

export async function insertMessages(db: DbOrTx, messages: readonly NewPushMessage[]) {
  if (messages.length === 0) return [];
  const rows = await db
    .insertInto("push_messages")
    .values(
      messages.map((m) => ({
        user_id: m.userId,
        kind: m.kind,
        title: m.title,
        body: m.body,
        url: m.url,
        tag: m.tag,
        urgency: m.urgency,
        ttl_seconds: m.ttlSeconds,
        public_at: m.publicAt ?? null,
      })),
    )
    .returning("id")
    .execute();
  return rows.map((r) => Number(r.id));
}

/**
 * What the send job still has to do for these messages: each message with each subscription of
 * its member that it has not reached yet.
 */
export function findUndelivered(db: DbOrTx, messageIds: readonly number[]) {
  return db
    .selectFrom("push_messages as m")
    .innerJoin("push_subscriptions as s", "s.user_id", "m.user_id")
    .leftJoin("push_deliveries as d", (join) =>
      join.onRef("d.message_id", "=", "m.id").onRef("d.subscription_id", "=", "s.id"),
    )
    .select([
      "m.id as message_id",
      "m.title",
      "m.body",
      "m.url",
      "m.tag",
      "m.urgency",
      "m.ttl_seconds",
      "m.public_at",
      "m.created_at",
      "s.id as subscription_id",
      "s.endpoint",
      "s.p256dh",
      "s.auth",
    ])
    .where("m.id", "in", messageIds)
    .where("d.message_id", "is", null)
    .orderBy("m.id")
    .orderBy("s.id")
    .execute();
}

/** A message reached a subscription: it is not sent there again, and the device was used. */
export async function recordDelivery(
  db: DbOrTx,
  delivery: { messageId: number; subscriptionId: number; at: Date; publicSeconds: number | null },
) {
  await db
    .insertInto("push_deliveries")
    .values({
      message_id: delivery.messageId,
      subscription_id: delivery.subscriptionId,
      sent_at: delivery.at,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .updateTable("push_subscriptions")
    .set({ last_used_at: delivery.at })
    .where("id", "=", delivery.subscriptionId)
    .execute();
  if (delivery.publicSeconds !== null) {
    await db
      .insertInto("push_timings")
      .values({ sent_at: delivery.at, seconds: delivery.publicSeconds })
      .execute();
  }
}

/** The 95th percentile of alert pushes' seconds since `since`, and how many there were. */
export async function timingPercentile(db: DbOrTx, since: Date, fraction: number) {
  const row = await db
    .selectFrom("push_timings")
    .select([
      sql<number | null>`percentile_cont(${fraction}) WITHIN GROUP (ORDER BY seconds)`.as("p"),
      sql<number>`count(*)::int`.as("count"),
    ])
    .where("sent_at", ">=", since)
    .executeTakeFirstOrThrow();
  return { seconds: row.p === null ? null : Number(row.p), count: Number(row.count) };
}

/** The nightly sweep: messages and timings older than `before`. */
export async function deleteOlderThan(db: DbOrTx, before: Date) {
  const messages = await db
    .deleteFrom("push_messages")
    .where("created_at", "<", before)
    .executeTakeFirst();
  await db.deleteFrom("push_timings").where("sent_at", "<", before).execute();
  return Number(messages.numDeletedRows);
}

/** Account deletion and "Download my data". */
export async function deleteAllOf(db: DbOrTx, userId: number) {
  await db.deleteFrom("push_messages").where("user_id", "=", userId).execute();
  await db.deleteFrom("push_subscriptions").where("user_id", "=", userId).execute();
}
