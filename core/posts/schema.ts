import { z } from "zod";
import { claimedUserId } from "../people/accounts/schema.ts";
import { text } from "../validation.ts";

/** A post's public id, as its URL and the payloads carry it. */
export const uniqueId = text({ error: "unique_id is required." })
  .trim()
  .min(1, "unique_id is required.")
  .max(40, "No Data Found");

/** `POST /api/product_details`. */
export const ProductDetailsBody = z.object({
  // Ignored: the viewer is the session's user (record 0009); accepted for the spec's payload.
  user_id: claimedUserId,
  unique_id: uniqueId,
  slug: text().trim().max(200).optional(),
  type: z.enum(["d", "g"], { error: "type must be 'd' (deal) or 'g' (educator post)." }).optional(),
});

export type ProductDetailsInput = z.output<typeof ProductDetailsBody>;
