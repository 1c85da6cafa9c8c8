import { useId, useRef, useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import { AddCommentSchema } from "../../core/comments/schema.ts";
import { apiCall } from "../lib/api.ts";

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
  const fieldId = useId();
  const errorId = `${fieldId}-error`;
  const revalidator = useRevalidator();
  const textRef = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState("");
  const [error, setError] = useState("");
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The API's own rule for comment_text ('Please enter a comment before posting.' when blank).
    const checked = AddCommentSchema.shape.comment_text.safeParse(text);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "");
      textRef.current?.focus();
      return;
    }
    setSending(true);
    setError("");
    const result = await apiCall<{ message?: string }>("/product_add_comment", {
      user_id: viewerId,
      post_id: postId,
      post_type: postType,
      comment_id: parentId ?? "",
      comment_text: text,
    });
    if (result.ok) {
      setText("");
      await revalidator.revalidate();
      onPosted?.();
    } else {
      setError(result.data.message || "Sorry, your comment could not be posted. Please try again.");
    }
    setSending(false);
  }

  return (
    <form className="comment-form" onSubmit={submit} noValidate>
      <div className="form-field">
        <label htmlFor={fieldId}>{label}</label>
        <textarea
          id={fieldId}
          ref={textRef}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={errorId}
          maxLength={5000}
          rows={parentId ? 3 : 4}
          autoFocus={props.autoFocus}
        />
        <p id={errorId} className="field-error" aria-live="polite">
          {error}
        </p>
      </div>
      <div className="comment-form-actions">
        <button type="submit" className="btn btn-primary" disabled={sending}>
          {sending ? "Loading…" : submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="btn btn-outline" onClick={onCancel} disabled={sending}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
