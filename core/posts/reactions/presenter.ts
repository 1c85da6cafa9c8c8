import { isLikedOf } from "../presenter.ts";
import { heatOf } from "../temperature.ts";
import type { Reaction } from "./schema.ts";

const MESSAGES: Record<Reaction | "none", string> = {
  like: "You liked this post.",
  unlike: "You unliked this post.",
  none: "Your reaction has been removed.",
};

/** `POST /api/product_like_unlike`; is_liked as the detail page reads it (1, 2 or -1). */
export function presentReaction(result: {
  reaction: Reaction | null;
  likes: number;
  unlikes: number;
  temperature: number;
}) {
  return {
    status: "true" as const,
    message: MESSAGES[result.reaction ?? "none"],
    is_liked: isLikedOf(result.reaction),
    likes: result.likes,
    unlikes: result.unlikes,
    // Beside the spec's fields: the post's temperature after the vote (core/posts/temperature.ts).
    temperature: result.temperature,
    heat: heatOf(result.temperature),
  };
}

/** `POST /api/my_reactions`: is_liked per post the member reacted to (1 like, 2 unlike). */
export function presentMyReactions(
  rows: { post_id: number; reaction: Reaction }[],
  /** Which of the posts asked about the member has saved (the cards' Save buttons, record 0043). */
  saved: number[] = [],
) {
  return {
    status: "true" as const,
    reactions: rows.map((row) => ({ post_id: row.post_id, is_liked: isLikedOf(row.reaction) })),
    saved,
  };
}
