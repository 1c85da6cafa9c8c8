import { useEffect, useState } from "react";
import { useRevalidator } from "react-router";
import { DELAYS_MS } from "../../core/constants.ts";
import { FOLLOW, UN_FOLLOW } from "../../core/member/follows/schema.ts";
import { apiCall } from "../lib/api.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";

interface FollowButtonProps {
  userId: number;
  name: string;
  isFollow: boolean;
  /**
   * The signed-in user's id; null sends a click to /login, which comes back here and follows
   * (record 0035).
   */
  viewerId: number | null;
}

/**
 * FOLLOW / UN FOLLOW on another member's profile. After the call the page's data is loaded again,
 * so the button, the follower count and the carousel show the new state without a full reload.
 */
export function FollowButton({ userId, name, isFollow, viewerId }: FollowButtonProps) {
  const signInFirst = useSignInFirst();
  const revalidator = useRevalidator();
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), DELAYS_MS.feedback);
    return () => clearTimeout(timer);
  }, [message]);

  // Back from signing in after a FOLLOW: follow now, unless this account already does.
  usePendingAction(
    "follow",
    viewerId !== null,
    () => {
      if (isFollow) setMessage({ text: `You already follow ${name}.`, error: false });
      else void send(FOLLOW);
    },
    (action) => action.userId === userId,
  );

  async function toggle() {
    if (viewerId === null) {
      signInFirst({ kind: "follow", userId });
      return;
    }
    await send(isFollow ? UN_FOLLOW : FOLLOW);
  }

  async function send(status: typeof FOLLOW | typeof UN_FOLLOW) {
    setPending(true);
    setMessage(null);
    const result = await apiCall("/profile_follow", {
      loggedin_user_id: viewerId,
      user_id: userId,
      status,
    });
    if (result.ok) await revalidator.revalidate();
    setMessage({
      text: result.data.message || "Sorry, that did not work. Please try again.",
      error: !result.ok,
    });
    setPending(false);
  }

  const busy = pending || revalidator.state === "loading";
  return (
    <div className="follow-action">
      <button
        type="button"
        className={isFollow ? "btn btn-outline" : "btn btn-accent"}
        onClick={toggle}
        disabled={busy}
      >
        {busy ? (
          "Loading…"
        ) : (
          <>
            {isFollow ? UN_FOLLOW : FOLLOW.toUpperCase()}
            <span className="visually-hidden"> {name}</span>
          </>
        )}
      </button>
      <p className="follow-status" aria-live="polite">
        {message && (
          <span className={message.error ? "field-error" : "follow-done"}>{message.text}</span>
        )}
      </p>
    </div>
  );
}
