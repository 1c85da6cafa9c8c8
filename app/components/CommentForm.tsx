import { useId } from "react";
import { useRevalidator } from "react-router";
import { z } from "zod";
import { AddCommentSchema } from "../../core/comments/schema.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf, useApiForm } from "../lib/api-form.ts";
import { Field } from "./Form.tsx";

/** The API's own rule for comment_text ('Please enter a comment before posting.' when blank). */
const CommentTextSchema = z.object({ comment_text: AddCommentSchema.shape.comment_text });

interface CommentFormProps {
  postId: number;
  postType: "d" | "g";
  viewerId: number;
  /** The comment being answered; omitted for a top-level comment. */
  parentId?: number;
  label: string;
  submitLabel: string;
  onCancel?: () => void;
  onPosted?: () => void;
  autoFocus?: boolean;
}

/** The Leave a Comment box and the Reply box: posts through the JSON API, then reloads the data. */
export function CommentForm(props: CommentFormProps) {
  const { postId, postType, viewerId, parentId, label, submitLabel, onCancel, onPosted } = props;
  const revalidator = useRevalidator();
  const fieldId = useId();
  const form = useApiForm(
    CommentTextSchema,
    ({ comment_text }) =>
      apiCall("/product_add_comment", {
        user_id: viewerId,
        post_id: postId,
        post_type: postType,
        comment_id: parentId ?? "",
        comment_text,
      }),
    async (_result, form) => {
      form.reset();
      await revalidator.revalidate();
      onPosted?.();
    },
    {
      initial: { comment_text: "" },
      idPrefix: fieldId,
      // The box's own message says what went wrong; there is no message above it.
      failureMessage: (result) => {
        form.setError(
          "comment_text",
          messageOf(result.data, "Sorry, your comment could not be posted. Please try again."),
        );
        return null;
      },
    },
  );

  return (
    <form ref={form.ref} className="comment-form" onSubmit={form.submit} noValidate>
      <Field
        {...form.bind("comment_text")}
        label={label}
        control="textarea"
        maxLength={5000}
        rows={parentId ? 3 : 4}
        autoFocus={props.autoFocus}
      />
      <div className="comment-form-actions">
        <button type="submit" className="btn btn-primary" disabled={form.busy}>
          {form.busy ? "Loading…" : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-outline" onClick={onCancel} disabled={form.busy}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
