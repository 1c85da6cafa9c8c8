import { PAGE_SIZE } from "../constants.ts";
import type { DealCard, DealPage } from "../cards/presenter.ts";

/** A Teachers Wishlist entry as the home page and the console show it. */
export function presentWishlistEntry(row: {
  id: number;
  first_name: string;
  last_name: string;
  school_location: string;
  amazon_wishlist: string;
}) {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    school_location: row.school_location,
    amazon_wishlist: row.amazon_wishlist,
  };
}

export type WishlistEntry = ReturnType<typeof presentWishlistEntry>;

function presentPagination(page: DealPage) {
  return {
    current_page: page.currentPage,
    last_page: page.lastPage,
    total: page.total,
    per_page: PAGE_SIZE.homeRecent,
  };
}

/** `POST /api/home`. */
export function presentHome(home: {
  wishlist: WishlistEntry[];
  trending: DealCard[];
  recent: DealPage;
}) {
  return {
    status: "true",
    teachers_wishlist: home.wishlist,
    trending_deals: { deals_arr: home.trending },
    recent_deals: {
      recent_arr: home.recent.deals,
      current_page: home.recent.currentPage,
      last_page: home.recent.lastPage,
      total: home.recent.total,
    },
  };
}

/** `POST /api/recent_deal_pagination`: the next page of Recent Deals for LOAD MORE. */
export function presentRecentPage(page: DealPage) {
  return {
    status: "true",
    recent_deals: page.deals,
    recent_deals_pagination: presentPagination(page),
  };
}

/** `POST /api/category_store_filter_home`: the home lists of one merchant and/or category. */
export function presentHomeFilter(result: { trending: DealCard[]; recent: DealPage }) {
  return {
    status: "true",
    recent_deals_data: result.recent.deals,
    trending_deals_arr: result.trending,
    pagination: presentPagination(result.recent),
  };
}
