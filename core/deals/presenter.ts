import { PAGE_SIZE } from "../constants.ts";
import { heatOf, temperatureOf } from "../posts/temperature.ts";
import type { DealCardRow } from "./deal-card-query.ts";
import { hasEnded } from "../posts/policy.ts";
import { siteImage } from "../media/media-path.ts";

/** A deal card in the spec's field names (section 3), plus what the card needs to show state. */
export function presentDealCard(row: DealCardRow, now: Date) {
  const isExpired = hasEnded(row, now);
  return {
    id: row.id,
    product_id: row.id,
    unique_id: row.unique_id,
    slug: row.slug,
    post_type: row.post_type,
    type: row.kind,
    title: row.title,
    image_url: siteImage(row.image_url),
    price: row.price,
    list_price: row.list_price,
    discount: row.discount,
    currency: row.currency,
    deal_badge: row.deal_badge,
    grab_deal_link: row.link,
    coupon_id: row.kind === "coupon" ? row.id : null,
    coupon_code: row.coupon_code,
    expiry: row.expires_at ? row.expires_at.toISOString() : null,
    is_expired: isExpired,
    is_featured: row.is_featured ? "Featured" : "",
    store_id: row.store_id,
    store_title: row.store_title ?? "",
    merchant_title: row.store_title ?? "",
    store_slug: row.store_slug ?? "",
    category_id: row.category_id,
    // Rating: thumbs up minus thumbs down (docs/decisions/0009-likes-and-rating.md).
    rating: row.likes_count - row.unlikes_count,
    likes: row.likes_count,
    comments: row.comments_count,
    views: row.views,
    user_id: row.user_id,
    user_name: row.user_name ?? "",
    user_by: row.user_name ?? "",
    user_image: siteImage(row.user_image),
    created_at: row.created_at.toISOString(),
    // Beside the spec's fields (record 0008): degrees from likes and unlikes, and its band.
    temperature: temperatureOf(row),
    heat: heatOf(temperatureOf(row)),
    // Freshness (record 0038): when the deal was last seen to work (posting, a member, a check).
    last_verified_at: row.last_verified_at.toISOString(),
    // Beside the spec's fields (record 0040): precomputed at write time (core/prices).
    lowest_in_90d: row.lowest_in_90d,
  };
}

export type DealCard = ReturnType<typeof presentDealCard>;

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

/** One page of a deal list, as the services return it. */
export interface DealPage {
  deals: DealCard[];
  currentPage: number;
  lastPage: number;
  total: number;
}

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
