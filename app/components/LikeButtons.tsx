import { useEffect, useRef, useState } from "react";
import { FiThumbsDown, FiThumbsUp } from "react-icons/fi";
import { useRevalidator } from "react-router";
import type { IsLiked } from "../../core/posts/presenter.ts";
import { temperatureAfterVote } from "../../core/posts/temperature.ts";
import { usePendingAction, useSignInFirst } from "../lib/pending-action.ts";
import { reactionFromIsLiked, sendVote, type Reaction } from "../lib/vote.ts";
import { TemperatureBadge } from "./Temperature.tsx";

interface LikeButtonsProps {
  postId: number;
  postType: "d" | "g";
  /** 1 liked, 2 unliked (thumbs down), -1 neither. */
  isLiked: IsLiked;
  likes: number;
  unlikes: number;
  /** The post's temperature (core/posts/temperature.ts), as its cards show it. */
  temperature: number;
  /** The signed-in user's id; null sends a click to /login, and the vote is done on return. */
  viewerId: number | null;
}

interface Shown {
  reaction: Reaction | null;
  likes: number;
  unlikes: number;
  temperature: number;
}

/**
 * The temperature, thumbs up and thumbs down, pressed in the state of is_liked. A vote shows at
 * once and is rolled back, with a message, if the server refuses it; the page's data is then
 * reloaded quietly (the spec reloads after a like).
 */
export function LikeButtons({
  postId,
  postType,
  isLiked,
  likes,
  unlikes,
  temperature,
  viewerId,
}: LikeButtonsProps) {
  const revalidator = useRevalidator();
  const signInFirst = useSignInFirst();
  const fromProps: Shown = { reaction: reactionFromIsLiked(isLiked), likes, unlikes, temperature };
  const [local, setLocal] = useState<Shown | null>(null);
  const [error, setError] = useState("");
  const inFlight = useRef(false);
  // A tap while the previous vote is on its way: shown at once, sent when that one is answered.
  const queued = useRef<Reaction | null>(null);
  const shown = local ?? fromProps;

  // Fresh data from the loader replaces what the buttons showed meanwhile.
  useEffect(() => {
    if (!inFlight.current) setLocal(null);
  }, [isLiked, likes, unlikes, temperature]);

  async function submit(btnType: Reaction, before: Shown) {
    const next = before.reaction === btnType ? null : btnType;
    const count = (reaction: Reaction) =>
      (next === reaction ? 1 : 0) - (before.reaction === reaction ? 1 : 0);
    setLocal({
      reaction: next,
      likes: Math.max(0, before.likes + count("like")),
      unlikes: Math.max(0, before.unlikes + count("unlike")),
      temperature: temperatureAfterVote(before.temperature, before.reaction, next),
    });
    if (inFlight.current) {
      queued.current = btnType;
      return;
    }
    inFlight.current = true;
    setError("");
    const post = { id: postId, post_type: postType };
    let answer = await sendVote(viewerId, post, btnType);
    while (answer.ok && queued.current) {
      const later = queued.current;
      queued.current = null;
      answer = await sendVote(viewerId, post, later);
    }
    queued.current = null;
    inFlight.current = false;
    if (answer.ok) {
      setLocal({
        reaction: answer.reaction,
        likes: answer.likes ?? before.likes,
        unlikes: answer.unlikes ?? before.unlikes,
        temperature: answer.temperature,
      });
      void revalidator.revalidate();
    } else {
      setLocal(before);
      setError(answer.message);
    }
  }

  function react(btnType: Reaction) {
    if (viewerId === null) {
      signInFirst({ kind: "vote", postId, postType, btnType });
      return;
    }
    void submit(btnType, shown);
  }

  // Back from signing in: the vote the visitor tried, unless they had already voted so.
  usePendingAction(
    "vote",
    viewerId !== null,
    (action) => {
      if (fromProps.reaction !== action.btnType) void submit(action.btnType, fromProps);
    },
    (action) => action.postId === postId,
  );

  return (
    <div className="like-buttons">
      <div role="group" aria-label="Rate this post">
        <TemperatureBadge degrees={shown.temperature} />
        <button
          type="button"
          className="like-button"
          aria-pressed={shown.reaction === "like"}
          onClick={() => react("like")}
        >
          <FiThumbsUp aria-hidden="true" />
          <span>Like</span>
          <span className="like-count">{shown.likes}</span>
        </button>
        <button
          type="button"
          className="like-button unlike"
          aria-pressed={shown.reaction === "unlike"}
          onClick={() => react("unlike")}
        >
          <FiThumbsDown aria-hidden="true" />
          <span>Unlike</span>
          <span className="like-count">{shown.unlikes}</span>
        </button>
      </div>
      <p className="like-status" aria-live="polite">
        {error ? <span className="field-error">{error}</span> : null}
      </p>
    </div>
  );
}
