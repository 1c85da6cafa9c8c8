import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useActionData, useLocation, useRevalidator } from "react-router";
import { FORM_INTENT_FIELD } from "../../core/constants.ts";
import { apiCall } from "../lib/api.ts";
import { messageOf, postedFor, useApiForm, type FormOutcome } from "../lib/api-form.ts";
import { postFormSchemas } from "../lib/lazy-schemas.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";
import { Field, KitForm } from "./Form.tsx";

/** The API's own rule for comment_text, loaded when the box is first sent. */
const commentTextSchema = async () => (await postFormSchemas()).CommentTextSchema;

interface CommentFormProps {
  postId: number;
  postType: "d" | "g";
  /** The signed-in user's id; null (a visitor) signs in first and posts on return (record 0035). */
  viewerId: number | null;
  /**
   * The signed-in user's XSRF token: the box posts to the page without JavaScript
   * (docs/decisions/0079). A visitor's box has none, so a cached anonymous page carries none.
   */
  csrfToken?: string | null;
  /** The comment being answered; omitted for a top-level comment. */
  parentId?: number;
  label: string;
  submitLabel: string;
  onCancel?: () => void;
  onPosted?: () => void;
  autoFocus?: boolean;
  /**
   * A reply typed before signing in, handed over by its comment (which opened this box on
   * return): it is filled in and posted. The top-level box picks up its own.
   */
  resume?: string;
}

/**
 * The Leave a Comment box and the Reply box: posts through the JSON API, then reloads the data.
 *
 * A visitor may type too. Posting sends them to sign in with the text kept for this page
 * (app/lib/pending-action.ts); back here, signed in, the text is posted as they asked, since
 * pressing the button was the decision to publish. If the server refuses it (an unconfirmed
 * address, docs/decisions/0013), the text stays in the box with the server's message, so
 * nothing typed is lost.
 *
 * A member's box is a kit form: before hydration or without JavaScript it posts to the page, whose
 * action runs the same check and service (app/lib/post-forms.server.ts) and answers this box alone.
 */
export function CommentForm(props: CommentFormProps) {
  const { postId, postType, viewerId, parentId, label, submitLabel, onCancel, onPosted } = props;
  const revalidator = useRevalidator();
  const signInFirst = useSignInFirst();
  const location = useLocation();
  const fieldId = useId();
  const [resume, setResume] = useState<string | null>(props.resume ?? null);
  const commentId = parentId === undefined ? "" : String(parentId);
  // The page's answer to this box posted without JavaScript.
  const answer = postedFor(useActionData<FormOutcome>(), {
    intent: "comment",
    comment_id: commentId,
  });
  /**
   * Said once a comment typed before signing in is posted, as the page has changed under them,
   * and after a comment posted without JavaScript.
   */
  const [posted, setPosted] = useState<string | null>(answer?.ok ? answer.message : null);
  const postingResumed = useRef(false);
  const form = useApiForm(
    commentTextSchema,
    ({ comment_text }) =>
      apiCall("/product_add_comment", {
        user_id: viewerId,
        post_id: postId,
        post_type: postType,
        comment_id: parentId ?? "",
        comment_text,
      }),
    async (result, form) => {
      form.reset();
      await revalidator.revalidate();
      if (postingResumed.current) setPosted(messageOf(result.data, "Your comment is posted."));
      postingResumed.current = false;
      onPosted?.();
    },
    {
      initial: { comment_text: "" },
      posted: answer,
      idPrefix: fieldId,
      // The box's own message says what went wrong; there is no message above it.
      failureMessage: (result) => {
        postingResumed.current = false;
        form.setError(
          "comment_text",
          messageOf(result.data, "Sorry, your comment could not be posted. Please try again."),
        );
        return null;
      },
    },
  );

  // The top-level box: a comment this visitor typed here before signing in.
  usePendingAction(
    "comment",
    viewerId !== null && parentId === undefined,
    (action) => setResume(action.text),
    (action) =>
      action.parentId === null && action.postId === postId && action.postType === postType,
  );

  const text = form.values.comment_text;
  useEffect(() => {
    if (resume === null || viewerId === null) return;
    // First put the kept text in the box; once it shows, post it (an empty one: just the box).
    if (text !== resume) {
      form.set("comment_text", resume);
      return;
    }
    setResume(null);
    const box = form.ref.current?.querySelector("textarea");
    box?.scrollIntoView?.({ block: "center" });
    box?.focus();
    if (resume.trim()) {
      postingResumed.current = true;
      void form.submit();
    }
  }, [resume, text, viewerId, form]);

  useEffect(() => {
    if (!posted) return;
    const timer = setTimeout(() => setPosted(null), 5000);
    return () => clearTimeout(timer);
  }, [posted]);

  async function submit(event?: FormEvent) {
    if (viewerId !== null) {
      await form.submit(event);
      return;
    }
    event?.preventDefault();
    signInFirst({ kind: "comment", postId, postType, parentId: parentId ?? null, text });
  }

  const fields = (
    <>
      <Field
        {...form.bind("comment_text")}
        label={label}
        control="textarea"
        maxLength={5000}
        rows={parentId ? 3 : 4}
        autoFocus={props.autoFocus}
        hint={
          viewerId === null
            ? "You will be asked to log in first; your comment is posted when you are back."
            : undefined
        }
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
        <p className="comment-form-status" role="status">
          {posted}
        </p>
      </div>
    </>
  );

  if (viewerId === null) {
    return (
      // Before hydration or without JavaScript, the box sends the visitor to sign in and back.
      <form
        ref={form.ref}
        className="comment-form"
        method="get"
        action="/login"
        onSubmit={(event) => void submit(event)}
        noValidate
      >
        <input type="hidden" name="next" value={location.pathname + location.search} />
        {fields}
      </form>
    );
  }
  return (
    <KitForm form={{ ref: form.ref, submit }} csrfToken={props.csrfToken} className="comment-form">
      <input type="hidden" name={FORM_INTENT_FIELD} value="comment" />
      <input type="hidden" name="post_id" value={postId} />
      <input type="hidden" name="post_type" value={postType} />
      <input type="hidden" name="comment_id" value={commentId} />
      {fields}
    </KitForm>
  );
}
