import { temperatureAfterVote } from "../../core/posts/temperature.ts";
import { toggleCall } from "./toggle.ts";

/** A member's reaction to a post: thumbs up or thumbs down (docs/decisions/0009). */
export type Reaction = "like" | "unlike";

/** is_liked of the spec (1 liked, 2 unliked, anything else neither) as a reaction. */
export function reactionFromIsLiked(isLiked: number | undefined): Reaction | null {
  return isLiked === 1 ? "like" : isLiked === 2 ? "unlike" : null;
}

/**
 * A post's vote as its buttons show it: the viewer's reaction, the temperature, and on the deal
 * page the likes and unlikes (a card shows no counts).
 */
export interface Vote {
  reaction: Reaction | null;
  temperature: number;
  likes?: number;
  unlikes?: number;
}

/** Two votes are the same toggle state when the viewer's reaction is. */
export const sameReaction = (a: Vote, b: Vote) => a.reaction === b.reaction;

/**
 * The vote after one press of `btnType`, shown before the server answers: pressing one's own
 * reaction takes it back, the other switches.
 */
export function votePressed<V extends Vote>(before: V, btnType: Reaction): V {
  const reaction = before.reaction === btnType ? null : btnType;
  const moved = (which: Reaction, count = 0) =>
    Math.max(0, count + (reaction === which ? 1 : 0) - (before.reaction === which ? 1 : 0));
  return {
    ...before,
    reaction,
    likes: moved("like", before.likes),
    unlikes: moved("unlike", before.unlikes),
    temperature: temperatureAfterVote(before.temperature, before.reaction, reaction),
  };
}

/**
 * Asks the server for `next` (`POST /api/product_like_unlike`), which answers the post's state
 * after it, or why it did not count. The call presses one button: `next`'s reaction, or to take
 * one back, the reaction held now. The voter's id goes in the spec's `user_id`, which the server
 * ignores: the session says who votes.
 */
export const sendVote = (
  voterId: number | null,
  post: { id: number; post_type: "d" | "g" },
  next: Vote,
  current: Vote,
) =>
  toggleCall(
    "/product_like_unlike",
    {
      user_id: voterId,
      post_id: post.id,
      post_type: post.post_type,
      btn_type: next.reaction ?? current.reaction,
    },
    // The answer is the post's vote (temperature, likes, unlikes) with its is_liked.
    (answer): Vote => ({ ...answer, reaction: reactionFromIsLiked(answer.is_liked) }),
  );
