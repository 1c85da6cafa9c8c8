import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { prepared } from "../../../db/prepared.ts";

/** A page of a user's notifications, newest first (notifications_user_idx). */
export function findNotifications(db: DbOrTx, userId: number, offset: number, limit: number) {
  return db
    .selectFrom("notifications")
    .select(["id", "kind", "message", "link", "read_at", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
}

export type NotificationRow = Awaited<ReturnType<typeof findNotifications>>[number];

/** How many notifications a user has, and how many of them are unread. */
export async function countNotifications(db: DbOrTx, userId: number) {
  const row = await db
    .selectFrom("notifications")
    .select([
      sql<number>`count(*)::int`.as("total"),
      sql<number>`(count(*) FILTER (WHERE read_at IS NULL))::int`.as("unread"),
    ])
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), unread: Number(row.unread) };
}

/** How many unread notifications a user has (notifications_unread_idx). */
export async function countUnread(db: DbOrTx, userId: number): Promise<number> {
  // Every page a member opens asks for it (the header's bell): planned once.
  const row = await prepared(db.selectFrom("notifications"))
    .select(sql<number>`count(*)::int`.as("n"))
    .where("user_id", "=", userId)
    .where("read_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks one of the user's notifications read, or all of them when `id` is undefined. */
export async function markRead(db: DbOrTx, userId: number, at: Date, id?: number) {
  let query = db
    .updateTable("notifications")
    .set({ read_at: at })
    .where("user_id", "=", userId)
    .where("read_at", "is", null);
  if (id !== undefined) query = query.where("id", "=", id);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Whether the notification exists and is the user's. */
export async function ownsNotification(db: DbOrTx, userId: number, id: number) {
  const row = await db
    .selectFrom("notifications")
    .select("id")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}
