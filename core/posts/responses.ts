import { z } from "zod";
import { DealCardSchema, dealCardFields, postStatus } from "../cards/responses.ts";
import { ModerationBanner } from "../moderation/responses.ts";
import { Comment } from "./comments/responses.ts";
import { FreshnessSchema } from "./freshness/responses.ts";
import { ColdReasonCountsSchema } from "./reactions/responses.ts";
import { PriceHistory } from "./prices/responses.ts";
import { isLiked } from "./reactions/responses.ts";
import { ShortPagination, TRUE, count, isoDateTime } from "../responses.ts";

const ProductDetails = z.strictObject({
  ...dealCardFields,
  user_verified_educator: z.boolean().describe("the author shows the Verified educator badge"),
  user_level: z.string().describe("the author's reputation level; '' when there is no author"),
  post_id: z.number(),
  description: z.string().describe("sanitised HTML"),
  description_text: z.string(),
  is_liked: isLiked,
  is_liked_weight: z
    .number()
    .int()
    .min(0)
    .describe(
      "Not in the spec: the weight the viewer's vote (is_liked) was cast with, by their reputation level then (record 0090); 0 with no vote",
    ),
  vote_weight: z
    .number()
    .int()
    .min(1)
    .describe(
      "Not in the spec: how many votes a vote by the viewer counts for in the temperature now, by their reputation level (record 0090); 1 for a visitor",
    ),
  unlikes: z.number().int(),
  comments_count: z.number().int(),
  store: z.strictObject({ id: z.number(), title: z.string(), slug: z.string() }).nullable(),
  category: z.strictObject({ id: z.number(), title: z.string(), slug: z.string() }).nullable(),
  user: z.strictObject({ id: z.number(), name: z.string(), image: z.string() }).nullable(),
  path: z.string(),
  updated_at: isoDateTime,
  go_url: z
    .string()
    .describe(
      "Not in the spec: where GRAB DEAL leads, /go/{unique_id} (counts the click, then 302 to the link); '' when there is no link to follow",
    ),
  is_affiliate: z
    .boolean()
    .describe(
      "Not in the spec: the link is an affiliate link (its store has an affiliate template, or it carries a known affiliate parameter)",
    ),
  clean_link: z
    .string()
    .describe("Not in the spec: the link without tracking and affiliate parameters ('' if none)"),
});

export const ProductDetailsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    product_details: ProductDetails,
    comments: z.array(Comment),
    comments_user_image: z.string(),
    moderation: ModerationBanner.optional(),
    related_deals: z
      .array(DealCardSchema)
      .describe(
        "Not in the spec: up to 6 live deals of the same store or category, newest hot first (empty for educator posts)",
      ),
    freshness: FreshnessSchema.nullable().describe("null for educator posts"),
    price_history: PriceHistory,
    cold_reasons: ColdReasonCountsSchema.optional(),
  }),
});

const ConsolePost = z.strictObject({
  unique_id: z.string(),
  post_type: z.enum(["d", "g"]),
  kind: z.enum(["deal", "coupon", "discussion"]),
  title: z.string(),
  path: z.string(),
  status: postStatus,
  moderation_reason: z.string(),
  is_featured: z.boolean(),
  is_expired: z.boolean(),
  expires_at: isoDateTime.nullable(),
  created_at: isoDateTime,
  store: z.strictObject({ id: z.number(), title: z.string() }).nullable(),
  category: z.strictObject({ id: z.number(), title: z.string() }).nullable(),
  author: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  likes: count,
  unlikes: count,
  comments: count,
  views: count,
});

export const AdminPostsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ posts: z.array(ConsolePost), pagination: ShortPagination }),
});

export const AdminPostUpdatedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  changed: z.array(z.string()).describe("the fields the edit changed"),
  response: z.strictObject({
    unique_id: z.string(),
    title: z.string(),
    slug: z.string(),
    path: z.string(),
  }),
});

export const AdminPostsBulkResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  action: z.string(),
  changed: z.array(z.string()).describe("unique_ids the action changed"),
  unchanged: z.array(z.string()).describe("unique_ids that already were as asked"),
  removed: z
    .strictObject({ comments: count, likes: count, views: count })
    .optional()
    .describe("deletes: the rows that went with the posts"),
});
