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
    // Beside the spec's fields (record 0040): precomputed at write time (core/posts/prices).
    lowest_in_90d: row.lowest_in_90d,
  };
}

export type DealCard = ReturnType<typeof presentDealCard>;

/** One page of a deal list, as the services return it. */
export interface DealPage {
  deals: DealCard[];
  currentPage: number;
  lastPage: number;
  total: number;
}
