import { apiCall } from "./api.ts";

/** A member's reaction to a post: thumbs up or thumbs down (docs/decisions/0009). */
export type Reaction = "like" | "unlike";

/** is_liked of the spec (1 liked, 2 unliked, anything else neither) as a reaction. */
export function reactionFromIsLiked(isLiked: number | undefined): Reaction | null {
  return isLiked === 1 ? "like" : isLiked === 2 ? "unlike" : null;
}

export type VoteAnswer =
  | { ok: true; reaction: Reaction | null; temperature: number; likes?: number; unlikes?: number }
  | { ok: false; message: string };

/**
 * Sends one press of a vote button (`POST /api/product_like_unlike`): pressing one's own reaction
 * takes it back, the other switches. The answer is the post's state after it, or why it did not
 * count — what a card and the deal page show when they roll a vote back. The voter's id goes in
 * the spec's `user_id`, which the server ignores: the session says who votes.
 */
export async function sendVote(
  voterId: number | null,
  post: { id: number; post_type: "d" | "g" },
  btnType: Reaction,
): Promise<VoteAnswer> {
  const result = await apiCall("/product_like_unlike", {
    user_id: voterId,
    post_id: post.id,
    post_type: post.post_type,
    btn_type: btnType,
  });
  if (result.ok && typeof result.data.temperature === "number") {
    return {
      ok: true,
      reaction: reactionFromIsLiked(result.data.is_liked),
      temperature: result.data.temperature,
      likes: result.data.likes,
      unlikes: result.data.unlikes,
    };
  }
  return {
    ok: false,
    message:
      result.status === 401
        ? "Please sign in again to vote."
        : result.data.message || "Your vote did not count. Please try again.",
  };
}
