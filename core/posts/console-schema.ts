import { z } from "zod";
import { filterChoice, filterId, filterText, pageNumber } from "../list-query.ts";
import { moderationReason } from "../moderation/schema.ts";
import { uniqueId } from "./schema.ts";
import {
  DEAL_MESSAGES,
  SUBMISSION_LIMITS,
  isRealDate,
  optionalNumber,
  optionalUrl,
  requiredId,
  requiredText,
  richText,
} from "./submissions/schema.ts";
import { isBlank, text } from "../validation.ts";

/** The console's posts list and its calls (`/api/admin/posts…`). */

export const POST_STATUSES = ["active", "pending", "hidden", "removed"] as const;
export const POST_TYPES = ["d", "g"] as const;
export const POST_SORTS = ["newest", "oldest", "most_liked", "most_comments", "hottest"] as const;
export type PostSort = (typeof POST_SORTS)[number];

/** `GET /api/admin/posts` and the /admin/posts page's filters. */
export const PostListQuery = z.object({
  /** Part of the title, or a unique_id. */
  q: filterText(200, "q"),
  status: filterChoice(POST_STATUSES, "status"),
  /** d: deals and coupons, g: discussions. */
  type: filterChoice(POST_TYPES, "type"),
  store_id: filterId("store_id"),
  category_id: filterId("category_id"),
  /** The author's id, or part of their name or email address. */
  author: filterText(200, "author"),
  sort: z.preprocess(
    (value) => (isBlank(value) ? "newest" : value),
    z.enum(POST_SORTS, { error: `sort must be one of ${POST_SORTS.join(", ")}.` }),
  ),
  page: pageNumber,
});

export type PostListInput = z.output<typeof PostListQuery>;

/** The most posts one bulk call may name. */
export const BULK_LIMIT = 100;

export const POST_BULK_ACTIONS = [
  "feature",
  "unfeature",
  "hide",
  "restore",
  "remove",
  "expire",
  "delete",
] as const;
export type PostBulkAction = (typeof POST_BULK_ACTIONS)[number];

const postIds = z
  .array(uniqueId, { error: "ids must be a list of post ids (unique_id)." })
  .min(1, "Choose at least one post.")
  .max(BULK_LIMIT, `At most ${BULK_LIMIT} posts at a time.`)
  .transform((ids) => [...new Set(ids)]);

/** `POST /api/admin/posts/bulk`: one action on several posts, all or nothing. */
export const PostBulkBody = z.object({
  ids: postIds,
  action: z.enum(POST_BULK_ACTIONS, {
    error: `action must be one of ${POST_BULK_ACTIONS.join(", ")}.`,
  }),
  reason: moderationReason,
});

export type PostBulkInput = z.output<typeof PostBulkBody>;

/** `POST /api/admin/posts/delete`: posts deleted for good (administrators only). */
export const PostDeleteBody = z.object({ ids: postIds, reason: moderationReason });

export type PostDeleteInput = z.output<typeof PostDeleteBody>;

export const EDIT_LIMITS = { dealBadge: 40 } as const;

export const EDIT_MESSAGES = {
  listPrice: "List price must be a number, 0 or more.",
  listPriceBelowPrice: "The list price cannot be below the price.",
  dealBadge: `The badge can be at most ${EDIT_LIMITS.dealBadge} characters.`,
  featured: "is_featured must be true or false.",
  kind: "Please choose a deal or a coupon.",
  forumCategory: "Please select a category.",
  notForDiscussion: "A discussion has no such field.",
} as const;

/**
 * A field an edit may clear: absent is "leave as it is", null or blank is "clear it", anything
 * else is checked with `schema`.
 */
function clearable<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (value === undefined ? undefined : isBlank(value) ? null : value),
    schema.nullable().optional(),
  );
}

/**
 * `POST /api/admin/posts/update`: any field of a deal or discussion. Only the fields sent change;
 * the derived ones (slug, link key, kind, discount) follow from them. The description is
 * sanitised as submissions are.
 */
export const PostUpdateBody = z.object({
  unique_id: uniqueId,
  reason: moderationReason,
  title: requiredText(
    DEAL_MESSAGES.title,
    SUBMISSION_LIMITS.title,
    DEAL_MESSAGES.titleTooLong,
  ).optional(),
  description: richText(DEAL_MESSAGES.description, DEAL_MESSAGES.descriptionTooLong).optional(),
  price: clearable(optionalNumber(DEAL_MESSAGES.price, 0, SUBMISSION_LIMITS.maxPrice)),
  list_price: clearable(optionalNumber(EDIT_MESSAGES.listPrice, 0, SUBMISSION_LIMITS.maxPrice)),
  discount: clearable(
    optionalNumber(DEAL_MESSAGES.discount, 0, 100, { wholeMessage: DEAL_MESSAGES.discountWhole }),
  ),
  link: clearable(optionalUrl(DEAL_MESSAGES.link, /^https?$/)),
  coupon_code: clearable(
    text({ error: DEAL_MESSAGES.couponCode })
      .trim()
      .max(SUBMISSION_LIMITS.couponCode, DEAL_MESSAGES.couponCode),
  ),
  store_id: requiredId(DEAL_MESSAGES.store).optional(),
  category_id: requiredId(DEAL_MESSAGES.category).optional(),
  /** The deal category of a deal, the category of a discussion. */
  forum_category_id: requiredId(EDIT_MESSAGES.forumCategory).optional(),
  /** YYYY-MM-DD; the deal stops being live at the end of that day (any date: staff may backdate). */
  expiry: clearable(
    text({ error: DEAL_MESSAGES.expiry }).trim().refine(isRealDate, DEAL_MESSAGES.expiry),
  ),
  deal_badge: clearable(
    text({ error: EDIT_MESSAGES.dealBadge })
      .trim()
      .max(EDIT_LIMITS.dealBadge, EDIT_MESSAGES.dealBadge),
  ),
  is_featured: z.preprocess(
    (value) => (value === "true" ? true : value === "false" ? false : value),
    z.boolean({ error: EDIT_MESSAGES.featured }).optional(),
  ),
  /** deal or coupon (a deal with a coupon code is a coupon whatever this says). */
  kind: z.enum(["deal", "coupon"], { error: EDIT_MESSAGES.kind }).optional(),
});

export type PostUpdateInput = z.output<typeof PostUpdateBody>;

/** The fields only a deal has; an edit of a discussion that sends one is refused. */
export const DEAL_ONLY_FIELDS = [
  "price",
  "list_price",
  "discount",
  "link",
  "coupon_code",
  "store_id",
  "category_id",
  "expiry",
  "deal_badge",
  "kind",
] as const satisfies readonly (keyof PostUpdateInput)[];
