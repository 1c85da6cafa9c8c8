import { useState } from "react";
import { FiThumbsDown, FiThumbsUp } from "react-icons/fi";
import { useNavigate, useRevalidator } from "react-router";
import type { IsLiked } from "../../core/posts/presenter.ts";
import { apiCall } from "../lib/api.ts";

interface LikeButtonsProps {
  postId: number;
  postType: "d" | "g";
  /** 1 liked, 2 unliked (thumbs down), -1 neither. */
  isLiked: IsLiked;
  likes: number;
  unlikes: number;
  /** The signed-in user's id; null sends a click to /login. */
  viewerId: number | null;
}

/** Thumbs up and thumbs down, pressed in the state of is_liked. */
export function LikeButtons({
  postId,
  postType,
  isLiked,
  likes,
  unlikes,
  viewerId,
}: LikeButtonsProps) {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState<"like" | "unlike" | null>(null);
  const [error, setError] = useState("");
  const busy = pending !== null || revalidator.state === "loading";

  async function react(btnType: "like" | "unlike") {
    if (viewerId === null) {
      navigate("/login");
      return;
    }
    setPending(btnType);
    setError("");
    const result = await apiCall<{ status?: unknown; message?: string }>("/product_like_unlike", {
      user_id: viewerId,
      post_id: postId,
      post_type: postType,
      btn_type: btnType,
    });
    if (result.ok) await revalidator.revalidate();
    else setError(result.data.message || "Sorry, that did not work. Please try again.");
    setPending(null);
  }

  return (
    <div className="like-buttons">
      <div role="group" aria-label="Rate this post">
        <button
          type="button"
          className="like-button"
          aria-pressed={isLiked === 1}
          disabled={busy}
          onClick={() => react("like")}
        >
          <FiThumbsUp aria-hidden="true" />
          <span>Like</span>
          <span className="like-count">{likes}</span>
        </button>
        <button
          type="button"
          className="like-button unlike"
          aria-pressed={isLiked === 2}
          disabled={busy}
          onClick={() => react("unlike")}
        >
          <FiThumbsDown aria-hidden="true" />
          <span>Unlike</span>
          <span className="like-count">{unlikes}</span>
        </button>
      </div>
      <p className="like-status" aria-live="polite">
        {pending ? "Loading…" : error ? <span className="field-error">{error}</span> : null}
      </p>
    </div>
  );
}
