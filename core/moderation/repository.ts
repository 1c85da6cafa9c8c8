import type { DbOrTx } from "../../db/index.ts";
import type { CommentStatus, PostStatus } from "../../db/schema.ts";

/** A post of any status, locked for the moderation that follows. */
export function lockPostForModeration(db: DbOrTx, uniqueId: string, postType: "d" | "g") {
  return db
    .selectFrom("posts")
    .select(["id", "unique_id", "user_id", "status", "title", "moderation_reason"])
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

/** A comment of any status, locked for the moderation that follows. */
export function lockCommentForModeration(db: DbOrTx, commentId: number) {
  return db
    .selectFrom("comments")
    .select(["id", "post_id", "user_id", "status", "body"])
    .where("id", "=", commentId)
    .forUpdate()
    .executeTakeFirst();
}

export function setCommentStatus(db: DbOrTx, commentId: number, status: CommentStatus) {
  return db.updateTable("comments").set({ status }).where("id", "=", commentId).execute();
}
