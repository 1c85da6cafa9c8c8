import { z } from "zod";
import { presentMerged, presentPriceHistoryResponse } from "../../core/posts/prices/presenter.ts";
import { MergeProductBody, PriceHistoryBody } from "../../core/posts/prices/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { PricePoint } from "../../core/posts/prices/responses.ts";

const PriceHistoryResponse = z.strictObject({
  status: z.literal("true"),
  points: z.array(PricePoint).describe("oldest first"),
});

const MergedResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  product_id: z
    .number()
    .describe("the product's id (a group of deals); not a card's product_id, which names a deal"),
  deals: z.array(z.string()).describe("unique_ids of the product's deals after the merge"),
});

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
