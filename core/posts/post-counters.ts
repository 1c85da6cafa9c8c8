import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { PostType } from "../../db/schema.ts";

/**
 * A live post, locked until the transaction ends: reactions and comments on one post are applied
 * one at a time, so its counters stay exact under concurrent clicks. With its vote counts as they
 * were before (the temperature a vote starts from).
 */
export function lockLivePost(db: DbOrTx, postId: number, postType: PostType | undefined) {
  let query = db
    .selectFrom("posts")
    .select([
      "id",
      "post_type",
      "likes_count",
      "unlikes_count",
      "damped_likes",
      "damped_unlikes",
      "unreasoned_unlikes",
      "weight_bonus",
    ])
    .where("id", "=", postId)
    .where("status", "=", "active");
  if (postType) query = query.where("post_type", "=", postType);
  return query.forUpdate().executeTakeFirst();
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
      // hot_score follows from the trigger of db/migrations/011_vote_damping.sql.
    })
    .where("id", "=", postId)
    .returning([
      "likes_count",
      "unlikes_count",
      "comments_count",
      "damped_likes",
      "damped_unlikes",
      "unreasoned_unlikes",
      "weight_bonus",
    ])
    .executeTakeFirstOrThrow();
}

/**
 * Sets the comment count of some posts from the comments table: the comments and replies the
 * public sees (not deleted, not hidden or removed). For changes that touch several comments at
 * once (a deleted thread), where counting each step would drift.
 */
export function recountComments(db: DbOrTx, postIds: number[]) {
  if (postIds.length === 0) return Promise.resolve();
  return db
    .updateTable("posts")
    .set({
      comments_count: sql<number>`(SELECT count(*)::int FROM comments c
        WHERE c.post_id = posts.id AND c.deleted_at IS NULL AND c.status = 'active')`,
      // hot_score follows from the trigger of db/migrations/011_vote_damping.sql.
    })
    .where("id", "in", postIds)
    .execute()
    .then(() => undefined);
}
