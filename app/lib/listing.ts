import type { ShouldRevalidateFunctionArgs } from "react-router";
import { pageFromQuery } from "../../core/list-query.ts";
import type { CategoryDetail, StoreDetail } from "../../core/catalog/presenter.ts";
import type { DealCardView } from "../../core/cards/card-view.ts";
import type { ListingResponse } from "../../core/listings/presenter.ts";
import {
  defaultSort,
  expiredFromSearchParams,
  isPanelFiltered,
  panelFromSearchParams,
  searchText,
  sortFromSearchParams,
  type FilterType,
  type ListingKind,
  type ListingSort,
  type PanelFilter,
} from "../../core/listings/schema.ts";

/** What a listing page's loader returns: the listing and the URL state it was made for. */
export interface ListingData {
  /** listingKey() of the URL the listing answers; the page refetches when the URL moves on. */
  key: string;
  /** The order the listing is in. */
  sort: ListingSort;
  /** Loaders send slim cards; the page's own `POST /api/filter` answers carry full ones. */
  listing: ListingResponse<DealCardView>;
  /** The server's clock (ISO) when the loader ran: the cards' time-ago labels (DealCard.tsx). */
  now?: string;
}

/** Identifies a listing's URL state: page, search text, sort and the Filter panel's choices. */
export function listingKey(params: URLSearchParams, kind: ListingKind): string {
  return JSON.stringify({
    page: pageFromQuery(params.get("page")),
    query: searchText(params.get("query")),
    sort: sortFromSearchParams(params, kind),
    expired: expiredFromSearchParams(params, kind),
    panel: panelFromSearchParams(params),
  });
}

/**
 * A listing's URL with another sort: the default sort is left out of the URL, and the page goes
 * back to 1 (the spec resets to page 1 when the panel changes; a new order is a new list).
 */
export function sortHref(params: URLSearchParams, kind: ListingKind, sort: ListingSort): string {
  const next = new URLSearchParams(params);
  if (sort === defaultSort(kind)) next.delete("sort");
  else next.set("sort", sort);
  next.delete("page");
  const query = next.toString();
  return query ? `?${query}` : "?";
}

/**
 * Listing pages skip their loader when only the Filter panel's URL state or its page changes: the
 * page then asks `POST /api/filter` itself. A fresh load of a filtered URL is still rendered on
 * the server by the loader, and leaving filtered mode reloads the unfiltered listing.
 */
export function shouldRevalidateListing({
  currentUrl,
  nextUrl,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs): boolean {
  const sameListing =
    currentUrl.pathname === nextUrl.pathname &&
    searchText(currentUrl.searchParams.get("query")) ===
      searchText(nextUrl.searchParams.get("query"));
  if (sameListing && isPanelFiltered(panelFromSearchParams(nextUrl.searchParams))) return false;
  return defaultShouldRevalidate;
}

/** Which listing a page's filter calls are about (the fixed part of `POST /api/filter`). */
export interface FilterContext {
  filter_type: FilterType;
  store_id?: number;
  category_id?: number;
  search_title?: string;
}

/** The `POST /api/filter` payload for a listing, the panel's choices, a page and the sort. */
export function filterPayload(
  context: FilterContext,
  panel: PanelFilter,
  page: number,
  sort: ListingSort,
) {
  return {
    sort,
    filter_type: context.filter_type,
    store_id: context.store_id !== undefined ? [context.store_id] : panel.storeIds,
    category_id: context.category_id ?? "",
    search_title: context.search_title ?? "",
    page,
    min_price: panel.price.min ?? "",
    max_price: panel.price.max ?? "",
    min_discount: panel.discount.min ?? "",
    max_discount: panel.discount.max ?? "",
  };
}

/** The canonical path of a listing page: filters dropped, page kept when it is not the first. */
export function listingCanonical(path: string, params: URLSearchParams, keep: string[] = []) {
  const canonical = new URLSearchParams();
  for (const name of keep) {
    const value = params.get(name);
    if (value) canonical.set(name, value);
  }
  const page = pageFromQuery(params.get("page"));
  if (page > 1) canonical.set("page", String(page));
  const query = canonical.toString();
  return query ? `${path}?${query}` : path;
}

/** The store a store page's listing is about (`selected[0]`). */
export function selectedStore(data: ListingData): StoreDetail | undefined {
  const selected = data.listing.response.selected[0];
  return selected && "store_id" in selected ? selected : undefined;
}

/** The category a category page's listing is about (`selected[0]`). */
export function selectedCategory(data: ListingData): CategoryDetail | undefined {
  const selected = data.listing.response.selected[0];
  return selected && "category_id" in selected ? selected : undefined;
}
