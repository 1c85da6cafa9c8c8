import { sql } from "kysely";
import type { DbOrTx } from "../../../../db/index.ts";

/**
 * A live comment on a live post (not deleted, not hidden or removed by moderation, its post
 * public), locked until the transaction ends so that presses on one comment are applied one at a
 * time; null when there is none.
 */
export function lockLiveComment(db: DbOrTx, commentId: number) {
  return db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .select(["comments.id", "comments.user_id", "comments.post_id", "comments.likes_count"])
    .where("comments.id", "=", commentId)
    .where("comments.deleted_at", "is", null)
    .where("comments.status", "=", "active")
    .where("posts.status", "=", "active")
    .modifyEnd(sql`FOR UPDATE OF comments`)
    .executeTakeFirst();
}

export async function hasLiked(db: DbOrTx, commentId: number, userId: number) {
  const row = await db
    .selectFrom("comment_likes")
    .select("comment_id")
    .where("comment_id", "=", commentId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function addLike(db: DbOrTx, commentId: number, userId: number, at: Date) {
  await db
    .insertInto("comment_likes")
    .values({ comment_id: commentId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(["comment_id", "user_id"]).doNothing())
    .execute();
}

export async function removeLike(db: DbOrTx, commentId: number, userId: number) {
  await db
    .deleteFrom("comment_likes")
    .where("comment_id", "=", commentId)
    .where("user_id", "=", userId)
    .execute();
}

/**
 * Marks the comment's likes as changed (the reputation job recomputes its author) and reads its
 * count, which migration 039's trigger has kept.
 */
export async function markChanged(db: DbOrTx, commentId: number, at: Date) {
  const row = await db
    .updateTable("comments")
    .set({ likes_changed_at: at })
    .where("id", "=", commentId)
    .returning("likes_count")
    .executeTakeFirstOrThrow();
  return row.likes_count;
}
