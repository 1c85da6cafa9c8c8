import { z } from "zod";
import { idField, optionalIdField } from "../../people/profiles/schema.ts";
import { COLD_REASONS } from "./cold-reasons.ts";

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

/** Why a cold vote, beside the spec's fields (record 0086); none is allowed. */
export const coldReasonField = z.preprocess(
  (value) => (value === "" || value === null ? undefined : value),
  z.enum(COLD_REASONS, `reason must be one of ${COLD_REASONS.join(", ")}.`).optional(),
);

/** `POST /api/product_like_unlike`. */
export const LikeSchema = z
  .object({
    user_id: optionalIdField("user_id"),
    ...postRef,
    btn_type: z.preprocess(
      (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
      z.enum(REACTIONS, "btn_type must be 'like' or 'unlike'."),
    ),
    reason: coldReasonField,
  })
  .refine((input) => input.reason === undefined || input.btn_type === "unlike", {
    path: ["reason"],
    message: "A reason goes only with a cold vote (btn_type 'unlike').",
  });

export type LikeInput = z.output<typeof LikeSchema>;

/** How many posts one `POST /api/my_reactions` may ask about: a page or two of cards. */
export const MY_REACTIONS_MAX = 100;

/**
 * `POST /api/my_reactions` (record 0009): the signed-in member's reactions to the cards on screen.
 * The cards themselves are the same for everyone (and cached); this is asked for after they show.
 */
export const MyReactionsSchema = z.object({
  post_ids: z
    .array(idField("post_ids"), "post_ids must be a list of post ids.")
    .min(1, "post_ids must name at least one post.")
    .max(MY_REACTIONS_MAX, `post_ids may name at most ${MY_REACTIONS_MAX} posts.`),
});

export type MyReactionsInput = z.output<typeof MyReactionsSchema>;
