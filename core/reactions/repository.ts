import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { PostType } from "../../db/schema.ts";
import type { Reaction } from "./schema.ts";

/**
 * A live post, locked until the transaction ends: reactions and comments on one post are applied
 * one at a time, so its counters stay exact under concurrent clicks.
 */
export function lockLivePost(db: DbOrTx, postId: number, postType: PostType | undefined) {
  let query = db
    .selectFrom("posts")
    .select(["id", "post_type"])
    .where("id", "=", postId)
    .where("status", "=", "active");
  if (postType) query = query.where("post_type", "=", postType);
  return query.forUpdate().executeTakeFirst();
}

/**
 * The member's reaction to the post, with the key of the address it came from (the likes trigger of
 * migration 011 counts it against that key's allowance in the trending score).
 */
export async function setReaction(
  db: DbOrTx,
  vote: { userId: number; postId: number; reaction: Reaction; voterKey: string },
) {
  await db
    .insertInto("likes")
    .values({
      user_id: vote.userId,
      post_id: vote.postId,
      reaction: vote.reaction,
      voter_key: vote.voterKey,
    })
    .onConflict((oc) =>
      oc
        .columns(["post_id", "user_id"])
        .doUpdateSet({ reaction: vote.reaction, voter_key: vote.voterKey }),
    )
    .execute();
}

/**
 * The salt of a UTC day for voter keys: created by the first process that needs it, shared by all;
 * older days' salts are deleted, so older keys can no longer be tested against an address.
 */
export async function voteSalt(db: DbOrTx, day: string, candidate: string): Promise<string> {
  await db
    .insertInto("vote_salts")
    .values({ day, salt: candidate })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  await db.deleteFrom("vote_salts").where("day", "<", day).execute();
  const row = await db
    .selectFrom("vote_salts")
    .select("salt")
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  return row.salt;
}

export async function removeReaction(db: DbOrTx, userId: number, postId: number) {
  await db
    .deleteFrom("likes")
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .execute();
}

/**
 * Moves the post's counters by the given amounts and refreshes its trending score from the new
 * values (in SET, the right-hand sides see the row as it was). The posts trigger of migration 011
 * then takes damped reactions out of the score.
 */
export function adjustPostCounters(
  db: DbOrTx,
  postId: number,
  delta: { likes?: number; unlikes?: number; comments?: number },
) {
  const likes = delta.likes ?? 0;
  const unlikes = delta.unlikes ?? 0;
  const comments = delta.comments ?? 0;
  return db
    .updateTable("posts")
    .set({
      likes_count: sql`likes_count + ${likes}::int`,
      unlikes_count: sql`unlikes_count + ${unlikes}::int`,
      comments_count: sql`comments_count + ${comments}::int`,
      hot_score: sql`post_hot_score(likes_count + ${likes}::int, unlikes_count + ${unlikes}::int,
        comments_count + ${comments}::int, views, created_at)`,
    })
    .where("id", "=", postId)
    .returning(["likes_count", "unlikes_count", "comments_count"])
    .executeTakeFirstOrThrow();
}
