import type { DbOrTx } from "../../../db/index.ts";
import { idIn, prepared } from "../../../db/prepared.ts";

/** A member's reaction to a post, if any: the post page shows it, a new reaction replaces it. */
export async function findReaction(
  db: DbOrTx,
  postId: number,
  userId: number,
): Promise<"like" | "unlike" | null> {
  const row = await prepared(db.selectFrom("likes"))
    .select("reaction")
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.reaction ?? null;
}

/**
 * A member's reaction to the post with the weight it was cast with (migration 037), if any: the
 * deal page reckons a vote taken back or changed from it (record 0090).
 */
export async function findVote(
  db: DbOrTx,
  postId: number,
  userId: number,
): Promise<{ reaction: "like" | "unlike"; weight: number } | null> {
  const row = await prepared(db.selectFrom("likes"))
    .select(["reaction", "weight"])
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * A member's reactions to some posts: only the posts they reacted to. Asked for after every page
 * of cards a member sees (`POST /api/my_reactions`), as the saved ones are (core/member/saved).
 */
export function findReactions(db: DbOrTx, userId: number, postIds: number[]) {
  if (postIds.length === 0) return Promise.resolve([]);
  return prepared(db.selectFrom("likes"))
    .select(["post_id", "reaction"])
    .where("user_id", "=", userId)
    .where(idIn("post_id", postIds))
    .orderBy("post_id")
    .execute();
}
