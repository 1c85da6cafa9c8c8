import { z } from "zod";
import { isoDateTime } from "../responses.ts";

export const postType = z.enum(["d", "g"]).describe("d: deal, g: educator post");

export const heat = z
  .enum(["cold", "mild", "warm", "hot"])
  .describe("cold below 0°, warm from 50°, hot from 100°");

/** The spec's deal card, plus what a card needs to show its state. */
export const dealCardFields = {
  id: z.number(),
  product_id: z.number(),
  unique_id: z.string(),
  slug: z.string(),
  post_type: postType,
  type: z.enum(["deal", "coupon", "discussion"]),
  title: z.string(),
  image_url: z.string(),
  price: z.number().nullable(),
  list_price: z.number().nullable(),
  discount: z.number().int().nullable(),
  currency: z.string(),
  deal_badge: z.string(),
  grab_deal_link: z.string(),
  coupon_id: z.number().nullable(),
  coupon_code: z.string(),
  expiry: isoDateTime.nullable(),
  is_expired: z.boolean(),
  is_featured: z.enum(["Featured", ""]),
  store_id: z.number().nullable(),
  store_title: z.string(),
  merchant_title: z.string(),
  store_slug: z.string(),
  category_id: z.number().nullable(),
  rating: z.number().int(),
  likes: z.number().int(),
  comments: z.number().int(),
  views: z.number().int(),
  user_id: z.number().nullable(),
  user_name: z.string(),
  user_by: z.string(),
  user_image: z.string(),
  created_at: isoDateTime,
  temperature: z
    .number()
    .int()
    .describe("degrees: 10 per like, -10 per unlike, damped votes left out (decision 0008)"),
  heat: heat,
  last_verified_at: isoDateTime.describe(
    "Not in the spec: when the deal was last seen to work: posted, confirmed by a member, a coupon that worked, or a link check",
  ),
  lowest_in_90d: z
    .boolean()
    .describe(
      "Not in the spec: the deal's price is the lowest of its product in the 90 days before it was posted, and no later deal of the product is cheaper (decision 0040)",
    ),
};

export const DealCardSchema = z.strictObject(dealCardFields);

export const postStatus = z.enum(["active", "pending", "hidden", "removed"]);
