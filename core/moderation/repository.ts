import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { newcomerRulesOf } from "./newcomer-links.ts";
import type { CommentStatus, PostStatus, ReportItemType, ReportReason } from "../../db/schema.ts";

/** A post of any status, locked for the moderation that follows. */
export function lockPostForModeration(db: DbOrTx, uniqueId: string, postType: "d" | "g") {
  return db
    .selectFrom("posts")
    .select([
      "id",
      "unique_id",
      "slug",
      "post_type",
      "user_id",
      "status",
      "title",
      "moderation_reason",
    ])
    .where("unique_id", "=", uniqueId)
    .where("post_type", "=", postType)
    .forUpdate()
    .executeTakeFirst();
}

export function setPostStatus(db: DbOrTx, postId: number, status: PostStatus, reason: string) {
  return db
    .updateTable("posts")
    .set({ status, moderation_reason: reason })
    .where("id", "=", postId)
    .execute();
}

/** A comment of any status, locked for the moderation that follows, with its post's address. */
export function lockCommentForModeration(db: DbOrTx, commentId: number) {
  return db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .select([
      "comments.id",
      "comments.post_id",
      "comments.user_id",
      "comments.status",
      "comments.body",
      "posts.unique_id as post_unique_id",
      "posts.slug as post_slug",
      "posts.post_type",
      "posts.title as post_title",
    ])
    .where("comments.id", "=", commentId)
    .forUpdate("comments")
    .executeTakeFirst();
}

export function setCommentStatus(db: DbOrTx, commentId: number, status: CommentStatus) {
  return db.updateTable("comments").set({ status }).where("id", "=", commentId).execute();
}

/** A member as the queue names them, whatever their state. */
export function findUserForModeration(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "name", "deleted_at"])
    .where("id", "=", userId)
    .executeTakeFirst();
}

// Reports ---------------------------------------------------------------------------------------

/**
 * Serialises reports of one item until the transaction ends, so that the count of distinct
 * reporters the auto-hide reads is never short of a report being written at the same moment.
 */
export async function lockReportedItem(tx: DbOrTx, itemType: ReportItemType, itemId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`report:${itemType}:${itemId}`}, 0))`.execute(
    tx,
  );
}

/** A deal or discussion to be reported: its author, state and address. */
export function findReportedPost(db: DbOrTx, uniqueId: string, postType: "d" | "g") {
  return db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug", "post_type", "user_id", "status", "title"])
    .where("unique_id", "=", uniqueId)
    .where("post_type", "=", postType)
    .executeTakeFirst();
}

/** A comment to be reported, with its post's state (a comment on a hidden post is not public). */
export function findReportedComment(db: DbOrTx, commentId: number) {
  return db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .select([
      "comments.id",
      "comments.user_id",
      "comments.status",
      "comments.deleted_at",
      "posts.status as post_status",
    ])
    .where("comments.id", "=", commentId)
    .executeTakeFirst();
}

export function findOpenReport(
  db: DbOrTx,
  reporterId: number,
  itemType: ReportItemType,
  itemId: string,
) {
  return db
    .selectFrom("reports")
    .select("id")
    .where("reporter_id", "=", reporterId)
    .where("item_type", "=", itemType)
    .where("item_id", "=", itemId)
    .where("status", "=", "open")
    .executeTakeFirst();
}

export function insertReport(
  db: DbOrTx,
  report: {
    item_type: ReportItemType;
    item_id: string;
    reporter_id: number;
    reason: ReportReason;
    note: string;
    created_at: Date;
  },
) {
  return db.insertInto("reports").values(report).returning("id").executeTakeFirstOrThrow();
}

/** How many different members have an open report on the item. */
export async function countOpenReporters(
  db: DbOrTx,
  itemType: ReportItemType,
  itemId: string,
): Promise<number> {
  const row = await db
    .selectFrom("reports")
    .select(sql<number>`count(DISTINCT reporter_id)::int`.as("n"))
    .where("item_type", "=", itemType)
    .where("item_id", "=", itemId)
    .where("status", "=", "open")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Closes every open report on the item with the moderator's decision; returns the reporters. */
export async function resolveOpenReports(
  db: DbOrTx,
  itemType: ReportItemType,
  itemId: string,
  resolution: string,
  resolvedBy: number | null,
) {
  const rows = await db
    .updateTable("reports")
    .set({
      status: "resolved",
      resolution,
      resolved_by: resolvedBy,
      resolved_at: sql<Date>`now()`,
    })
    .where("item_type", "=", itemType)
    .where("item_id", "=", itemId)
    .where("status", "=", "open")
    .returning("reporter_id")
    .execute();
  // A report of the site's own (reporter_id null: the link check) has nobody to tell.
  return [...new Set(rows.flatMap((row) => (row.reporter_id === null ? [] : [row.reporter_id])))];
}

/** The moderation settings of general_settings, with the migration's defaults when unset. */
export async function findModerationSettings(db: DbOrTx) {
  const row = await db
    .selectFrom("general_settings")
    .select([
      "report_hide_threshold",
      "hold_new_user_posts",
      "hold_new_user_days",
      "newcomer_link_posts",
      "newcomer_until_level",
      "newcomer_link_cap",
    ])
    .where("id", "=", 1)
    .executeTakeFirst();
  return {
    reportHideThreshold: row?.report_hide_threshold ?? 3,
    holdNewUserPosts: row?.hold_new_user_posts ?? false,
    holdNewUserDays: row?.hold_new_user_days ?? 7,
    newcomer: newcomerRulesOf(row),
  };
}

/**
 * How many of the member's posts are public, counted no further than `upTo` (the newcomer rules
 * only ask whether the number is reached).
 */
export async function countApprovedPosts(db: DbOrTx, userId: number, upTo: number) {
  if (upTo <= 0) return 0;
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom("posts")
        .select("posts.id")
        .where("posts.user_id", "=", userId)
        .where("posts.status", "=", "active")
        .limit(upTo)
        .as("approved"),
    )
    .select(sql<number>`count(*)::int`.as("n"))
    .executeTakeFirstOrThrow();
  return row.n;
}

// The queue -------------------------------------------------------------------------------------

/** One page of reported items: open reports grouped by item, most reported first, then newest. */
export function findReportGroups(db: DbOrTx, offset: number, limit: number) {
  return db
    .selectFrom("reports")
    .select([
      "item_type",
      "item_id",
      sql<number>`count(*)::int`.as("reports"),
      sql<Date>`min(created_at)`.as("first_reported_at"),
      sql<Date>`max(created_at)`.as("last_reported_at"),
    ])
    .where("status", "=", "open")
    .groupBy(["item_type", "item_id"])
    .orderBy(sql`count(*)`, "desc")
    .orderBy(sql`max(created_at)`, "desc")
    .orderBy("item_type")
    .orderBy("item_id")
    .offset(offset)
    .limit(limit)
    .execute();
}

export type ReportGroupRow = Awaited<ReturnType<typeof findReportGroups>>[number];

/** How many items have open reports. */
export async function countReportGroups(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom(
      db
        .selectFrom("reports")
        .select(["item_type", "item_id"])
        .where("status", "=", "open")
        .groupBy(["item_type", "item_id"])
        .as("g"),
    )
    .select(sql<number>`count(*)::int`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

type ItemKey = { item_type: ReportItemType; item_id: string };

function ofItems(items: readonly ItemKey[]) {
  return sql<boolean>`(reports.item_type, reports.item_id) IN (${sql.join(
    items.map((item) => sql`(${item.item_type}, ${item.item_id})`),
  )})`;
}

/** The reasons given in the open reports of some items, with how many gave each. */
export function findReportReasons(db: DbOrTx, items: readonly ItemKey[]) {
  return db
    .selectFrom("reports")
    .select(["item_type", "item_id", "reason", sql<number>`count(*)::int`.as("count")])
    .where("status", "=", "open")
    .where(ofItems(items))
    .groupBy(["item_type", "item_id", "reason"])
    .orderBy(sql`count(*)`, "desc")
    .orderBy("reason")
    .execute();
}

/** The newest notes (at most `perItem` of each item) of the open reports of some items. */
export function findReportNotes(db: DbOrTx, items: readonly ItemKey[], perItem: number) {
  const ranked = db
    .selectFrom("reports")
    .leftJoin("users", "users.id", "reports.reporter_id")
    .select([
      "reports.item_type",
      "reports.item_id",
      "reports.reason",
      "reports.note",
      "reports.created_at",
      "reports.reporter_id",
      "users.name as reporter_name",
      sql<number>`row_number() OVER (PARTITION BY reports.item_type, reports.item_id ORDER BY reports.created_at DESC, reports.id DESC)`.as(
        "n",
      ),
    ])
    .where("reports.status", "=", "open")
    .where("reports.note", "<>", "")
    .where(ofItems(items));
  return db
    .selectFrom(ranked.as("r"))
    .selectAll()
    .where("r.n", "<=", perItem)
    .orderBy("r.created_at", "desc")
    .execute();
}

/** Posts of any status by unique_id, as the queue shows them. */
export function findPostsByUniqueIds(db: DbOrTx, uniqueIds: readonly string[]) {
  if (uniqueIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("posts")
    .leftJoin("users", "users.id", "posts.user_id")
    .select([
      "posts.unique_id",
      "posts.slug",
      "posts.post_type",
      "posts.title",
      "posts.status",
      "posts.description_text",
      "posts.user_id",
      "users.name as user_name",
    ])
    .where("posts.unique_id", "in", uniqueIds)
    .execute();
}

/** Comments of any status by id, with their post's address, as the queue shows them. */
export function findCommentsByIds(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .leftJoin("users", "users.id", "comments.user_id")
    .select([
      "comments.id",
      "comments.body",
      "comments.status",
      "comments.deleted_at",
      "comments.user_id",
      "users.name as user_name",
      "posts.unique_id as post_unique_id",
      "posts.slug as post_slug",
      "posts.post_type",
      "posts.title as post_title",
    ])
    .where("comments.id", "in", ids)
    .execute();
}

/** Members by id, with their account state, as the queue shows them. */
export function findUsersByIds(db: DbOrTx, ids: readonly number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("users")
    .select(["id", "name", "biography", "deleted_at", "suspended_at", "suspended_until"])
    .where("id", "in", ids)
    .execute();
}

/** Posts held for review, oldest first (posts_moderation_idx), with their authors. */
export function findHeldPosts(db: DbOrTx, limit: number) {
  return db
    .selectFrom("posts")
    .leftJoin("users", "users.id", "posts.user_id")
    .select([
      "posts.unique_id",
      "posts.slug",
      "posts.post_type",
      "posts.title",
      "posts.description_text",
      "posts.created_at",
      "posts.user_id",
      "users.name as user_name",
      "users.created_at as user_joined_at",
    ])
    .where("posts.status", "=", "pending")
    .orderBy("posts.created_at")
    .orderBy("posts.id")
    .limit(limit)
    .execute();
}

export async function countHeldPosts(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("status", "=", "pending")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** When a member joined, and whether any of their posts is public (for holding new users' posts). */
export function findPosterHistory(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select((eb) => [
      "users.created_at",
      eb
        .exists(
          eb
            .selectFrom("posts")
            .select("posts.id")
            .whereRef("posts.user_id", "=", "users.id")
            .where("posts.status", "=", "active"),
        )
        .as("has_public_post"),
    ])
    .where("users.id", "=", userId)
    .executeTakeFirst();
}

/** Locks a post's row, so its counters are recounted one writer at a time. */
export function lockPostRow(db: DbOrTx, postId: number) {
  return db.selectFrom("posts").select("id").where("id", "=", postId).forUpdate().execute();
}

/** The post a comment belongs to (no lock: the caller locks the post, then the comment). */
export async function findCommentPostId(db: DbOrTx, commentId: number) {
  const row = await db
    .selectFrom("comments")
    .select("post_id")
    .where("id", "=", commentId)
    .executeTakeFirst();
  return row?.post_id;
}
