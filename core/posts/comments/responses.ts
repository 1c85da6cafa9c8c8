import { z } from "zod";
import { postStatus, postType } from "../../cards/responses.ts";
import { ModerationBanner } from "../../moderation/responses.ts";
import { ShortPagination, TRUE, count, isoDateTime, message } from "../../responses.ts";

export const Comment = z.strictObject({
  id: z.number(),
  user_id: z.number().nullable(),
  user_name: z.string(),
  user_image: z.string(),
  user_verified_educator: z.boolean().describe("shows the Verified educator badge"),
  user_level: z.string().describe("the author's reputation level; '' when there is no author"),
  message: z.string().describe("sanitised HTML"),
  created_at: isoDateTime,
  comment_id: z.union([z.number(), z.literal("")]).describe("the parent comment, '' at the top"),
  product_id: z.number(),
  product_type: postType,
  is_deleted: z.boolean(),
  likes_count: z.number().int().describe("Not in the spec (record 0092): likes on the comment"),
  liked: z
    .boolean()
    .optional()
    .describe("Not in the spec (record 0092): the signed-in viewer likes it; absent for visitors"),
  get comments_replies(): z.ZodArray<typeof Comment> {
    return z.array(Comment);
  },
  moderation: ModerationBanner.optional(),
});

export const CommentAddedResponse = z.strictObject({ ...message, comment: Comment });

const ConsoleComment = z.strictObject({
  id: z.number(),
  text: z.string().describe("plain text, shortened"),
  status: z.enum(["active", "hidden", "removed"]),
  is_deleted: z.boolean(),
  created_at: isoDateTime,
  parent_id: z.number().nullable(),
  replies: count,
  author: z.strictObject({ id: z.number(), name: z.string() }).nullable(),
  post: z.strictObject({
    unique_id: z.string(),
    post_type: z.enum(["d", "g"]),
    title: z.string(),
    status: postStatus,
    path: z.string(),
  }),
});

export const AdminCommentsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ comments: z.array(ConsoleComment), pagination: ShortPagination }),
});

export const AdminCommentsActionResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  action: z.string(),
  changed: z.array(z.number()),
  unchanged: z.array(z.number()),
  placeholders: z
    .array(z.number())
    .optional()
    .describe("deletes: comments kept as “This comment was deleted.” for their replies"),
});
