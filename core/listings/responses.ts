import { z } from "zod";
import { DealCardSchema } from "../cards/responses.ts";
import { categoryFields, storeFields } from "../catalog/responses.ts";
import { ListPagination, TRUE, isoDateTime } from "../responses.ts";

const EducatorPost = z.strictObject({
  unique_id: z.string(),
  slug: z.string(),
  title: z.string(),
  image_url: z.string(),
  created_at: isoDateTime,
  is_featured: z.enum(["Featured", ""]),
  rating: z.number().int(),
  views: z.number().int(),
  comments: z.number().int(),
  user_id: z.number().nullable(),
  user_name: z.string(),
});

const priceFilter = z.array(z.strictObject({ min_price: z.number(), max_price: z.number() }));
const discountFilter = z.array(
  z.strictObject({ min_discount: z.number(), max_discount: z.number() }),
);

const listing = z.strictObject({
  deal_data: z.union([z.array(DealCardSchema), z.array(EducatorPost)]),
  deal_data_pagination: ListPagination,
  selected: z.array(
    z.union([
      z.strictObject({ ...storeFields, description: z.string() }),
      z.strictObject({ ...categoryFields, description: z.string() }),
    ]),
  ),
  price_filter: priceFilter,
  discount_filter: discountFilter,
  store_filter: z.array(
    z.strictObject({
      id: z.number(),
      title: z.string(),
      slug: z.string(),
      deal_count: z.number().int().nullable(),
    }),
  ),
});

export const ListingResponse = z.strictObject({ status: TRUE, response: listing });

/** `/filter`: the listing, with the slider bounds beside `response` too, as the spec lists them. */
export const FilterResponse = z.strictObject({
  status: TRUE,
  response: listing,
  price_filter: priceFilter,
  discount_filter: discountFilter,
});
