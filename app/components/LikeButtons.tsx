import { Suspense, useRef, useState } from "react";
import { FiThumbsDown, FiThumbsUp } from "react-icons/fi";
import { useRevalidator } from "react-router";
import type { IsLiked } from "../../core/posts/presenter.ts";
import { useToggle } from "../lib/use-toggle.ts";
import {
  reactionFromIsLiked,
  sameReaction,
  sendVote,
  votePressed,
  type Reaction,
  type Vote,
} from "../lib/vote.ts";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";
import { TemperatureBadge } from "./Temperature.tsx";
import { ToggleStatus } from "./ToggleStatus.tsx";

/** The reasons dialog (record 0086): a chunk fetched on the first cold press of the page. */
const ColdReasonDialog = lazyChunk("cold-reasons", () => import("./ColdReasonDialog.tsx"));

interface LikeButtonsProps {
  postId: number;
  postType: "d" | "g";
  /** 1 liked, 2 unliked (thumbs down), -1 neither. */
  isLiked: IsLiked;
  likes: number;
  unlikes: number;
  /** The post's temperature (core/posts/temperature.ts), as its cards show it. */
  temperature: number;
  /**
   * How the viewer's vote weighs (record 0090): the weight of the vote isLiked shows, and what a
   * vote of theirs weighs now. A visitor's count as 1.
   */
  isLikedWeight?: number;
  voteWeight?: number;
  /** The signed-in user's id; null sends a click to /login, and the vote is done on return. */
  viewerId: number | null;
  /** A cold vote asks why first (a deal: record 0086); otherwise Unlike votes at once. */
  askColdReason?: boolean;
}

/**
 * The temperature, thumbs up and thumbs down, pressed in the state of is_liked. A vote shows at
 * once and is rolled back, with a message, if the server refuses it (app/lib/use-toggle.ts); the
 * page's data is then reloaded quietly (the spec reloads after a like). On a deal, Unlike first
 * asks for the reason from the short list (ColdReasonDialog, record 0086); taking a cold vote back
 * asks nothing. The buttons need JavaScript, as they did before: they are not a form.
 */
export function LikeButtons({
  postId,
  postType,
  isLiked,
  likes,
  unlikes,
  temperature,
  isLikedWeight = 1,
  voteWeight = 1,
  viewerId,
  askColdReason = false,
}: LikeButtonsProps) {
  const revalidator = useRevalidator();
  const [askingReason, setAskingReason] = useState(false);
  // Rendered from the first ask on, so that closing it runs its effects (focus goes back).
  const [reasonAsked, setReasonAsked] = useState(false);
  const coldButton = useRef<HTMLButtonElement>(null);
  const vote = useToggle<Vote, "vote">({
    value: {
      reaction: reactionFromIsLiked(isLiked),
      weight: isLikedWeight,
      likes,
      unlikes,
      temperature,
    },
    same: sameReaction,
    send: (next, current) => sendVote(viewerId, { id: postId, post_type: postType }, next, current),
    onChange: () => void revalidator.revalidate(),
    signedIn: viewerId !== null,
    kind: "vote",
    // A visitor has no reaction: a press asks for one.
    remember: (next) => ({
      kind: "vote",
      postId,
      postType,
      btnType: next.reaction!,
      ...(next.reason ? { reason: next.reason } : {}),
    }),
    // Back from signing in: the vote the visitor tried, with its reason, unless they had already
    // voted so (its counts and temperature come with the answer).
    recall: (action, current) =>
      action.postId === postId
        ? {
            ...current,
            reaction: action.btnType,
            reason: action.reason ?? null,
            weight: voteWeight,
          }
        : undefined,
  });
  const press = (btnType: Reaction) =>
    vote.press(votePressed(vote.value, btnType, undefined, voteWeight));
  const pressCold = () => {
    if (askColdReason && vote.value.reaction !== "unlike") {
      setReasonAsked(true);
      setAskingReason(true);
    } else press("unlike");
  };

  return (
    <div className="like-buttons">
      <div role="group" aria-label="Rate this post">
        <TemperatureBadge degrees={vote.value.temperature} />
        <button
          type="button"
          className="like-button"
          aria-pressed={vote.value.reaction === "like"}
          onClick={() => press("like")}
        >
          <FiThumbsUp aria-hidden="true" />
          <span>Like</span>
          <span className="like-count">{vote.value.likes}</span>
        </button>
        <button
          ref={coldButton}
          type="button"
          className="like-button unlike"
          aria-pressed={vote.value.reaction === "unlike"}
          aria-haspopup={askColdReason && vote.value.reaction !== "unlike" ? "dialog" : undefined}
          onClick={pressCold}
        >
          <FiThumbsDown aria-hidden="true" />
          <span>Unlike</span>
          <span className="like-count">{vote.value.unlikes}</span>
        </button>
      </div>
      <ToggleStatus className="like-status" message={vote.message} />
      {reasonAsked && (
        <ChunkBoundary
          fallback={
            <p className="like-status" role="alert">
              Sorry, that did not work. Please try again.
            </p>
          }
        >
          <Suspense fallback={null}>
            <ColdReasonDialog
              open={askingReason}
              returnFocusTo={coldButton}
              onCancel={() => setAskingReason(false)}
              onChoose={(reason) => {
                setAskingReason(false);
                vote.press(votePressed(vote.value, "unlike", reason, voteWeight));
              }}
            />
          </Suspense>
        </ChunkBoundary>
      )}
    </div>
  );
}
