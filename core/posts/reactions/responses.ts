import { z } from "zod";
import { heat } from "../../cards/responses.ts";
import { TRUE, message } from "../../responses.ts";
import { COLD_REASONS } from "./cold-reasons.ts";

export const isLiked = z
  .union([z.literal(1), z.literal(2), z.literal(-1)])
  .describe("1 liked, 2 unliked, -1 neither");

export const ReactionResponse = z.strictObject({
  ...message,
  is_liked: isLiked,
  likes: z.number().int(),
  unlikes: z.number().int(),
  temperature: z.number().int().describe("the post's temperature after the vote (degrees)"),
  heat,
});

/** `POST /api/my_reactions` (record 0009): the member's reactions to the cards on screen. */
export const MyReactionsResponse = z.strictObject({
  status: TRUE,
  reactions: z.array(
    z.strictObject({
      post_id: z.number(),
      is_liked: z.union([z.literal(1), z.literal(2)]).describe("1 liked, 2 unliked"),
    }),
  ),
  saved: z
    .array(z.number())
    .describe("Not in the spec: the post_ids asked about that the member has saved"),
});

/** A post's cold votes by reason (record 0086): only for its poster and moderators. */
export const ColdReasonCountsSchema = z
  .strictObject({
    by_reason: z.array(
      z.strictObject({
        reason: z.enum(COLD_REASONS),
        label: z.string(),
        count: z.number().int(),
      }),
    ),
    without_reason: z.number().int().describe("cold votes that gave no reason"),
  })
  .describe(
    "Not in the spec: the post's cold votes by reason, in the menu's order; only for the poster and moderators",
  );
