import { presentFilterResult, presentListing } from "../../core/listings/presenter.ts";
import { CategoryPageBody, FilterBody } from "../../core/listings/schema.ts";
import { parseInput } from "../../core/http/validate.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

export const listingsApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "POST",
    url: "/category_page",
    tag: "Listings",
    summary:
      "One page of a listing: type store or category (by slug), d (all deals, 15 a page) or g with slug 'educators' (educator forum posts, 12 a page)",
    body: CategoryPageBody,
    handler: async (request) => {
      const input = parseInput(CategoryPageBody, request.body);
      return presentListing(await services.listings.categoryPage(input));
    },
  });
  apiRoute(app, {
    method: "POST",
    url: "/filter",
    tag: "Listings",
    summary:
      "A listing narrowed by the Filter panel (stores, price and discount ranges); filter_type store | category | newdeals | search",
    body: FilterBody,
    handler: async (request) => {
      const input = parseInput(FilterBody, request.body);
      return presentFilterResult(await services.listings.filter(input));
    },
  });
};
