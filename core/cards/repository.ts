import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import type { Database } from "../../db/schema.ts";
import type { DealScope } from "./deal-scope.ts";
import { ACTIVE, dealCardQuery, isLive } from "./deal-card-query.ts";
import { matchesFilter, type DealBounds, type DealFilter } from "./deal-filter-query.ts";
import { CREATED_DAY_SQL, HALF_VOTES_SQL } from "../posts/temperature-sql.ts";
import { TRENDING_DAYS } from "../constants.ts";
import { LIVE_KEY, sortKey, sortKeyText, sortKeyValue, type DealSort } from "./deal-sort.ts";

type PostsExpression = ExpressionBuilder<Database, "posts">;

/** The live flag as a selected column. */
const LIVE_SQL = sql<boolean>`${LIVE_KEY}`;

/**
 * Not marked expired (posts.expired, kept by the minute sweep and by members' marks). Trending
 * and the home lists leave such deals out; isLive(now) besides catches an end reached since the
 * last sweep.
 */
const notExpired = (eb: PostsExpression) => eb.not(eb.ref("posts.expired"));

// Sorted lists ---------------------------------------------------------------------------

export type { DealScope } from "./deal-scope.ts";

function inScope(scope: DealScope) {
  return (eb: PostsExpression) => {
    const conditions = [];
    switch (scope.kind) {
      case "type":
        conditions.push(eb("posts.post_type", "=", scope.postType));
        break;
      case "store":
        conditions.push(eb("posts.store_id", "=", scope.storeId));
        break;
      case "category":
        conditions.push(eb("posts.category_id", "=", scope.categoryId));
        break;
    }
    if (scope.liveOnly) conditions.push(eb.not(eb.ref("posts.expired")));
    return eb.and(conditions);
  };
}

/** A list's order: live deals first, then the sort's key, then newest id (core/cards/deal-sort.ts). */
function inSortOrder<TB extends keyof Database, O>(
  query: SelectQueryBuilder<Database, TB, O>,
  sort: DealSort,
): SelectQueryBuilder<Database, TB, O> {
  return query
    .orderBy(LIVE_KEY, "desc")
    .orderBy(sortKey(sort).expression, "desc")
    .orderBy(sql.ref("posts.id"), "desc");
}

/**
 * A row's place in a sorted list (core/cards/deal-sort.ts): whether it is live, its sort key and
 * id. The key travels as PostgreSQL's own text: a JavaScript Date would drop the microseconds of
 * created_at and misplace the key among rows of the same millisecond (a float could lose digits
 * likewise).
 */
export interface RowKey {
  live: boolean;
  key: string;
  id: number;
}

/**
 * At or after `key` in the sort's order (a row comparison the sort's index seeks to). A live-only
 * scope already fixes the live flag by equality, and a row comparison that starts on a column
 * bound by equality no longer positions the index scan: it would walk the list from its start and
 * filter (9 ms at page 2,000 of a million deals). So there the comparison leaves the flag out.
 */
function atOrAfter(sort: DealSort, key: RowKey, scope: DealScope) {
  const value = sortKeyValue(sort, key.key);
  const { expression } = sortKey(sort);
  return () =>
    scope.liveOnly
      ? sql<boolean>`(${expression}, posts.id) <= (${value}, ${key.id}::int)`
      : sql<boolean>`(${LIVE_KEY}, ${expression}, posts.id) <= (${key.live}::boolean, ${value}, ${key.id}::int)`;
}

/**
 * The key of the row `skip` places after `from` (or after the first row when `from` is null):
 * an index-only scan that reads keys, never rows.
 */
export function findScopeKey(
  db: DbOrTx,
  scope: DealScope,
  from: RowKey | null,
  skip: number,
  sort: DealSort = "new",
) {
  return findScopeKeyQuery(db, scope, from, skip, sort).executeTakeFirst();
}

export function findScopeKeyQuery(
  db: DbOrTx,
  scope: DealScope,
  from: RowKey | null,
  skip: number,
  sort: DealSort = "new",
) {
  let query = prepared(db.selectFrom("posts"))
    .select([LIVE_SQL.as("live"), sortKeyText(sort).as("key"), "posts.id"])
    .where("posts.status", "=", ACTIVE)
    .where(inScope(scope));
  if (from) query = query.where(atOrAfter(sort, from, scope));
  return inSortOrder(query, sort).offset(skip).limit(1);
}

/** Up to `limit` deal cards starting at `from` (inclusive), in the sort's order. */
export function findScopeCardsQuery(
  db: DbOrTx,
  scope: DealScope,
  from: RowKey | null,
  limit: number,
  sort: DealSort = "new",
) {
  let query = prepared(dealCardQuery(db)).where(inScope(scope));
  if (from) query = query.where(atOrAfter(sort, from, scope));
  return inSortOrder(query, sort).limit(limit);
}

export function findScopeCards(
  db: DbOrTx,
  scope: DealScope,
  from: RowKey | null,
  limit: number,
  sort: DealSort = "new",
) {
  return findScopeCardsQuery(db, scope, from, limit, sort).execute();
}

/**
 * Keys of the rows `stride`, 2·`stride`, … places after `from` (or after the first row), at most
 * `count` of them: one index-only scan over `stride · count` keys. Fewer than `count` means the
 * list ended.
 */
export async function findScopeAnchors(
  db: DbOrTx,
  scope: DealScope,
  from: RowKey | null,
  stride: number,
  count: number,
  sort: DealSort = "new",
): Promise<RowKey[]> {
  const { expression } = sortKey(sort);
  let keys = db
    .selectFrom("posts")
    .select([
      LIVE_SQL.as("live"),
      sortKeyText(sort).as("key"),
      "posts.id",
      sql<number>`row_number() OVER (ORDER BY ${LIVE_KEY} DESC, ${expression} DESC, posts.id DESC)`.as(
        "n",
      ),
    ])
    .where("posts.status", "=", "active")
    .where(inScope(scope));
  if (from) keys = keys.where(atOrAfter(sort, from, scope));
  const rows = await db
    .selectFrom(
      inSortOrder(keys, sort)
        .limit(stride * count + 1)
        .as("k"),
    )
    .select(["k.live", "k.key", "k.id"])
    // Row n sits n - 1 places after the start.
    .where(sql<boolean>`k.n > 1 AND (k.n - 1) % ${stride} = 0`)
    .orderBy("k.n")
    .execute();
  return rows;
}

// Filtered lists --------------------------------------------------------------------------------

/**
 * One page of filtered deals in a sort's order, walking the sort's index and skipping what does
 * not match: quick when matches are dense, so the caller uses it only then.
 */
export function findFilteredCards(
  db: DbOrTx,
  filter: DealFilter,
  offset: number,
  limit: number,
  sort: DealSort = "new",
) {
  return inSortOrder(dealCardQuery(db).where(matchesFilter(filter)), sort)
    .offset(offset)
    .limit(limit)
    .execute();
}

/**
 * Ids of one page of filtered deals in a sort's order, from all the matches read at once (through the
 * most selective index) and sorted: quick when matches are few, whatever the planner guesses.
 */
export async function findSparseFilteredIds(
  db: DbOrTx,
  filter: DealFilter,
  offset: number,
  limit: number,
  sort: DealSort = "new",
): Promise<number[]> {
  const rows = await db
    .with(
      (cte) => cte("matches").materialized(),
      (qb) =>
        qb
          .selectFrom("posts")
          .select([
            "posts.id",
            LIVE_SQL.as("live"),
            sql<unknown>`${sortKey(sort).expression}`.as("key"),
          ])
          .where("posts.status", "=", "active")
          .where(matchesFilter(filter)),
    )
    .selectFrom("matches")
    .select("matches.id")
    .orderBy("matches.live", "desc")
    .orderBy("matches.key", "desc")
    .orderBy("matches.id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

export async function countFiltered(db: DbOrTx, filter: DealFilter): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select(sql<number>`count(*)`.as("total"))
    .where("posts.status", "=", "active")
    .where(matchesFilter(filter))
    .executeTakeFirstOrThrow();
  return row.total;
}

/**
 * Lowest and highest price and discount of a filter's deals: the sliders' ends. For every deal,
 * one store's or one category's, min() and max() read the ends of an index. For anything else
 * (search text, several stores) the ends of a global index may lie far from the first match, so
 * the matches are aggregated in one pass instead — count(*) beside min/max keeps the planner from
 * the index-end plan.
 */
export async function findFilterBounds(db: DbOrTx, filter: DealFilter): Promise<DealBounds> {
  const indexed = !filter.text && (filter.storeIds?.length ?? 0) <= 1;
  const row = await db
    .selectFrom("posts")
    .select([
      sql<number | null>`min(posts.price)`.as("min_price"),
      sql<number | null>`max(posts.price)`.as("max_price"),
      sql<number | null>`min(posts.discount)`.as("min_discount"),
      sql<number | null>`max(posts.discount)`.as("max_discount"),
      ...(indexed ? [] : [sql<number>`count(*)`.as("matches")]),
    ])
    .where("posts.status", "=", "active")
    .where(matchesFilter(filter))
    .executeTakeFirstOrThrow();
  return {
    minPrice: toNumber(row.min_price),
    maxPrice: toNumber(row.max_price),
    minDiscount: toNumber(row.min_discount),
    maxDiscount: toNumber(row.max_discount),
  };
}

/** numeric aggregates arrive as numbers (db/index.ts) or, from PGlite, sometimes as strings. */
function toNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

/** The stores a filter's deals come from, with how many each: the store checklist. */
export function findFilterStores(db: DbOrTx, filter: DealFilter) {
  return db
    .selectFrom("posts")
    .innerJoin("stores", "stores.id", "posts.store_id")
    .select(["stores.id", "stores.title", "stores.slug", sql<number>`count(*)`.as("deal_count")])
    .where("posts.status", "=", "active")
    .where(matchesFilter(filter))
    .groupBy(["stores.id", "stores.title", "stores.slug"])
    .orderBy(sql`lower(stores.title)`)
    .orderBy("stores.id")
    .execute();
}

// Home ------------------------------------------------------------------------------------------

/**
 * The UTC days Trending looks at, newest first: today and the days before it
 * (docs/decisions/0008-trending-score.md, "Temperature").
 */
export function trendingDays(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: TRENDING_DAYS }, (_, i) =>
    new Date(today - i * 86_400_000).toISOString().slice(0, 10),
  );
}

/** The start of the trending window: midnight UTC of its oldest day. */
function trendingSince(now: Date): Date {
  return new Date(`${trendingDays(now).at(-1)!}T00:00:00Z`);
}

/**
 * Trending: the hottest live deals of the window's days, by temperature (in half votes) and then
 * hot score. For each day, a walk of posts_heat_idx (migrations 016, 034, 037) reads at most `limit`
 * entries; the days' picks are merged. Fewer than `limit` means the window holds no more.
 */
export function trendingQuery(db: DbOrTx, now: Date, limit: number, filter: DealFilter = {}) {
  const days = trendingDays(now);
  return db
    .selectFrom(sql<{ day: string }>`(SELECT unnest(${days}::date[]) AS day)`.as("w"))
    .innerJoinLateral(
      dealCardQuery(db)
        .select([HALF_VOTES_SQL.as("half_votes"), "posts.hot_score"])
        .where(matchesFilter(filter))
        .where(isLive(now))
        .where(notExpired)
        .where(sql<boolean>`${CREATED_DAY_SQL} = w.day`)
        .orderBy(HALF_VOTES_SQL, "desc")
        .orderBy("posts.hot_score", "desc")
        .orderBy("posts.id", "desc")
        .limit(limit)
        .as("t"),
      (join) => join.onTrue(),
    )
    .selectAll("t")
    .orderBy("t.half_votes", "desc")
    .orderBy("t.hot_score", "desc")
    .orderBy("t.id", "desc")
    .limit(limit);
}

export function findTrendingDeals(db: DbOrTx, now: Date, limit: number, filter: DealFilter = {}) {
  return trendingQuery(db, now, limit, filter).execute();
}

/**
 * Trending among few matches, whole: all live matches read at once and sorted (see
 * findSparseFilteredIds) — the window's deals first by net votes then hot score, the others after
 * them by hot score, as trendingQuery and its fill by findHotDeals give them.
 */
export async function findSparseTrendingIds(
  db: DbOrTx,
  filter: DealFilter,
  now: Date,
  limit: number,
): Promise<number[]> {
  const rows = await db
    .with(
      (cte) => cte("matches").materialized(),
      (qb) =>
        qb
          .selectFrom("posts")
          .select([
            "posts.id",
            "posts.hot_score",
            sql<boolean>`posts.created_at >= ${trendingSince(now)}`.as("in_window"),
            HALF_VOTES_SQL.as("half_votes"),
          ])
          .where("posts.status", "=", "active")
          .where(matchesFilter(filter))
          .where(isLive(now))
          .where(notExpired),
    )
    .selectFrom("matches")
    .select("matches.id")
    .orderBy("matches.in_window", "desc")
    .orderBy(sql`case when matches.in_window then matches.half_votes else 0 end`, "desc")
    .orderBy("matches.hot_score", "desc")
    .orderBy("matches.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Live deals by hot score alone (0008), walking posts_hot_idx's live part (migration 017): what
 * fills Trending when its window holds fewer deals than it shows (a quiet week, a small store).
 */
export function findHotDeals(db: DbOrTx, now: Date, limit: number, filter: DealFilter = {}) {
  return dealCardQuery(db)
    .where(matchesFilter(filter))
    .where(notExpired)
    .where(isLive(now))
    .orderBy("posts.hot_score", "desc")
    .orderBy("posts.id", "desc")
    .limit(limit)
    .execute();
}
