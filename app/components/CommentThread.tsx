import { EducatorBadge } from "./EducatorBadge.tsx";
import { useState } from "react";
import { Link } from "react-router";
import type { PresentedComment } from "../../core/posts/presenter.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";
import { timeAgo } from "../lib/time-ago.ts";
import { Avatar } from "./Avatar.tsx";
import { CommentForm } from "./CommentForm.tsx";
import { CommentLikeButton, CommentLikeCount } from "./CommentLikeButton.tsx";
import { ReportButton } from "./ReportButton.tsx";

interface ThreadContext {
  postId: number;
  postType: "d" | "g";
  viewerId: number | null;
  /** The signed-in user's XSRF token, for the forms posted to the page; null for a visitor. */
  csrfToken?: string | null;
  /** The server's clock when the page was loaded, so labels match between server and browser. */
  now: Date;
  /** The post is public: comments may be answered and reported (false on a hidden or held post). */
  open?: boolean;
}

/** Replies deeper than this are drawn at this indentation, so narrow screens keep their width. */
const MAX_INDENT = 3;

function CommentItem({
  comment,
  depth,
  context,
}: {
  comment: PresentedComment;
  depth: number;
  context: ThreadContext;
}) {
  const signInFirst = useSignInFirst();
  const [replying, setReplying] = useState(false);
  /** A reply typed before signing in, posted by the reply box it opens (record 0035). */
  const [resume, setResume] = useState<string | undefined>(undefined);
  const created = new Date(comment.created_at);

  // Back from signing in after Reply: this comment's reply box opens again.
  usePendingAction(
    "comment",
    context.viewerId !== null,
    (action) => {
      setResume(action.text);
      setReplying(true);
    },
    (action) =>
      action.parentId === comment.id &&
      action.postId === context.postId &&
      action.postType === context.postType,
  );

  function openReply() {
    if (context.viewerId === null) {
      signInFirst({
        kind: "comment",
        postId: context.postId,
        postType: context.postType,
        parentId: comment.id,
        text: "",
      });
    } else setReplying(true);
  }

  // Hidden or removed, seen only by its author and moderators: shown with its state, no actions.
  const live = !comment.is_deleted && !comment.moderation && context.open !== false;
  return (
    <li className="comment" id={`comment-${comment.id}`} data-depth={Math.min(depth, MAX_INDENT)}>
      <article
        aria-label={comment.is_deleted ? "Deleted comment" : `Comment by ${comment.user_name}`}
      >
        {comment.moderation && (
          <p className="moderation-banner" role="note">
            <strong>{comment.moderation.label}.</strong> Only its author and the moderators can see
            this comment.
          </p>
        )}
        <header className="comment-header">
          <Avatar name={comment.user_name} image={comment.user_image} size={36} />
          <span className="comment-author">
            {comment.user_id ? (
              <>
                <Link to={`/profile/${comment.user_id}`}>{comment.user_name}</Link>
                <EducatorBadge verified={comment.user_verified_educator} />
                {/* As the deal's byline: plain markup, no extra script (record 0088). */}
                {comment.user_level && (
                  <span className="level-tag">
                    <span className="visually-hidden">Level: </span>
                    {comment.user_level}
                  </span>
                )}
              </>
            ) : (
              comment.user_name
            )}
          </span>
          <time dateTime={comment.created_at} title={created.toUTCString()}>
            {timeAgo(created, context.now)}
          </time>
        </header>
        <div
          className={comment.is_deleted ? "comment-body deleted" : "comment-body"}
          dangerouslySetInnerHTML={{ __html: comment.message }}
        />
        {live && !replying && (
          <div className="comment-actions">
            {comment.user_id !== null && comment.user_id === context.viewerId ? (
              <CommentLikeCount likes={comment.likes_count} />
            ) : (
              <CommentLikeButton
                commentId={comment.id}
                author={comment.user_name}
                likes={comment.likes_count}
                liked={comment.liked ?? false}
                viewerId={context.viewerId}
                csrfToken={context.csrfToken}
              />
            )}
            <button type="button" className="btn-link comment-reply" onClick={openReply}>
              Reply
            </button>
            {(context.viewerId === null || comment.user_id !== context.viewerId) && (
              <ReportButton
                itemType="comment"
                itemId={comment.id}
                what="this comment"
                viewerId={context.viewerId}
                csrfToken={context.csrfToken}
              />
            )}
          </div>
        )}
        {replying && context.viewerId !== null && (
          <CommentForm
            postId={context.postId}
            postType={context.postType}
            viewerId={context.viewerId}
            csrfToken={context.csrfToken}
            parentId={comment.id}
            label={`Reply to ${comment.user_name}`}
            submitLabel="POST REPLY"
            onCancel={() => setReplying(false)}
            onPosted={() => setReplying(false)}
            resume={resume}
            autoFocus
          />
        )}
      </article>
      {comment.comments_replies.length > 0 && (
        <ol className="comment-list replies">
          {comment.comments_replies.map((reply) => (
            <CommentItem key={reply.id} comment={reply} depth={depth + 1} context={context} />
          ))}
        </ol>
      )}
    </li>
  );
}

/** Threaded comments with time-ago labels, and Like and a Reply box under each comment. */
export function CommentThread({
  comments,
  ...context
}: ThreadContext & { comments: PresentedComment[] }) {
  if (comments.length === 0)
    return <p className="comments-empty">No comments yet. Be the first to comment.</p>;
  return (
    <ol className="comment-list">
      {comments.map((comment) => (
        <CommentItem key={comment.id} comment={comment} depth={0} context={context} />
      ))}
    </ol>
  );
}
