import type { ColdReason } from "../../core/posts/reactions/cold-reasons.ts";
import { temperatureAfterVote, type WeighedVote } from "../../core/posts/temperature.ts";
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
  /**
   * Why the viewer's cold vote, when it was given here (record 0086): a cold vote with a reason
   * weighs a whole vote, one without half. Unknown (undefined) for a vote the page loaded.
   */
  reason?: ColdReason | null;
  /**
   * The weight the viewer's reaction was cast with (record 0090): taking it back or changing it
   * takes that many votes off the temperature. Unknown (undefined) counts as 1, as on the cards.
   */
  weight?: number;
  temperature: number;
  likes?: number;
  unlikes?: number;
}

/** Two votes are the same toggle state when the viewer's reaction is. */
export const sameReaction = (a: Vote, b: Vote) => a.reaction === b.reaction;

/** How a vote weighs in the temperature: an unlike with a reason counts whole (record 0086). */
const weighed = (reaction: Reaction | null, reason: ColdReason | null | undefined): WeighedVote =>
  reaction === "unlike" && reason ? "reasoned-unlike" : reaction;

/**
 * The vote after one press of `btnType`, shown before the server answers: pressing one's own
 * reaction takes it back, the other switches. `reason` goes with a cold vote the deal page asked
 * the reason of; `weight` is what a vote of the viewer weighs now (the deal page knows it; record
 * 0090), which the server gives a vote it casts or changes.
 */
export function votePressed<V extends Vote>(
  before: V,
  btnType: Reaction,
  reason?: ColdReason,
  weight = 1,
): V {
  const reaction = before.reaction === btnType ? null : btnType;
  const nextReason = reaction === "unlike" ? (reason ?? null) : null;
  const moved = (which: Reaction, count = 0) =>
    Math.max(0, count + (reaction === which ? 1 : 0) - (before.reaction === which ? 1 : 0));
  return {
    ...before,
    reaction,
    reason: nextReason,
    weight: reaction ? weight : 0,
    likes: moved("like", before.likes),
    unlikes: moved("unlike", before.unlikes),
    temperature: temperatureAfterVote(
      before.temperature,
      weighed(before.reaction, before.reason),
      weighed(reaction, nextReason),
      before.weight ?? 1,
      weight,
    ),
  };
}

/**
 * Asks the server for `next` (`POST /api/product_like_unlike`), which answers the post's state
 * after it, or why it did not count. The call presses one button: `next`'s reaction, or to take
 * one back, the reaction held now, and a cold vote's reason beside the spec's fields. The voter's
 * id goes in the spec's `user_id`, which the server ignores: the session says who votes.
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
      ...(next.reaction === "unlike" && next.reason ? { reason: next.reason } : {}),
    },
    // The answer is the post's vote (temperature, likes, unlikes) with its is_liked.
    (answer): Vote => ({
      ...answer,
      reaction: reactionFromIsLiked(answer.is_liked),
      reason: answer.is_liked === 2 ? next.reason : null,
      // The server casts the vote asked for with the weight the page pressed it with.
      weight: reactionFromIsLiked(answer.is_liked) === next.reaction ? next.weight : undefined,
    }),
  );
