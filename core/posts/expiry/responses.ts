import { z } from "zod";

/** A deal's expiry after a mark or a reopening (docs/decisions/0037-deal-expiry.md). */
export const ExpiryStatusResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  unique_id: z.string(),
  is_expired: z.boolean(),
  marks: z.number().int().describe("distinct members who say it has expired"),
  threshold: z.number().int().describe("marks that expire it (site setting, 3 by default)"),
  marked_by_you: z.boolean(),
  can_mark: z.boolean(),
  can_reopen: z.boolean(),
});
