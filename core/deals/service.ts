import { PAGE_SIZE, TRENDING_LIMIT, lastPage } from "../constants.ts";
import { TtlCache } from "../cache/ttl-cache.ts";
import type { Deps } from "../deps.ts";
import { presentDealCard, presentWishlistEntry } from "./presenter.ts";
import * as repo from "./repository.ts";

/** The home page's lists: trending, recent (paged) and the Teachers Wishlist. */
export function createDealsService({ db, now }: Deps) {
  // count(*) over every live deal is the costly part of a recent-deals page on a large data set;
  // a count a few seconds old is good enough for "last page".
  const counts = new TtlCache<number>(10_000, 1);

  async function recentPage(page: number) {
    const [rows, total] = await Promise.all([
      repo.findRecentDeals(db, page, PAGE_SIZE.homeRecent),
      counts.get("recent", () => repo.countRecentDeals(db)),
    ]);
    const at = now();
    return {
      deals: rows.map((r) => presentDealCard(r, at)),
      total,
      currentPage: page,
      lastPage: lastPage(total, PAGE_SIZE.homeRecent),
    };
  }

  return {
    async home() {
      const at = now();
      const [wishlist, trending, recent] = await Promise.all([
        repo.findTeachersWishlist(db),
        repo.findTrendingDeals(db, at, TRENDING_LIMIT),
        recentPage(1),
      ]);
      return {
        wishlist: wishlist.map(presentWishlistEntry),
        trending: trending.map((r) => presentDealCard(r, at)),
        recent,
      };
    },
    recentPage,
    /** Called by every writer of posts so counts show the change at once. */
    invalidateCounts: () => counts.clear(),
  };
}

export type DealsService = ReturnType<typeof createDealsService>;
