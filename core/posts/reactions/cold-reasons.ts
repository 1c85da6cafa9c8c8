import type { ColdReason } from "../../../db/schema.ts";

export type { ColdReason };

/**
 * Why a cold vote (record 0086): the keys `POST /api/product_like_unlike` takes as
 * `reason` and migration 034's CHECK allows, in the order the cold button's menu lists them, with
 * the labels members read. Apart from the zod schema so that the browser's button does not
 * download zod (docs/decisions/0051-javascript-budget.md).
 */
export const COLD_REASON_LABELS = {
  expired: "Expired",
  not_a_deal: "Not a deal",
  cheaper_elsewhere: "Cheaper elsewhere",
  repost: "Repost",
  spam: "Spam or referral",
  wrong_price: "Wrong price",
} as const satisfies Record<ColdReason, string>;

export const COLD_REASONS = Object.keys(COLD_REASON_LABELS) as [ColdReason, ...ColdReason[]];
