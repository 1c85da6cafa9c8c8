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

/** A member's reactions to some posts: only the posts they reacted to. */
export function findReactions(db: DbOrTx, userId: number, postIds: number[]) {
  if (postIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("likes")
    .select(["post_id", "reaction"])
    .where("user_id", "=", userId)
    .where("post_id", "in", postIds)
    .orderBy("post_id")
    .execute();
}
