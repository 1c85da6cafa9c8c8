import { toggleCall } from "../lib/toggle.ts";
import { useToggle } from "../lib/use-toggle.ts";
import { ToggleStatus } from "./ToggleStatus.tsx";

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
  following,
  viewerId,
  onChange,
}: ScopeFollowButtonProps) {
  const follow = useToggle({
    value: following,
    send: () => toggleCall("/follow_toggle", { type, id }, (answer) => answer.following),
    onChange,
    signedIn: viewerId !== null,
    kind: "followScope",
    remember: () => ({ kind: "followScope", scope: type, id }),
    recall: (action) => (action.scope === type && action.id === id ? true : undefined),
  });
  return (
    <div className="scope-follow">
      <button
        type="button"
        className={`btn ${follow.value ? "btn-outline" : "btn-accent"} scope-follow-button`}
        aria-pressed={follow.value}
        aria-busy={follow.busy || undefined}
        onClick={() => follow.press(!follow.value)}
      >
        {follow.value ? "Following" : "Follow"}
        <span className="visually-hidden"> {title}</span>
      </button>
      <ToggleStatus className="scope-follow-status" message={follow.message} />
    </div>
  );
}
