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
