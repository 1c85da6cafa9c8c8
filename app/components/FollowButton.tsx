import { useRevalidator } from "react-router";
import { FOLLOW, UN_FOLLOW } from "../../core/member/follows/schema.ts";
import { toggleCall } from "../lib/toggle.ts";
import { useToggle } from "../lib/use-toggle.ts";
import { ToggleStatus } from "./ToggleStatus.tsx";

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
 * so the follower count and the carousel show the new state without a full reload.
 */
export function FollowButton({ userId, name, isFollow, viewerId }: FollowButtonProps) {
  const revalidator = useRevalidator();
  const follow = useToggle({
    value: isFollow,
    // The call sets the state asked for (it is no flip): agreed, it holds.
    send: (next) =>
      toggleCall(
        "/profile_follow",
        { loggedin_user_id: viewerId, user_id: userId, status: next ? FOLLOW : UN_FOLLOW },
        () => next,
      ),
    onChange: () => void revalidator.revalidate(),
    signedIn: viewerId !== null,
    kind: "follow",
    remember: () => ({ kind: "follow", userId }),
    recall: (action) => (action.userId === userId ? true : undefined),
  });
  return (
    <div className="follow-action">
      <button
        type="button"
        className={follow.value ? "btn btn-outline" : "btn btn-accent"}
        aria-busy={follow.busy || undefined}
        onClick={() => follow.press(!follow.value)}
      >
        {follow.value ? UN_FOLLOW : FOLLOW.toUpperCase()}
        <span className="visually-hidden"> {name}</span>
      </button>
      <ToggleStatus className="follow-status" message={follow.message} />
    </div>
  );
}
