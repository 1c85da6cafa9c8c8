import { TtlCache } from "../cache/ttl-cache.ts";
import { RefreshingCache } from "../cache/refreshing-cache.ts";
import type { DbOrTx } from "../../db/index.ts";
import * as repo from "./repository.ts";
import type { RowKey } from "./repository.ts";
import { countScope, scopeKey, type DealScope } from "./deal-scope.ts";
import { findCardsByIds, type DealCardRow } from "./deal-card-query.ts";
import type { DealBounds, DealFilter } from "./deal-filter-query.ts";
import type { DealSort } from "./deal-sort.ts";

/**
 * Deep pages of sorted lists without OFFSET over rows (docs/decisions/0011-deep-pagination.md).
 * Every sort (core/cards/deal-sort.ts) of every scope keeps its own anchors.
 *
 * Every ANCHOR_STRIDE-th key of a list (an "anchor") is remembered for a short while. Page N
 * starts at offset o = (N − 1) · size: take anchor ⌊o / ANCHOR_STRIDE⌋, skip fewer than
 * ANCHOR_STRIDE keys from it in an index-only scan, then read `size` rows from there by key. Any
 * page thus costs at most what page 20 does; the anchors come from one index-only scan, paid
 * once per TTL.
 */
export const ANCHOR_STRIDE = 60;

/** Up to this many matches, a filtered list is read whole and sorted rather than walked in order. */
export const SPARSE_MATCHES = 20_000;

/**
 * How long filtered lists' counts, anchors, bounds, checklists and rankings live. After that a
 * count, bounds, checklist or ranking is answered from its last value while it is recomputed, and
 * anchors are found again. A change of posts drops them all at once (the deals service subscribes).
 * A scope's count (every deal, a store's, a category's) is kept exact in the database and cached
 * here the same way.
 */
export const LIST_CACHE_TTL_MS = 30_000;

interface AnchorList {
  /** keys[i] is the key of the row at offset (i + 1) · ANCHOR_STRIDE. */
  keys: RowKey[];
  complete: boolean;
  /** The extension under way, so concurrent requests do not scan twice. */
  extending?: Promise<void>;
}

export type StoreFacet = Awaited<ReturnType<typeof repo.findFilterStores>>[number];

/** Per-database caches shared by the services that list deals, cleared together on a change. */
export interface DealListCaches {
  /** Counts of filtered lists (search, several stores, price or discount ranges). */
  counts: RefreshingCache<number>;
  anchors: TtlCache<AnchorList>;
  bounds: RefreshingCache<DealBounds>;
  stores: RefreshingCache<StoreFacet[]>;
  /** Search results' ids in rank order (the first pages), by search and filter. */
  rankings: RefreshingCache<number[]>;
}

const cachesByDb = new WeakMap<DbOrTx, DealListCaches>();

export function dealListCaches(db: DbOrTx): DealListCaches {
  let caches = cachesByDb.get(db);
  if (!caches) {
    caches = {
      counts: new RefreshingCache<number>(LIST_CACHE_TTL_MS),
      anchors: new TtlCache<AnchorList>(LIST_CACHE_TTL_MS, 200),
      bounds: new RefreshingCache<DealBounds>(LIST_CACHE_TTL_MS),
      stores: new RefreshingCache<StoreFacet[]>(LIST_CACHE_TTL_MS, 200),
      rankings: new RefreshingCache<number[]>(LIST_CACHE_TTL_MS, 200),
    };
    cachesByDb.set(db, caches);
  }
  return caches;
}

export function clearDealListCaches(db: DbOrTx): void {
  const caches = cachesByDb.get(db);
  if (!caches) return;
  caches.counts.clear();
  caches.anchors.clear();
  caches.bounds.clear();
  caches.stores.clear();
  caches.rankings.clear();
}

/**
 * The list a filter describes, as an indexed scope when it is one: every deal, one store's or one
 * category's deals. Anything narrower is a filtered list.
 */
export function scopeOf(filter: DealFilter): DealScope | null {
  const { storeIds = [], categoryId, text, price, discount } = filter;
  const ranged = [price?.min, price?.max, discount?.min, discount?.max].some(
    (v) => v !== undefined,
  );
  if (text || ranged || storeIds.length > 1) return null;
  const live = filter.liveOnly ? { liveOnly: true } : {};
  if (storeIds.length === 1) {
    return categoryId === undefined ? { kind: "store", storeId: storeIds[0]!, ...live } : null;
  }
  return categoryId === undefined
    ? { kind: "type", postType: "d", ...live }
    : { kind: "category", categoryId, ...live };
}

/** A cache key for a filter; store ids are sorted so the same set gives the same key. */
export function filterKey(filter: DealFilter): string {
  const storeIds = filter.storeIds ? [...filter.storeIds].sort((a, b) => a - b) : undefined;
  return JSON.stringify({ ...filter, storeIds });
}

/**
 * Pages of deal lists: indexed scopes (and the educators' forum) page by keyset at a cost that
 * does not grow with the page number; narrower filters page by OFFSET over their few rows.
 * Filtered counts, bounds and checklists are cached for LIST_CACHE_TTL_MS.
 */
export function createDealPager(db: DbOrTx) {
  const caches = dealListCaches(db);

  async function anchorAt(
    scope: DealScope,
    sort: DealSort,
    index: number,
  ): Promise<RowKey | undefined> {
    const list = await caches.anchors.get(`${scopeKey(scope)}:${sort}`, async () => ({
      keys: [],
      complete: false,
    }));
    while (list.keys.length < index && !list.complete) {
      if (!list.extending) {
        const wanted = index - list.keys.length;
        list.extending = repo
          .findScopeAnchors(db, scope, list.keys.at(-1) ?? null, ANCHOR_STRIDE, wanted, sort)
          .then((found) => {
            list.keys.push(...found);
            if (found.length < wanted) list.complete = true;
          })
          .finally(() => {
            list.extending = undefined;
          });
      }
      await list.extending;
    }
    return list.keys[index - 1];
  }

  async function scopeCards(scope: DealScope, page: number, size: number, sort: DealSort = "new") {
    const offset = (page - 1) * size;
    const anchorIndex = Math.floor(offset / ANCHOR_STRIDE);
    let from: RowKey | null = null;
    if (anchorIndex > 0) {
      from = (await anchorAt(scope, sort, anchorIndex)) ?? null;
      if (!from) return [];
    }
    const skip = offset - anchorIndex * ANCHOR_STRIDE;
    if (skip > 0) {
      from = (await repo.findScopeKey(db, scope, from, skip, sort)) ?? null;
      if (!from) return [];
    }
    return repo.findScopeCards(db, scope, from, size, sort);
  }

  // Kept by triggers (migration 022), so exact at once; still one statement of the embedded
  // database per listing request, so it is kept like the other counts until posts change.
  const scopeCount = (scope: DealScope) =>
    caches.counts.get(`scope:${scopeKey(scope)}`, () => countScope(db, scope));

  /** Deals of a filter in a sort's order (newest first by default), and how many there are. */
  async function filteredPage(
    filter: DealFilter,
    page: number,
    size: number,
    sort: DealSort = "new",
  ) {
    const scope = scopeOf(filter);
    if (scope) {
      const [rows, total] = await Promise.all([
        scopeCards(scope, page, size, sort),
        scopeCount(scope),
      ]);
      return { rows, total };
    }
    // The (cached) count says how the matches lie: none, few (read and sort them all), or many
    // (walk the sort's index). The planner cannot know: store and category correlate.
    const total = await count(filter);
    const offset = (page - 1) * size;
    if (offset >= total) return { rows: [], total };
    const rows =
      total <= SPARSE_MATCHES
        ? await findCardsByIds(db, await repo.findSparseFilteredIds(db, filter, offset, size, sort))
        : await repo.findFilteredCards(db, filter, offset, size, sort);
    return { rows, total };
  }

  /** How many deals match a filter. */
  function count(filter: DealFilter) {
    const scope = scopeOf(filter);
    return scope
      ? scopeCount(scope)
      : caches.counts.get(`filter:${filterKey(filter)}`, () => repo.countFiltered(db, filter));
  }

  /**
   * Trending deals of a filter, the same way: none, few (sorted whole) or many (index walks). The
   * hottest of the window's days come first; a window with fewer deals than `limit` is filled by
   * hot score (docs/decisions/0008-trending-score.md).
   */
  async function trending(filter: DealFilter, now: Date, limit: number): Promise<DealCardRow[]> {
    const total = await count(filter);
    if (total === 0) return [];
    if (total <= SPARSE_MATCHES) {
      return findCardsByIds(db, await repo.findSparseTrendingIds(db, filter, now, limit));
    }
    const hottest = await repo.findTrendingDeals(db, now, limit, filter);
    if (hottest.length >= limit) return hottest;
    const more = limit + hottest.length;
    const fill = await repo.findHotDeals(db, now, more, filter);
    const taken = new Set(hottest.map((row) => row.id));
    return [...hottest, ...fill.filter((row) => !taken.has(row.id))].slice(0, limit);
  }

  return {
    trending,
    scopeCards,
    scopeCount,
    filteredPage,
    count,
    bounds: (filter: DealFilter) =>
      caches.bounds.get(filterKey(filter), () => repo.findFilterBounds(db, filter)),
    stores: (filter: DealFilter) =>
      caches.stores.get(filterKey(filter), () => repo.findFilterStores(db, filter)),
  };
}

export type DealPager = ReturnType<typeof createDealPager>;
