import { TtlCache } from "../cache/ttl-cache.ts";
import { PAGE_SIZE, TRENDING_LIMIT, lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { CARD_CHANGES, clearCardsByIds } from "../cards/deal-card-query.ts";
import { clearDealListCaches, createDealPager } from "../cards/paging.ts";
import { presentDealCard, type DealPage } from "../cards/presenter.ts";
import { presentWishlistEntry } from "./presenter.ts";
import * as repo from "./repository.ts";
import type { DealFilter } from "../cards/deal-filter-query.ts";
import type { HomeFilterInput } from "./schema.ts";

const HOME_CACHE_TTL_MS = 5_000;

/** The home page's lists: trending, recent (paged), the merchant/category filter, the Wishlist. */
export function createHomeService({ db, now, changes }: Deps) {
  const pager = createDealPager(db);
  // The lists' counts, anchors, bounds, checklists and rankings (core/cards/paging.ts) are shared
  // with the listings and forums; this service owns them. Which posts exist is what they keep;
  // likes, comments and views only move scores, which their short TTL lets lag.
  changes.on("posts", () => clearDealListCaches(db));
  const pageSize = PAGE_SIZE.homeRecent;

  /**
   * Deals of a filter (every deal when it is empty), newest first. The home lists leave expired
   * deals out (record 0037): the filter's live part.
   */
  async function filteredPage(filter: DealFilter, page: number): Promise<DealPage> {
    const { rows, total } = await pager.filteredPage({ ...filter, liveOnly: true }, page, pageSize);
    const at = now();
    return {
      deals: rows.map((r) => presentDealCard(r, at)),
      total,
      currentPage: page,
      lastPage: lastPage(total, pageSize),
    };
  }

  const recentPage = (page: number) => filteredPage({}, page);

  // The unfiltered home lists are the same for every visitor and asked for on every home page
  // view: they are built at most every few seconds, and at once after a change their cards show
  // (CARD_CHANGES; the Teachers Wishlist: cms). The cards of lists of ids are dropped alike.
  const homeLists = new TtlCache<Awaited<ReturnType<typeof loadHome>>>(HOME_CACHE_TTL_MS, 1);
  changes.on([...CARD_CHANGES, "cms"], () => homeLists.clear());
  changes.on(CARD_CHANGES, () => clearCardsByIds(db));

  async function loadHome() {
    const at = now();
    const [wishlist, trending, recent] = await Promise.all([
      repo.findTeachersWishlist(db),
      pager.trending({}, at, TRENDING_LIMIT),
      recentPage(1),
    ]);
    return {
      wishlist: wishlist.map(presentWishlistEntry),
      trending: trending.map((r) => presentDealCard(r, at)),
      recent,
    };
  }

  return {
    home: () => homeLists.get("home", loadHome),
    recentPage,
    /**
     * The home page's By Merchant / By Category mode: trending and recent deals of the chosen
     * store and/or category. With neither chosen it is the unfiltered home lists.
     */
    async homeFilter(input: HomeFilterInput) {
      const filter: DealFilter = {
        ...(input.store_id !== undefined ? { storeIds: [input.store_id] } : {}),
        ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
      };
      const at = now();
      const [trending, recent] = await Promise.all([
        pager.trending(filter, at, TRENDING_LIMIT),
        filteredPage(filter, input.page),
      ]);
      return { trending: trending.map((r) => presentDealCard(r, at)), recent };
    },
  };
}

export type HomeService = ReturnType<typeof createHomeService>;
