import { z } from "zod";
import { moderationReason } from "../../moderation/schema.ts";
import { uniqueId } from "../schema.ts";

/** `POST /api/price_history`: the deal whose product's prices are asked for. */
export const PriceHistoryBody = z.object({ unique_id: uniqueId });

export type PriceHistoryInput = z.output<typeof PriceHistoryBody>;

/**
 * A deal named by its unique_id or by its page's address (/post/<unique_id>/<slug>), as a moderator
 * may paste it.
 */
export const dealReference = z.preprocess((value) => {
  if (typeof value !== "string") return value;
  const match = /\/post\/([^/?#\s]+)/.exec(value);
  return match ? match[1] : value;
}, uniqueId);

/**
 * `POST /api/admin/posts/merge_product`: the deal `unique_id` (and every deal of its product) joins
 * the product of the deal `into_unique_id`.
 */
export const MergeProductBody = z.object({
  unique_id: uniqueId,
  into_unique_id: dealReference,
  reason: moderationReason,
});

export type MergeProductInput = z.output<typeof MergeProductBody>;

export const MERGE_MESSAGES = {
  notFound: "That deal does not exist.",
  intoNotFound: "The deal to merge into does not exist.",
  itself: "A deal cannot be merged into itself: choose another deal of the same product.",
  notDeal: "Only deals have prices: an educator post cannot be merged into a product.",
  already: "These deals are already one product.",
} as const;

export const HISTORY_MESSAGES = {
  notFound: "That deal does not exist or is not public.",
} as const;
