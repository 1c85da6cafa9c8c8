import { z } from "zod";
import { isoDateTime } from "../../responses.ts";

/** One price of a product (record 0040): `POST /api/price_history` and the deal page. */
export const PricePoint = z.strictObject({
  price: z.number(),
  date: isoDateTime.describe("when the deal with this price was posted"),
  unique_id: z.string().describe("the deal that posted this price"),
});

export const PriceHistory = z
  .strictObject({
    points: z.array(PricePoint).describe("every price of the deal's product, oldest first"),
    previous: PricePoint.nullable().describe("the product's price posted just before this deal"),
    lowest_in_90d: z.boolean(),
  })
  .describe("Not in the spec: the product's price history (decision 0040)");

export const PriceHistoryResponse = z.strictObject({
  status: z.literal("true"),
  points: z.array(PricePoint).describe("oldest first"),
});

export const MergedResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  product_id: z
    .number()
    .describe("the product's id (a group of deals); not a card's product_id, which names a deal"),
  deals: z.array(z.string()).describe("unique_ids of the product's deals after the merge"),
});
