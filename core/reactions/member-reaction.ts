import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";

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
 * A member's reactions to some posts: only the posts they reacted to. Asked for after every page
 * of cards a member sees (`POST /api/my_reactions`), as the saved ones are (core/saved).
 */
export function findReactions(db: DbOrTx, userId: number, postIds: number[]) {
  if (postIds.length === 0) return Promise.resolve([]);
  // The ids as one array: the same text for any number of cards, so it is planned once.
  return prepared(db.selectFrom("likes"))
    .select(["post_id", "reaction"])
    .where("user_id", "=", userId)
    .where(sql<boolean>`post_id = any(${postIds}::bigint[])`)
    .orderBy("post_id")
    .execute();
}
