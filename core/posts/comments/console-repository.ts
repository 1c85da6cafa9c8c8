import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { idInText } from "../../list-query.ts";
import { containsPattern } from "../../like-pattern.ts";
import type { CommentListInput } from "./console-schema.ts";

type Filter = Omit<CommentListInput, "page">;

/** A placeholder left by a hard delete: no text, no author, marked deleted. */
const PLACEHOLDER_BODY = "";

function filtered(db: DbOrTx, filter: Filter) {
  let query = db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .leftJoin("users", "users.id", "comments.user_id");
  if (filter.q) query = query.where("comments.body", "ilike", containsPattern(filter.q));
  if (filter.author) {
    const author = filter.author;
    const id = idInText(author);
    query = query.where((eb) =>
      eb.or([
        ...(id === null ? [] : [eb("comments.user_id", "=", id)]),
        eb("users.name", "ilike", containsPattern(author)),
        eb("users.email", "ilike", containsPattern(author)),
      ]),
    );
  }
  if (filter.post) {
    const post = filter.post;
    query = query.where((eb) =>
      eb.or([eb("posts.unique_id", "=", post), eb("posts.title", "ilike", containsPattern(post))]),
    );
  }
  if (filter.status === "deleted") query = query.where("comments.deleted_at", "is not", null);
  else if (filter.status) {
    query = query
      .where("comments.status", "=", filter.status)
      .where("comments.deleted_at", "is", null);
  }
  return query;
}

export async function countComments(db: DbOrTx, filter: Filter) {
  const row = await filtered(db, filter)
    .select(sql<number>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of comments, newest first, with their post, author and number of replies. */
export function findComments(db: DbOrTx, filter: Filter, page: { limit: number; offset: number }) {
  return filtered(db, filter)
    .select([
      "comments.id",
      "comments.body",
      "comments.status",
      "comments.deleted_at",
      "comments.created_at",
      "comments.parent_id",
      "comments.user_id",
      "posts.unique_id as post_unique_id",
      "posts.slug as post_slug",
      "posts.post_type",
      "posts.title as post_title",
      "posts.status as post_status",
      "users.name as user_name",
      "users.deleted_at as user_deleted_at",
      (eb) =>
        eb
          .selectFrom("comments as r")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("r.parent_id", "=", "comments.id")
          .as("replies"),
    ])
    .orderBy("comments.created_at", "desc")
    .orderBy("comments.id", "desc")
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

export type ConsoleCommentRow = Awaited<ReturnType<typeof findComments>>[number];

/** The ids of one member's comments and replies, deleted or not (unlocked). */
export async function findCommentIdsOfAuthor(db: DbOrTx, userId: number) {
  const rows = await db.selectFrom("comments").select("id").where("user_id", "=", userId).execute();
  return rows.map((row) => row.id);
}

/** The posts of these comments (unlocked: the posts are locked next, then the comments). */
export async function findPostIdsOf(db: DbOrTx, commentIds: number[]) {
  const rows = await db
    .selectFrom("comments")
    .select("post_id")
    .distinct()
    .where("id", "in", commentIds)
    .execute();
  return rows.map((row) => row.post_id);
}

/**
 * Locks posts in id order: a comment or reply being added locks its post too
 * (core/posts/post-counters.ts lockLivePost), so counts recomputed under these locks stay exact.
 */
export async function lockPostsById(db: DbOrTx, postIds: number[]) {
  if (postIds.length === 0) return;
  await db
    .selectFrom("posts")
    .select("id")
    .where("id", "in", postIds)
    .orderBy("id")
    .forUpdate()
    .execute();
}

/** The comments with these ids, locked, each with its post and number of direct replies. */
export function lockComments(db: DbOrTx, ids: number[]) {
  return db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .select([
      "comments.id",
      "comments.post_id",
      "comments.parent_id",
      "comments.user_id",
      "comments.status",
      "comments.deleted_at",
      "comments.created_at",
      "posts.unique_id as post_unique_id",
    ])
    .where("comments.id", "in", ids)
    .orderBy("comments.id")
    .forUpdate("comments")
    .execute();
}

export type LockedComment = Awaited<ReturnType<typeof lockComments>>[number];

export async function countReplies(db: DbOrTx, commentId: number) {
  const row = await db
    .selectFrom("comments")
    .select(sql<number>`count(*)`.as("n"))
    .where("parent_id", "=", commentId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Removes a comment's text and author but keeps its row, so its replies keep their place. */
export function blankComment(db: DbOrTx, commentId: number, at: Date) {
  return db
    .updateTable("comments")
    .set({
      body: PLACEHOLDER_BODY,
      user_id: null,
      deleted_at: sql<Date>`coalesce(deleted_at, ${at})`,
    })
    .where("id", "=", commentId)
    .execute();
}

export function deleteComment(db: DbOrTx, commentId: number) {
  return db.deleteFrom("comments").where("id", "=", commentId).execute();
}

/**
 * Deletes the placeholders of these posts that no longer have replies (a thread deleted from the
 * bottom up leaves nothing behind), a level at a time.
 */
export async function prunePlaceholders(db: DbOrTx, postIds: number[]) {
  if (postIds.length === 0) return;
  for (;;) {
    const result = await db
      .deleteFrom("comments as c")
      .where("c.post_id", "in", postIds)
      .where("c.deleted_at", "is not", null)
      .where("c.body", "=", PLACEHOLDER_BODY)
      .where("c.user_id", "is", null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(selectFrom("comments as r").select("r.id").whereRef("r.parent_id", "=", "c.id")),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return;
  }
}

/** Which of these comment ids still name a row. */
export async function existingCommentIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db.selectFrom("comments").select("id").where("id", "in", ids).execute();
  return new Set(rows.map((row) => row.id));
}

/**
 * Settles the open reports of deleted comments ("deleted", by the staff member who did it; null:
 * by their author, deleting their account).
 */
export function resolveReportsOfDeleted(
  db: DbOrTx,
  commentIds: number[],
  actorId: number | null,
  at: Date,
) {
  return db
    .updateTable("reports")
    .set({ status: "resolved", resolution: "deleted", resolved_by: actorId, resolved_at: at })
    .where("status", "=", "open")
    .where("item_type", "=", "comment")
    .where("item_id", "in", commentIds.map(String))
    .execute();
}
