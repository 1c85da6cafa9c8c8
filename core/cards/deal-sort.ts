/**
 * The orders a deal list can be sorted in (docs/decisions/0011-deep-pagination.md):
 *   hot       the stored hot score (0008), hottest first;
 *   new       newest first (the spec's listings before sorting existed);
 *   discount  top discount first, deals without a discount last;
 *   price     price low to high, deals without a price last.
 * Ties go newest (highest id) first. Every order puts live deals before expired ones
 * (docs/decisions/0037-deal-expiry.md), then one non-null key, descending, then id, descending —
 * so one row comparison `(live, key, id) <= (L, K, I)` seeks to a place in any of them, and one
 * index per scope serves each (migrations 015 and 017). The expressions are written exactly as
 * the indexes of migration 017 are, so the planner matches them.
 */
import { sql, type RawBuilder } from "kysely";
import type { DealSort } from "./sorts.ts";

export { DEAL_SORTS, type DealSort } from "./sorts.ts";

/** Deals without a price sort after the dearest one (prices are numeric(12, 2)). */
const NO_PRICE = "-1000000000000";

interface SortKey {
  /** The key's SQL over `posts` (never null). */
  expression: RawBuilder<unknown>;
  /** How a key read back as text is cast again for a seek. */
  cast: "timestamptz" | "float8" | "int" | "numeric";
}

const SORT_KEYS: Record<DealSort, SortKey> = {
  new: { expression: sql.raw("posts.created_at"), cast: "timestamptz" },
  hot: { expression: sql.raw("posts.hot_score"), cast: "float8" },
  discount: { expression: sql.raw("coalesce(posts.discount, -1)"), cast: "int" },
  price: { expression: sql.raw(`coalesce(- posts.price, ${NO_PRICE})`), cast: "numeric" },
};

/**
 * Whether a post is live (not expired): every list's first key, descending, so live deals come
 * first. posts.expired is kept by the minute sweep (core/posts/expiry/sweep.ts).
 */
export const LIVE_KEY = sql.raw("(NOT posts.expired)");

export function sortKey(sort: DealSort): SortKey {
  return SORT_KEYS[sort];
}

/** The key of a row as PostgreSQL's own text: a JavaScript Date or number could lose precision. */
export function sortKeyText(sort: DealSort) {
  return sql<string>`(${SORT_KEYS[sort].expression})::text`;
}

/** A key read back as text, cast for a row comparison. */
export function sortKeyValue(sort: DealSort, key: string) {
  return sql`${key}::${sql.raw(SORT_KEYS[sort].cast)}`;
}
