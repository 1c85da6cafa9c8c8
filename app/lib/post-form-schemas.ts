import { z } from "zod";
import { AddCommentSchema } from "../../core/posts/comments/schema.ts";
import { ReportBody } from "../../core/moderation/schema.ts";

/**
 * The browser's checks of the deal page's two forms, with the API's own rules. They are a chunk
 * of their own, with zod, loaded (app/lib/lazy-schemas.ts) when one of the forms is first sent, so that a deal page starts
 * without the validation library (docs/decisions/0051-javascript-budget.md).
 */

/** The API's own rule for comment_text ('Please enter a comment before posting.' when blank). */
export const CommentTextSchema = z.object({ comment_text: AddCommentSchema.shape.comment_text });

/** The report dialog's fields. */
export const ReportFormSchema = z.object({
  reason: ReportBody.shape.reason,
  note: ReportBody.shape.note,
});
