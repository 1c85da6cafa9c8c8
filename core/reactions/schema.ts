import { z } from "zod";
import { idField, optionalIdField } from "../profiles/schema.ts";

export const REACTIONS = ["like", "unlike"] as const;
export type Reaction = (typeof REACTIONS)[number];

/** The post a community action is about: its id, and optionally its type ('d' deal, 'g' discussion). */
export const postRef = {
  post_id: idField("post_id"),
  post_type: z.preprocess(
    (value) => (value === "" || value === null ? undefined : value),
    z.enum(["d", "g"], "post_type must be 'd' or 'g'.").optional(),
  ),
};

/** `POST /api/product_like_unlike`. */
export const LikeSchema = z.object({
  user_id: optionalIdField("user_id"),
  ...postRef,
  btn_type: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(REACTIONS, "btn_type must be 'like' or 'unlike'."),
  ),
});

export type LikeInput = z.output<typeof LikeSchema>;
