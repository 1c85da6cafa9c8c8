import type { DbOrTx } from "../../../../db/index.ts";

/**
 * Which comments of a post a member has liked, for the like buttons' pressed state on the post's
 * page (core/posts/service.ts).
 */
export async function likedCommentsOf(
  db: DbOrTx,
  userId: number,
  postId: number,
): Promise<Set<number>> {
  const rows = await db
    .selectFrom("comment_likes")
    .innerJoin("comments", "comments.id", "comment_likes.comment_id")
    .select("comment_likes.comment_id")
    .where("comment_likes.user_id", "=", userId)
    .where("comments.post_id", "=", postId)
    .execute();
  return new Set(rows.map((row) => Number(row.comment_id)));
}
