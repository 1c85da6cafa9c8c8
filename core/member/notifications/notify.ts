import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/** One in-site message to one user: what happened (kind), in words, and where to look. */
export interface NewNotification {
  userId: number;
  /** What kind of event it tells of: "report_resolved", "moderation", "post_comment"… */
  kind: string;
  message: string;
  /** A site path to the item concerned; "" when there is nothing to show. */
  link?: string;
  /** The member whose action it tells of, when there is one. */
  actorId?: number;
  /**
   * Collapses notifications into one unread notification per user and `key` (all the likes of one
   * post): a later one adds its actor to the list, rewrites the message with `message(others)`
   * (others: how many other members acted before) and comes back to the top, unmailed. Needs
   * `actorId`. `message` above is what the first one says.
   */
  group?: { key: string; message: (others: number) => string };
}

async function notifyGrouped(tx: DbOrTx, n: NewNotification & { group: object }) {
  const group = n.group!;
  const actorId = n.actorId!;
  const existing = await tx
    .selectFrom("notifications")
    .select(["id", "actor_ids"])
    .where("user_id", "=", n.userId)
    .where("group_key", "=", group.key)
    .where("read_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (existing) {
    const before = existing.actor_ids.map(Number);
    // The same member again (a like taken back and given again) is no news.
    if (before.includes(actorId)) return;
    const actors = [actorId, ...before];
    await tx
      .updateTable("notifications")
      .set({
        actor_ids: actors,
        message: group.message(actors.length - 1),
        link: n.link ?? "",
        created_at: sql<Date>`now()`,
        mailed_at: null,
      })
      .where("id", "=", existing.id)
      .execute();
    return;
  }
  await tx
    .insertInto("notifications")
    .values({
      user_id: n.userId,
      kind: n.kind,
      message: n.message,
      link: n.link ?? "",
      group_key: group.key,
      actor_ids: [actorId],
    })
    // Two first likes racing each other: the other one's row stands.
    .onConflict((oc) =>
      oc
        .columns(["user_id", "group_key"])
        .where("read_at", "is", null)
        .where("group_key", "is not", null)
        .doNothing(),
    )
    .execute();
}

/**
 * Leaves in-site messages for users, inside the caller's transaction: a notification exists only
 * if the action it tells of was committed. Any feature that tells users something writes here;
 * the notification mail job (./mail-job.ts) mails them to members who want that kind.
 */
export async function notify(tx: DbOrTx, notifications: readonly NewNotification[]) {
  const plain = notifications.filter((n) => !(n.group && n.actorId !== undefined));
  for (const n of notifications) {
    if (n.group && n.actorId !== undefined)
      await notifyGrouped(tx, n as NewNotification & { group: object });
  }
  if (plain.length === 0) return;
  await tx
    .insertInto("notifications")
    .values(
      plain.map((n) => ({
        user_id: n.userId,
        kind: n.kind,
        message: n.message,
        link: n.link ?? "",
        actor_ids: n.actorId === undefined ? [] : [n.actorId],
      })),
    )
    .execute();
}
