import { z } from "zod";
import { TRUE, isoDateTime } from "../../responses.ts";

export const PreviewDuplicate = z.strictObject({
  unique_id: z.string(),
  slug: z.string(),
  title: z.string(),
  price: z.number().nullable(),
  url: z.string().describe("the deal's page"),
  expired: z.boolean().describe("its expiry date has passed"),
});

export const LowestPrice = z
  .strictObject({
    price: z.number(),
    currency: z.string(),
    unique_id: z.string().describe("the deal that posted it"),
    url: z.string().describe("that deal's page"),
    date: isoDateTime,
  })
  .describe("the product's lowest price posted in the last 90 days, in the page's currency");

export const LinkPreviewResponse = z.strictObject({
  status: TRUE,
  title: z.string().nullable(),
  price: z.number().nullable(),
  currency: z.string().nullable().describe("ISO 4217"),
  image_url: z
    .string()
    .nullable()
    .describe("the site's own copy of the page's picture (/media/…), to send as deal_image"),
  store_id: z.number().nullable().describe("the store whose web address has the link's domain"),
  coupon_code: z.string().nullable(),
  duplicates: z
    .array(PreviewDuplicate)
    .describe("deals already posted for the same product, newest first"),
  lowest_price_90_days: LowestPrice.nullable(),
  store_name: z.string().nullable(),
  source: z
    .enum(["json-ld", "microdata", "open-graph", "title"])
    .nullable()
    .describe("where the price (else the title) was read"),
  final_link: z.string().describe("the page's address after redirects"),
});
