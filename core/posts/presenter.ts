import type { CurrentUser } from "../auth/sessions.ts";
import { sanitizeCommentHtml, sanitizeRichHtml } from "../content/sanitize.ts";
import { canSeeUnpublished, moderationState, type ModerationState } from "../moderation/policy.ts";
import { presentDealCard, type DealCard } from "../cards/presenter.ts";
import { presentLinkFields } from "./links/presenter.ts";
import type { Freshness } from "./freshness/presenter.ts";
import type { PriceHistory } from "./prices/presenter.ts";
import { postPath } from "./paths.ts";
import type { CommentRow, PostDetailRow } from "./repository.ts";
import { siteImage } from "../media/media-path.ts";

/**
 * The viewer's reaction as the spec's is_liked: 1 thumbs up, 2 thumbs down, -1 neither (or a
 * visitor). See docs/decisions/0009-likes-and-rating.md.
 */
export const IS_LIKED = { liked: 1, unliked: 2, none: -1 } as const;
export type IsLiked = (typeof IS_LIKED)[keyof typeof IS_LIKED];

export function isLikedOf(reaction: "like" | "unlike" | null): IsLiked {
  if (reaction === "like") return IS_LIKED.liked;
  if (reaction === "unlike") return IS_LIKED.unliked;
  return IS_LIKED.none;
}

const FORMER_MEMBER = "Former member";

/** A byline's level: the job's, "Newcomer" before it has counted the author, "" with no author. */
function authorLevel(noAuthor: boolean, level: string | null | undefined): string {
  return noAuthor ? "" : (level ?? "Newcomer");
}

/**
 * How the viewer's vote weighs (record 0090): the weight their present vote was cast with (0 with
 * none) and what a vote of theirs weighs now, by their level (1 for a visitor).
 */
export interface ViewerVoteWeight {
  is_liked_weight: number;
  vote_weight: number;
}

const VISITOR_VOTE_WEIGHT: ViewerVoteWeight = { is_liked_weight: 0, vote_weight: 1 };

/** `product_details` of `POST /api/product_details`: the deal card's fields and the detail's own. */
export function presentProductDetails(
  row: PostDetailRow,
  reaction: IsLiked,
  now: Date,
  weight: ViewerVoteWeight = VISITOR_VOTE_WEIGHT,
) {
  const card = presentDealCard(row, now);
  const authorGone = row.user_deleted_at !== null;
  const userName = authorGone ? FORMER_MEMBER : card.user_name;
  const userImage = authorGone ? "" : card.user_image;
  return {
    ...card,
    user_id: authorGone ? null : card.user_id,
    user_name: userName,
    user_by: userName,
    user_image: userImage,
    user_verified_educator:
      !authorGone && row.user_id !== null && row.user_verified_educator === true,
    user_level: authorLevel(row.user_id === null || authorGone, row.user_level),
    post_id: row.id,
    post_type: row.post_type,
    // Sanitised when written; cleaned again here so that no stored HTML reaches a page unchecked.
    description: sanitizeRichHtml(row.description),
    description_text: row.description_text,
    is_liked: reaction,
    is_liked_weight: reaction === IS_LIKED.none ? 0 : weight.is_liked_weight,
    vote_weight: weight.vote_weight,
    likes: row.likes_count,
    unlikes: row.unlikes_count,
    comments_count: row.comments_count,
    store: row.store_id
      ? { id: row.store_id, title: card.store_title, slug: card.store_slug }
      : null,
    category: row.category_id
      ? { id: row.category_id, title: row.category_title ?? "", slug: row.category_slug ?? "" }
      : null,
    user: row.user_id && !authorGone ? { id: row.user_id, name: userName, image: userImage } : null,
    path: postPath(row),
    updated_at: row.updated_at.toISOString(),
    // Honest links (record 0039): go_url, is_affiliate, clean_link.
    ...presentLinkFields(row),
  };
}

export type ProductDetails = ReturnType<typeof presentProductDetails>;

export interface PresentedComment {
  id: number;
  user_id: number | null;
  user_name: string;
  user_image: string;
  /** The author is a verified educator: their comments carry the badge. */
  user_verified_educator: boolean;
  /** The author's reputation level (record 0088); "" when there is no author to show. */
  user_level: string;
  /** Sanitised HTML. */
  message: string;
  created_at: string;
  /** The parent comment's id, or "" for a top-level comment. */
  comment_id: number | "";
  product_id: number;
  product_type: "d" | "g";
  is_deleted: boolean;
  /** Likes on the comment (record 0092); 0 on a placeholder. */
  likes_count: number;
  /** Whether the viewer likes it: only where the viewer is known (a signed-in member's page). */
  liked?: boolean;
  comments_replies: PresentedComment[];
  /**
   * Only on a hidden or removed comment shown to its author or a moderator: the banner it carries.
   * Nobody else receives such a comment at all (or, when it has replies, only a placeholder).
   */
  moderation?: ModerationState;
}

const DELETED_MESSAGE = "<p>This comment was deleted.</p>";
/** What stands in for a comment out of the viewer's sight that still has replies. */
const WITHHELD_MESSAGE = {
  hidden: "<p>This comment is hidden pending review.</p>",
  removed: "<p>This comment was removed by a moderator.</p>",
} as const;

/**
 * The comments of a post as a tree of any depth, each level oldest first. A deleted comment with
 * replies stays as a placeholder so the replies keep their context; one without replies is left out.
 * A hidden or removed comment is treated the same way, except for its author and moderators
 * (`viewer`), who see it in place with its moderation banner.
 */
export function presentCommentTree(
  rows: (Omit<CommentRow, "status" | "user_verified_educator" | "user_level" | "likes_count"> & {
    status?: CommentRow["status"];
    user_verified_educator?: boolean | null;
    user_level?: string | null;
    likes_count?: number;
  })[],
  productType: "d" | "g",
  viewer: CurrentUser | null = null,
  /** The comments the viewer likes (core/posts/comments/likes/liked-comments.ts), when known. */
  liked?: ReadonlySet<number>,
): PresentedComment[] {
  const nodes = new Map<number, PresentedComment>();
  for (const row of rows) {
    const status = row.status ?? "active";
    const withheld =
      row.deleted_at === null && status !== "active" && !canSeeUnpublished(viewer, row.user_id);
    const deleted = row.deleted_at !== null || withheld;
    const authorGone = row.user_deleted_at !== null || row.user_id === null;
    const moderation = deleted ? null : moderationState(status);
    nodes.set(row.id, {
      id: row.id,
      user_id: deleted || authorGone ? null : row.user_id,
      user_name: deleted ? "" : authorGone ? FORMER_MEMBER : (row.user_name ?? ""),
      user_image: deleted || authorGone ? "" : siteImage(row.user_image),
      user_verified_educator: !deleted && !authorGone && row.user_verified_educator === true,
      user_level: authorLevel(deleted || authorGone, row.user_level),
      message: withheld
        ? WITHHELD_MESSAGE[status]
        : deleted
          ? DELETED_MESSAGE
          : sanitizeCommentHtml(row.body),
      created_at: row.created_at.toISOString(),
      comment_id: row.parent_id ?? "",
      product_id: row.post_id,
      product_type: productType,
      is_deleted: deleted,
      likes_count: deleted ? 0 : (row.likes_count ?? 0),
      ...(liked ? { liked: !deleted && liked.has(row.id) } : {}),
      comments_replies: [],
      ...(moderation ? { moderation } : {}),
    });
  }
  const roots: PresentedComment[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id === null ? undefined : nodes.get(row.parent_id);
    if (parent) parent.comments_replies.push(node);
    else roots.push(node);
  }
  return pruneDeletedLeaves(roots);
}

function pruneDeletedLeaves(comments: PresentedComment[]): PresentedComment[] {
  const kept: PresentedComment[] = [];
  for (const comment of comments) {
    comment.comments_replies = pruneDeletedLeaves(comment.comments_replies);
    if (comment.is_deleted && comment.comments_replies.length === 0) continue;
    kept.push(comment);
  }
  return kept;
}

/** `POST /api/product_details`. */
export function presentProductDetailsResponse(details: {
  product_details: ProductDetails;
  comments: PresentedComment[];
  comments_user_image: string;
  moderation?: ModerationState;
  related_deals: DealCard[];
  freshness: Freshness | null;
  price_history: PriceHistory;
}) {
  return { status: "true", response: details };
}
