import { z } from "zod";

/** A deal's freshness (record 0038), as the deal page and the two calls below answer it. */
export const FreshnessSchema = z
  .strictObject({
    last_verified_at: z.string().describe("ISO 8601: when the deal was last seen to work"),
    last_verified_by: z
      .enum(["posted", "member", "coupon", "link_check"])
      .describe("posted, a member's still works, a coupon that worked, or the link check"),
    link_check: z
      .strictObject({
        checked_at: z.string().describe("ISO 8601"),
        outcome: z.enum(["ok", "not_found", "redirected_home", "blocked", "failed"]),
      })
      .nullable()
      .describe("the background link check's last result, null before the first"),
    coupon: z
      .strictObject({
        worked: z.number().int(),
        total: z.number().int(),
        window_days: z.number().int(),
        your_answer: z.boolean().nullable().describe("the signed-in member's answer, null if none"),
      })
      .nullable()
      .describe("coupon deals only: Worked / Didn't work answers in the last window_days days"),
  })
  .describe("Not in the spec: how fresh the deal is");

/** `POST /api/coupon_feedback` and `POST /api/confirm_deal`. */
export const FreshnessAnswerResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  freshness: FreshnessSchema,
});
