import { isLikedOf } from "../posts/presenter.ts";
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
}) {
  return {
    status: "true" as const,
    message: MESSAGES[result.reaction ?? "none"],
    is_liked: isLikedOf(result.reaction),
    likes: result.likes,
    unlikes: result.unlikes,
  };
}
