/**
 * The filter deal lists narrow by (home, listings, search): its shape, its conditions for any query
 * over posts, and search text as a tsquery. The deals repository pages, counts and bounds it; the
 * listings' search ranking uses the same conditions.
 */
import { sql, type ExpressionBuilder } from "kysely";
import type { Database } from "../../db/schema.ts";

type PostsExpression = ExpressionBuilder<Database, "posts">;

export interface NumberRange {
  min?: number;
  max?: number;
}

/**
 * Search text: full-text over the stored `posts.search` document (title, store and category,
 * description; english stemming, so plurals match). `corrected` is the same text with misspelt
 * words replaced by known ones; a post matching either counts. See
 * docs/decisions/0010-search-ranking.md.
 */
export interface TextMatch {
  query: string;
  corrected?: string;
}

/** The text as a tsquery: quoted phrases, OR and -word work as on search engines. */
export function textQuery(text: TextMatch) {
  const query = sql`websearch_to_tsquery('english', ${text.query})`;
  return text.corrected
    ? sql`(${query} || websearch_to_tsquery('english', ${text.corrected}))`
    : query;
}

export function matchesText(text: TextMatch) {
  return (eb: PostsExpression) => eb.and([sql<boolean>`posts.search @@ ${textQuery(text)}`]);
}

/**
 * Deals narrowed by any of: search text, stores, a category, a price range, a discount range; and
 * `liveOnly`, the listings' "Hide expired" (deals not marked expired: posts.expired, migration 017).
 */
export interface DealFilter {
  text?: TextMatch;
  storeIds?: number[];
  categoryId?: number;
  price?: NumberRange;
  discount?: NumberRange;
  liveOnly?: boolean;
}

function inRange(column: "posts.price" | "posts.discount", range: NumberRange | undefined) {
  return (eb: PostsExpression) => {
    const conditions = [];
    if (range?.min !== undefined) conditions.push(eb(column, ">=", range.min));
    if (range?.max !== undefined) conditions.push(eb(column, "<=", range.max));
    return eb.and(conditions);
  };
}

/** The conditions of a filter, for any query over posts (deals only). */
export function matchesFilter(filter: DealFilter) {
  return (eb: PostsExpression) => {
    const conditions = [eb("posts.post_type", "=", "d")];
    if (filter.text) conditions.push(matchesText(filter.text)(eb));
    if (filter.storeIds?.length) conditions.push(eb("posts.store_id", "in", filter.storeIds));
    if (filter.categoryId !== undefined) {
      conditions.push(eb("posts.category_id", "=", filter.categoryId));
    }
    conditions.push(inRange("posts.price", filter.price)(eb));
    conditions.push(inRange("posts.discount", filter.discount)(eb));
    if (filter.liveOnly) conditions.push(eb.not(eb.ref("posts.expired")));
    return eb.and(conditions);
  };
}

/** Lowest and highest price and discount of a filter's deals: the sliders' ends. */
export interface DealBounds {
  minPrice: number | null;
  maxPrice: number | null;
  minDiscount: number | null;
  maxDiscount: number | null;
}

/** Bounds of a list without the filter panel: the educators' posts, saved deals, the feed. */
export const NO_BOUNDS: DealBounds = {
  minPrice: null,
  maxPrice: null,
  minDiscount: null,
  maxDiscount: null,
};
