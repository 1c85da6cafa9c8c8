import { useEffect, useState } from "react";
import { DELAYS_MS } from "../../core/constants.ts";
import { apiCall } from "../lib/api.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";

interface ScopeFollowButtonProps {
  type: "store" | "category";
  id: number;
  title: string;
  /** Whether the viewer follows it now (from the page's loader). */
  following: boolean;
  /** The signed-in user's id; null sends a click to /login, which comes back and follows. */
  viewerId: number | null;
  /** Called with the new state after the server agreed. */
  onChange?: (following: boolean) => void;
}

/**
 * Follow / Following on a store or category page and in My Feed's suggestions (record 0043): one
 * `POST /api/follow_toggle`. A visitor is sent to sign in and, back on the page, follows.
 */
export function ScopeFollowButton({
  type,
  id,
  title,
  following: initial,
  viewerId,
  onChange,
}: ScopeFollowButtonProps) {
  const signInFirst = useSignInFirst();
  const [following, setFollowing] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  useEffect(() => setFollowing(initial), [initial, type, id]);
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setMessage(null), DELAYS_MS.feedback);
    return () => clearTimeout(timer);
  }, [message]);

  usePendingAction(
    "followScope",
    viewerId !== null,
    () => {
      if (following) setMessage({ text: `You already follow ${title}.`, error: false });
      else void send();
    },
    (action) => action.scope === type && action.id === id,
  );

  async function send() {
    setBusy(true);
    setMessage(null);
    const result = await apiCall("/follow_toggle", {
      type,
      id,
    });
    if (result.ok && typeof result.data.following === "boolean") {
      setFollowing(result.data.following);
      onChange?.(result.data.following);
    }
    setMessage({
      text: result.data.message || "Sorry, that did not work. Please try again.",
      error: !result.ok,
    });
    setBusy(false);
  }

  function toggle() {
    if (viewerId === null) {
      signInFirst({ kind: "followScope", scope: type, id });
      return;
    }
    void send();
  }

  return (
    <div className="scope-follow">
      <button
        type="button"
        className={
          following ? "btn btn-outline scope-follow-button" : "btn btn-accent scope-follow-button"
        }
        aria-pressed={following}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={toggle}
      >
        {busy ? "Working…" : following ? "Following" : "Follow"}
        <span className="visually-hidden"> {title}</span>
      </button>
      <p className="scope-follow-status" aria-live="polite">
        {message && (
          <span className={message.error ? "field-error" : "follow-done"}>{message.text}</span>
        )}
      </p>
    </div>
  );
}
