import { z } from "zod";
import { message } from "../../../responses.ts";

/** `POST /api/comment_like` (docs/decisions/0092-comment-likes.md). */
export const CommentLikeResponse = z.strictObject({
  ...message,
  liked: z.boolean().describe("whether the member now likes the comment"),
  likes: z.number().int().describe("the comment's likes after the press"),
});
