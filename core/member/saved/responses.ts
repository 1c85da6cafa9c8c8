import { z } from "zod";

/** `POST /api/save_deal_toggle` (record 0043). */
export const SaveToggleResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  unique_id: z.string(),
  saved: z.boolean().describe("the deal is now among the member's saved deals"),
});
