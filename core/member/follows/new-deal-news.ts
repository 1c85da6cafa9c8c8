import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/** The notification kind of "a new deal from what you follow" (in-site only, never mailed). */
export const FOLLOWED_DEAL_KIND = "followed_deal";

/** All of a member's unread feed news is one notification, brought back to the top by each deal. */
const FEED_NEWS_GROUP = "feed";

/**
 * Tells the followers of a deal's store, category and poster that it is in their feed: one unread
 * notification per member, kept up to date rather than one per deal, so a busy store cannot flood
 * the bell. One statement whatever the number of followers; the poster is not told of their own
 * deal. Runs when the deal becomes public (published, or approved where posts are held).
 * Answers the members told, whose devices may be pushed the news (core/member/push/).
 */
export async function notifyFollowersOfDeal(tx: DbOrTx, postId: number): Promise<number[]> {
  const result = await sql<{ user_id: number }>`
    WITH deal AS (
      SELECT id, user_id, store_id, category_id, title
      FROM posts
      WHERE id = ${postId} AND status = 'active' AND post_type = 'd'
    ),
    followers AS (
      SELECT sf.user_id FROM store_follows sf JOIN deal ON sf.store_id = deal.store_id
      UNION
      SELECT cf.user_id FROM category_follows cf JOIN deal ON cf.category_id = deal.category_id
      UNION
      SELECT f.follower_id FROM follows f JOIN deal ON f.followee_id = deal.user_id
    )
    INSERT INTO notifications (user_id, kind, message, link, group_key, actor_ids)
    SELECT followers.user_id, ${FOLLOWED_DEAL_KIND},
           'New in your feed: ' || deal.title, '/user/feed', ${FEED_NEWS_GROUP}, '{}'
    FROM followers
    CROSS JOIN deal
    JOIN users u ON u.id = followers.user_id AND u.deleted_at IS NULL
    WHERE followers.user_id <> deal.user_id
    ON CONFLICT (user_id, group_key) WHERE read_at IS NULL AND group_key IS NOT NULL
    DO UPDATE SET message = 'New deals in your feed, the latest: ' || (SELECT title FROM deal),
                  created_at = now()
    RETURNING notifications.user_id
  `.execute(tx);
  return result.rows.map((row) => Number(row.user_id));
}
