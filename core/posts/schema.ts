import { z } from "zod";

/** A user id as the spec's payloads carry it: a number or a numeric string, or absent. */
const OptionalUserId = z.union([z.string().max(20), z.number()]).nullish();

/** `POST /api/product_details`. */
export const ProductDetailsBody = z.object({
  // Ignored: the viewer is the session's user (DESIGN.md, identity); accepted for the spec's payload.
  user_id: OptionalUserId,
  unique_id: z
    .string({ error: "unique_id is required." })
    .trim()
    .min(1, "unique_id is required.")
    .max(40, "No Data Found"),
  slug: z.string().trim().max(200).optional(),
  type: z.enum(["d", "g"], { error: "type must be 'd' (deal) or 'g' (educator post)." }).optional(),
});

export type ProductDetailsInput = z.infer<typeof ProductDetailsBody>;
