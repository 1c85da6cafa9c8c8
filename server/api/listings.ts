import { presentFilterResult, presentListing } from "../../core/listings/presenter.ts";
import { CategoryPageBody, FilterBody } from "../../core/listings/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { FilterResponse, ListingResponse } from "../../core/listings/responses.ts";

export const listingsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/category_page",
    tag: "Listings",
    summary:
      "One page of a listing: type store or category (by slug), d (all deals, 15 a page) or g with slug 'educators' (educator forum posts, 12 a page)",
    body: CategoryPageBody,
    response: ListingResponse,
    handler: async ({ input }) => presentListing(await services.listings.categoryPage(input)),
  });
  apiRoute(app, {
    method: "POST",
    url: "/filter",
    tag: "Listings",
    summary:
      "A listing narrowed by the Filter panel (stores, price and discount ranges); filter_type store | category | newdeals | search",
    body: FilterBody,
    response: FilterResponse,
    handler: async ({ input }) => presentFilterResult(await services.listings.filter(input)),
  });
};
