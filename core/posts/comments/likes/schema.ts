import { z } from "zod";
import { idField, optionalIdField } from "../../../people/profiles/schema.ts";

/** What a member is told on liking their own comment (docs/decisions/0092-comment-likes.md). */
export const OWN_COMMENT = "You cannot like your own comment.";

/**
 * `POST /api/comment_like`: likes a comment, or takes the like back. Beside the bare toggle, `liked`
 * may ask for a state (a form posted twice, or a press replayed after signing in, then does
 * nothing more).
 */
export const CommentLikeSchema = z.object({
  user_id: optionalIdField("user_id"),
  comment_id: idField("comment_id"),
  liked: z.preprocess(
    (value) =>
      value === "" || value === null || value === undefined
        ? undefined
        : value === "1" || value === "true" || value === 1
          ? true
          : value === "0" || value === "false" || value === 0
            ? false
            : value,
    z.boolean("liked must be true or false.").optional(),
  ),
});

export type CommentLikeInput = z.output<typeof CommentLikeSchema>;
