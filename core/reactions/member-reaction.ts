import type { DbOrTx } from "../../db/index.ts";

/** A member's reaction to a post, if any: the post page shows it, a new reaction replaces it. */
export async function findReaction(
  db: DbOrTx,
  postId: number,
  userId: number,
): Promise<"like" | "unlike" | null> {
  const row = await db
    .selectFrom("likes")
    .select("reaction")
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.reaction ?? null;
}
