import { z } from "zod";

/** `POST /api/follow_toggle` (record 0043). */
export const FollowToggleResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  type: z.enum(["store", "category"]),
  id: z.number().int(),
  following: z.boolean().describe("the member now follows the store or category"),
});
