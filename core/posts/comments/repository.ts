import type { DbOrTx } from "../../../db/index.ts";

/**
 * A live comment of the given post (a reply must stay on its parent's post): not deleted, and not
 * hidden or removed by moderation.
 */
export function findLiveComment(db: DbOrTx, commentId: number, postId: number) {
  return db
    .selectFrom("comments")
    .select("id")
    .where("id", "=", commentId)
    .where("post_id", "=", postId)
    .where("deleted_at", "is", null)
    .where("status", "=", "active")
    .executeTakeFirst();
}

export function insertComment(
  db: DbOrTx,
  comment: {
    post_id: number;
    user_id: number;
    parent_id: number | null;
    body: string;
    created_at: Date;
  },
) {
  return db
    .insertInto("comments")
    .values(comment)
    .returning(["id", "post_id", "parent_id", "body", "created_at", "user_id", "likes_count"])
    .executeTakeFirstOrThrow();
}
