import type { CategoryDetail, StoreDetail } from "../catalog/presenter.ts";
import type { DealCard } from "../cards/presenter.ts";
import type { DealBounds } from "../cards/deal-filter-query.ts";

/** A post of the educators' forum in the spec's field names (section 3, "Forum post"). */
export function presentEducatorPost(card: DealCard) {
  return {
    unique_id: card.unique_id,
    slug: card.slug,
    title: card.title,
    image_url: card.image_url,
    created_at: card.created_at,
    // The spec's is_featured is the badge's text: "Featured" or nothing.
    is_featured: card.is_featured,
    rating: card.rating,
    views: card.views,
    comments: card.comments,
    user_id: card.user_id,
    user_name: card.user_name,
  };
}

export type EducatorPost = ReturnType<typeof presentEducatorPost>;

/** A store of the Filter panel's checklist; deal_count is null where it is not counted. */
export interface StoreOption {
  id: number;
  title: string;
  slug: string;
  deal_count: number | null;
}

/** One page of a listing (store, category, new deals, search, educators), as services return it. */
export interface Listing<Item = DealCard> {
  items: Item[];
  total: number;
  currentPage: number;
  lastPage: number;
  perPage: number;
  /** The store or category the listing is about, if any. */
  selected: StoreDetail | CategoryDetail | null;
  /** The sliders' ends over the whole listing (not narrowed by the filter itself). */
  bounds: DealBounds;
  /** The Filter panel's store checklist (empty where it does not apply). */
  stores: StoreOption[];
}

function presentBounds(bounds: DealBounds) {
  return {
    price_filter: [{ min_price: bounds.minPrice ?? 0, max_price: bounds.maxPrice ?? 0 }],
    discount_filter: [
      { min_discount: bounds.minDiscount ?? 0, max_discount: bounds.maxDiscount ?? 0 },
    ],
  };
}

/**
 * The spec's listing response (section 3): `deal_data`, `deal_data_pagination.total`,
 * `selected[0]`, `price_filter[0]`, `discount_filter[0]`, plus the pager's arithmetic and the
 * store checklist (`store_filter`).
 */
export function presentListing<Item>(listing: Listing<Item>) {
  return {
    status: "true" as const,
    response: {
      deal_data: listing.items,
      deal_data_pagination: {
        total: listing.total,
        per_page: listing.perPage,
        current_page: listing.currentPage,
        last_page: listing.lastPage,
      },
      selected: listing.selected ? [listing.selected] : [],
      ...presentBounds(listing.bounds),
      store_filter: listing.stores,
    },
  };
}

export type ListingResponse<Item = DealCard> = ReturnType<typeof presentListing<Item>>;

/** `POST /api/filter`: the listing, with the slider bounds also beside `response` as the spec lists them. */
export function presentFilterResult(listing: Listing) {
  return { ...presentListing(listing), ...presentBounds(listing.bounds) };
}
