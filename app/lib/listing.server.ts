import { redirect } from "react-router";
import { pageFromQuery } from "../../core/list-query.ts";
import { toCardView } from "../../core/cards/card-view.ts";
import { pageClock } from "../../core/time/page-clock.ts";
import { presentListing } from "../../core/listings/presenter.ts";
import {
  expiredFromSearchParams,
  panelFromSearchParams,
  sortFromSearchParams,
} from "../../core/listings/schema.ts";
import type { ListingRequest } from "../../core/listings/service.ts";
import type { Services } from "../../core/services.ts";
import { orNull } from "../../core/not-found.ts";
import { notFound } from "./errors.ts";
import { listingKey, type ListingData } from "./listing.ts";

/**
 * A listing page's loader: the page from `?page`, the sort from `?sort` (anything the page does not
 * offer reads as its default), the Filter panel's choices from the URL, and a 404 for an unknown store or category or a page past the last, and a 301 from an old slug of a
 * store or category to its current one.
 */
export async function loadListing(
  services: Services,
  request: ListingRequest,
  url: URL,
): Promise<ListingData> {
  const page = pageFromQuery(url.searchParams.get("page"));
  const panel = panelFromSearchParams(url.searchParams);
  const sort = sortFromSearchParams(url.searchParams, request.type);
  // "Hide expired" (record 0037): ?expired=hide|show, else the listing's default.
  const expired = expiredFromSearchParams(url.searchParams, request.type);
  const listing =
    (await orNull(services.listings.page(request, page, panel, sort, expired))) ?? notFound();
  // An old slug of a renamed store or category finds it: its address moved for good.
  if (
    (request.type === "store" || request.type === "category") &&
    listing.selected &&
    listing.selected.slug !== request.slug
  ) {
    const moved = new URL(url);
    moved.pathname = `/${request.type}/${encodeURIComponent(listing.selected.slug)}`;
    throw redirect(`${moved.pathname}${moved.search}`, 301);
  }
  if (page > listing.lastPage) notFound();
  // Cards carry only what they show (core/cards/card-view.ts); /api/filter keeps the full ones.
  const cards = { ...listing, items: listing.items.map(toCardView) };
  return {
    key: listingKey(url.searchParams, request.type),
    sort,
    listing: presentListing(cards),
    now: pageClock(),
  };
}
