import { HELD_FOR_REVIEW } from "../../moderation/holding.ts";
import { postPath } from "../paths.ts";
/** The Submit Deals calls' answers in the spec's field names (section 7). */

export interface Choice {
  id: number;
  title: string;
}

export interface SubmitOptions {
  forumCategoryDeal: Choice[];
  forumCategoryDiscussion: Choice[];
  stores: Choice[];
  categories: Choice[];
}

const choice = (row: Choice): Choice => ({ id: row.id, title: row.title });

export function toSubmitOptions(rows: {
  forumCategories: (Choice & { kind: "deal" | "discussion" })[];
  stores: Choice[];
  categories: Choice[];
}): SubmitOptions {
  return {
    forumCategoryDeal: rows.forumCategories.filter((c) => c.kind === "deal").map(choice),
    forumCategoryDiscussion: rows.forumCategories
      .filter((c) => c.kind === "discussion")
      .map(choice),
    stores: rows.stores.map(choice),
    categories: rows.categories.map(choice),
  };
}

/** `GET /api/submit_deal`. */
export function presentSubmitOptions(options: SubmitOptions) {
  return {
    status: "true",
    response: {
      forum_category_deal: options.forumCategoryDeal,
      store: options.stores,
      category: options.categories,
      forum_category_discussion: options.forumCategoryDiscussion,
    },
  };
}

export interface CreatedPost {
  unique_id: string;
  slug: string;
  title: string;
  post_type: "d" | "g";
  kind: "deal" | "coupon" | "discussion";
  /** "pending" when the post is held for review (core/moderation/holding.ts). */
  status: "active" | "pending" | "hidden" | "removed";
  /** Why a held post waits, as its author is told (core/moderation/holding.ts). */
  review_message?: string;
}

/**
 * `POST /api/save_deal` and `/api/save_discussion` on success: the spec's answer, and beside it,
 * for a post held for review, `review_message` for its author.
 */
export function presentCreatedPost(post: CreatedPost, message: string) {
  return {
    status: "true",
    message,
    ...(post.status === "pending"
      ? { review_message: post.review_message ?? HELD_FOR_REVIEW }
      : {}),
    response: {
      unique_id: post.unique_id,
      slug: post.slug,
      title: post.title,
      type: post.post_type,
      kind: post.kind,
      url: postPath(post),
    },
  };
}

/** The existing live deal a duplicate submission is pointed to (the 409 answer's `duplicate`). */
export function presentDuplicate(post: { unique_id: string; slug: string; title: string }) {
  return {
    unique_id: post.unique_id,
    slug: post.slug,
    title: post.title,
    url: postPath({ ...post, post_type: "d" }),
  };
}
