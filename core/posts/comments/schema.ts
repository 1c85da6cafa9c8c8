import { z } from "zod";
import { text } from "../../validation.ts";
import { optionalIdField } from "../../people/profiles/schema.ts";
import { postRef } from "../reactions/schema.ts";

/** The spec's texts (sections 5 and 8). */
export const COMMENT_REQUIRED = "Please enter a comment before posting.";
export const COMMENT_POSTED = "Comment has been posted.";
export const COMMENT_MAX_LENGTH = 5000;

// String.prototype.trim leaves zero-width characters, which look exactly as blank.
const INVISIBLE = /[\u200b-\u200d\u2060\ufeff]/g;

/** `POST /api/product_add_comment`: a comment (comment_id '') or a reply to comment_id. */
export const AddCommentSchema = z.object({
  user_id: optionalIdField("user_id"),
  ...postRef,
  comment_id: optionalIdField("comment_id"),
  comment_text: z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text({ error: COMMENT_REQUIRED, multiline: true })
      .refine((text) => text.replace(INVISIBLE, "").trim().length > 0, COMMENT_REQUIRED)
      .transform((text) => text.trim())
      .refine(
        (text) => text.length <= COMMENT_MAX_LENGTH,
        `Comments can be at most ${COMMENT_MAX_LENGTH.toLocaleString("en-US")} characters.`,
      ),
  ),
});

export type AddCommentInput = z.output<typeof AddCommentSchema>;
