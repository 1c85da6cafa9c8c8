import type { SelectQueryBuilder } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { Database } from "../../db/schema.ts";
import { prepared } from "../../db/prepared.ts";
import { ACTIVE, dealCardQuery, isLive } from "./deal-card-query.ts";
import { presentDealCard, type DealCard } from "./presenter.ts";

/** At most this many related deals are shown under a deal. */
export const RELATED_DEALS_LIMIT = 6;

/**
 * How many of the newest live deals of the same store, and of the same category, are ranked for
 * the related deals: the "newest" of "newest hot first". Each side is one short walk of the live
 * part of posts_live_store_idx or posts_live_category_idx, whatever the number of deals.
 */
export const RELATED_CANDIDATES = 30;

export interface RelatedTo {
  id: number;
  store_id: number | null;
  category_id: number | null;
}

/**
 * Related deals of a deal (docs/decisions/0036-responsive-images.md, "Related deals"): up to
 * `limit` live, public deals of the same store or the same category, never the deal itself,
 * newest hot first: of the RELATED_CANDIDATES newest of each, the hottest (posts.hot_score, which
 * already weighs a deal's age against its likes, comments and views; docs/decisions/0008).
 * A post with neither store nor category (an educator post) has none.
 */
export async function findRelatedDeals(
  db: DbOrTx,
  post: RelatedTo,
  now: Date,
  limit = RELATED_DEALS_LIMIT,
): Promise<DealCard[]> {
  const query = relatedDealsQuery(db, post, now, limit);
  if (!query) return [];
  const rows = await query.execute();
  return rows.map((row) => presentDealCard(row, now));
}

/**
 * The query behind findRelatedDeals (null when the post has neither store nor category). Asked for
 * on every deal page, it is a named statement planned once (db/prepared.ts): planned for each deal,
 * on the embedded database, planning it took longer than running it. The status is a literal so
 * that the one plan can read each side from its live index.
 */
export function relatedDealsQuery(db: DbOrTx, post: RelatedTo, now: Date, limit: number) {
  type Candidates = SelectQueryBuilder<Database, "posts", { id: number }>;
  const newest = (column: "posts.store_id" | "posts.category_id", value: number): Candidates =>
    db
      .selectFrom("posts")
      .select("posts.id")
      .where("posts.status", "=", ACTIVE)
      .where(column, "=", value)
      .where("posts.post_type", "=", "d")
      .where("posts.id", "<>", post.id)
      // The swept flag picks the index's live part; the date catches an end since the last sweep.
      .where((eb) => eb.not(eb.ref("posts.expired")))
      .where(isLive(now))
      .orderBy("posts.created_at", "desc")
      .orderBy("posts.id", "desc")
      .limit(RELATED_CANDIDATES);
  const sides: Candidates[] = [];
  if (post.store_id !== null) sides.push(newest("posts.store_id", post.store_id));
  if (post.category_id !== null) sides.push(newest("posts.category_id", post.category_id));
  if (sides.length === 0) return null;

  return prepared(dealCardQuery(db))
    .where((eb) => {
      // Each side in a subquery of its own keeps its ORDER BY and LIMIT; UNION ALL lets the
      // planner read each from its index, then fetch the few rows by id.
      const [first, ...rest] = sides.map((side) =>
        eb.selectFrom(side.as("side")).select("side.id"),
      );
      const ids = rest.reduce((union, side) => union.unionAll(side), first!);
      return eb("posts.id", "in", ids);
    })
    .orderBy("posts.hot_score", "desc")
    .orderBy("posts.id", "desc")
    .limit(limit);
}
