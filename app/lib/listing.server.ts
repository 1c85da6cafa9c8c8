import { data } from "react-router";
import { pageFromQuery } from "../../core/catalog/schema.ts";
import type { AppError } from "../../core/http/errors.ts";
import { presentListing } from "../../core/listings/presenter.ts";
import { panelFromSearchParams } from "../../core/listings/schema.ts";
import type { ListingRequest } from "../../core/listings/service.ts";
import type { Services } from "../../core/services.ts";
import { listingKey, type ListingData } from "./listing.ts";

/** 404 for the page (the root ErrorBoundary shows 'Page Not Found'). */
export function notFound(): never {
  throw data(null, { status: 404 });
}

/**
 * Unknown items (the services' 404 AppError) become the page's 404; anything else is a real
 * failure. Checked by status, not instanceof: the server build bundles its own copy of the class.
 */
export async function orNotFound<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if ((error as Pick<AppError, "statusCode"> | null)?.statusCode === 404) notFound();
    throw error;
  }
}

/**
 * A listing page's loader: the page from `?page`, the Filter panel's choices from the URL, and a
 * 404 for an unknown store or category or a page past the last.
 */
export async function loadListing(
  services: Services,
  request: ListingRequest,
  url: URL,
): Promise<ListingData> {
  const page = pageFromQuery(url.searchParams.get("page"));
  const panel = panelFromSearchParams(url.searchParams);
  const listing = await orNotFound(services.listings.page(request, page, panel));
  if (page > listing.lastPage) notFound();
  return { key: listingKey(url.searchParams), listing: presentListing(listing) };
}
