import { FiThumbsUp } from "react-icons/fi";
import { Form, useActionData, useLocation } from "react-router";
import { FORM_INTENT_FIELD } from "../../core/constants.ts";
import { postedFor, type FormOutcome } from "../lib/api-form.ts";
import { toggleCall } from "../lib/toggle.ts";
import { useToggle } from "../lib/use-toggle.ts";
import { CsrfField } from "./Form.tsx";
import { ToggleStatus } from "./ToggleStatus.tsx";

interface Likes {
  liked: boolean;
  likes: number;
}

const likesText = (likes: number) => (likes === 1 ? "1 like" : `${likes} likes`);

/**
 * Like on a comment or reply (docs/decisions/0092-comment-likes.md): pressed while the viewer
 * likes it, with the comment's count beside it. A press shows at once and is sent by
 * `POST /api/comment_like` (app/lib/use-toggle.ts); a visitor signs in first and, back on the
 * page, the comment is liked. Before hydration or without JavaScript, a member's button posts to
 * the page (app/lib/post-forms.server.ts) and a visitor's goes to sign in, as the comment boxes do.
 */
export function CommentLikeButton({
  commentId,
  author,
  likes,
  liked,
  viewerId,
  csrfToken,
}: {
  commentId: number;
  /** The comment's author, for the button's name to screen readers. */
  author: string;
  likes: number;
  liked: boolean;
  viewerId: number | null;
  csrfToken?: string | null;
}) {
  const location = useLocation();
  const answer = postedFor(useActionData<FormOutcome>(), {
    intent: "comment_like",
    comment_id: String(commentId),
  });
  const toggle = useToggle<Likes, "commentLike">({
    value: { liked, likes },
    send: (next) =>
      toggleCall("/comment_like", { comment_id: commentId, liked: next.liked }, (sent) => ({
        liked: sent.liked,
        likes: sent.likes,
      })),
    same: (a, b) => a.liked === b.liked,
    signedIn: viewerId !== null,
    kind: "commentLike",
    remember: () => ({ kind: "commentLike", commentId }),
    recall: (action, current) =>
      action.commentId !== commentId
        ? undefined
        : { liked: true, likes: current.likes + (current.liked ? 0 : 1) },
  });
  const { value } = toggle;
  const message =
    toggle.message ?? (answer ? { text: answer.message ?? "", error: !answer.ok } : null);
  const member = viewerId !== null;
  return (
    <Form
      className="comment-like"
      method={member ? "post" : "get"}
      action={member ? undefined : "/login"}
      onSubmit={(event) => {
        event.preventDefault();
        toggle.press({ liked: !value.liked, likes: value.likes + (value.liked ? -1 : 1) });
      }}
    >
      {member ? (
        <>
          <CsrfField token={csrfToken} />
          <input type="hidden" name={FORM_INTENT_FIELD} value="comment_like" />
          <input type="hidden" name="comment_id" value={commentId} />
          <input type="hidden" name="liked" value={value.liked ? "0" : "1"} />
        </>
      ) : (
        <input type="hidden" name="next" value={location.pathname + location.search} />
      )}
      <button
        type="submit"
        className="btn-link comment-like-button"
        aria-pressed={value.liked}
        aria-busy={toggle.busy || undefined}
      >
        <FiThumbsUp aria-hidden="true" focusable="false" />
        Like<span className="visually-hidden">{` the comment by ${author}`}</span>
      </button>
      <CommentLikeCount likes={value.likes} />
      <ToggleStatus className="comment-like-status" message={message?.text ? message : null} />
    </Form>
  );
}

/**
 * The count beside the button, and alone on one's own comment (nobody likes their own, record
 * 0092); nothing while there is none.
 */
export function CommentLikeCount({ likes }: { likes: number }) {
  return likes > 0 ? <span className="comment-like-count">{likesText(likes)}</span> : null;
}
