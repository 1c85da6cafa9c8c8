import { presentMerged, presentPriceHistoryResponse } from "../../core/posts/prices/presenter.ts";
import { MergeProductBody, PriceHistoryBody } from "../../core/posts/prices/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { MergedResponse, PriceHistoryResponse } from "../../core/posts/prices/responses.ts";

/** Price history (record 0040): a product's prices, and moderators' merges of products. */
export const priceHistoryApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/price_history",
    tag: "Posts",
    summary:
      "Every price posted for the deal's product (its deals by the same normalised link, or merged " +
      "by a moderator), live and expired, oldest first: points of {price, date, unique_id}. An " +
      "unknown deal, an educator post or a held, hidden or removed deal answers 404",
    body: PriceHistoryBody,
    response: PriceHistoryResponse,
    handler: async ({ input }) => presentPriceHistoryResponse(await services.prices.history(input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/posts/merge_product",
    tag: "Console",
    summary:
      "Merges the product of deal unique_id (all its deals) into the product of deal " +
      "into_unique_id; new deals of its link join that product too. Audited; optional reason",
    auth: "moderator",
    body: MergeProductBody,
    response: MergedResponse,
    handler: async ({ input, request }) =>
      presentMerged(await services.prices.merge(request.user, input)),
  });
};
