import { z } from "zod";
import { postType } from "../../cards/responses.ts";
import { TRUE, message } from "../../responses.ts";

const Choice = z.strictObject({ id: z.number(), title: z.string() });

export const SubmitOptionsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    forum_category_deal: z.array(Choice),
    store: z.array(Choice),
    category: z.array(Choice),
    forum_category_discussion: z.array(Choice),
  }),
});

export const CreatedPostResponse = z.strictObject({
  ...message,
  review_message: z
    .string()
    .optional()
    .describe("only when the post is held for review: what to tell its author"),
  response: z.strictObject({
    unique_id: z.string(),
    slug: z.string(),
    title: z.string(),
    type: postType,
    kind: z.enum(["deal", "coupon", "discussion"]),
    url: z.string(),
  }),
});
