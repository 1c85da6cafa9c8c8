import { createHash } from "node:crypto";
import type { CurrentUser } from "../auth/sessions.ts";
import { findRelatedDeals } from "../cards/related-deals.ts";
import { loadFreshness } from "./freshness/service.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import { canSeeUnpublished, moderationState } from "../moderation/policy.ts";
import { priceHistoryOf } from "./prices/service.ts";
import { findVote } from "./reactions/member-reaction.ts";
import { likedCommentsOf } from "./comments/likes/liked-comments.ts";
import { canSeeColdReasons, findColdReasonCounts } from "./reactions/cold-reason-counts.ts";
import { countsAsView } from "./policy.ts";
import { isLikedOf, presentCommentTree, presentProductDetails } from "./presenter.ts";
import * as repo from "./repository.ts";
import { uniqueId } from "./schema.ts";
import { createViewBuffer, type ViewBufferLimits } from "./view-buffer.ts";
import { siteImage } from "../media/media-path.ts";
import { memberLevel } from "../people/reputation/member-reputation.ts";
import { voteWeightOf } from "../people/reputation/privileges.ts";

/** Who is looking at a post, for counting views once per visitor per day. */
export interface Visitor {
  ip: string;
  userAgent: string | undefined;
}

/**
 * A visitor's key for one day: the signed-in user, or else the client address and browser. Hashed
 * with the day, so stored keys cannot be linked from one day to the next or reversed to an address.
 */
function visitorKey(day: string, viewer: CurrentUser | null, visitor: Visitor): string {
  const who = viewer ? `user:${viewer.id}` : `anon:${visitor.ip}|${visitor.userAgent ?? ""}`;
  return createHash("sha256").update(`${day}|${who}`).digest("hex");
}

/** Deal and educator post pages: the post, its comment tree, the viewer's reaction; views. */
export function createPostsService({ db, now, log }: Deps, viewBufferLimits?: ViewBufferLimits) {
  /** The view as recorded, or null for a visit that is no view (a crawler, a link preview). */
  function viewOf(postId: number, viewer: CurrentUser | null, visitor: Visitor, at: Date) {
    if (!countsAsView(visitor.userAgent)) return null;
    const day = at.toISOString().slice(0, 10);
    return { postId, day, visitorKey: visitorKey(day, viewer, visitor) };
  }

  async function countView(postId: number, viewer: CurrentUser | null, visitor: Visitor, at: Date) {
    const view = viewOf(postId, viewer, visitor, at);
    return view ? (await repo.recordViews(db, [view])) > 0 : false;
  }

  const cachedPageViews = createViewBuffer(db, log, viewBufferLimits);

  /**
   * A live post by its unique_id, as `POST /api/product_details` answers it, counting the view; a
   * NotFoundError when there is none. `type`, when given, must match the post's (a deal is not an
   * educator post). A held, hidden or removed post is found only by its author and moderators,
   * with `moderation` saying its state (core/moderation/policy.ts); its views are not counted.
   */
  async function details(input: {
    uniqueId: string;
    type?: "d" | "g";
    viewer: CurrentUser | null;
    visitor: Visitor;
  }) {
    // An id no schema accepts (a page's address can carry anything) names no post.
    if (!uniqueId.safeParse(input.uniqueId).success) throw new NotFoundError();
    const row = await repo.findPostDetail(db, input.uniqueId);
    if (!row || (input.type && row.post_type !== input.type)) throw new NotFoundError();
    const moderation = moderationState(row.status, row.moderation_reason);
    if (moderation && !canSeeUnpublished(input.viewer, row.user_id)) throw new NotFoundError();
    const at = now();
    const [
      comments,
      likedComments,
      vote,
      voteWeight,
      counted,
      related,
      freshness,
      priceHistory,
      coldReasons,
    ] = await Promise.all([
      repo.findComments(db, row.id),
      input.viewer ? likedCommentsOf(db, input.viewer.id, row.id) : undefined,
      input.viewer ? findVote(db, row.id, input.viewer.id) : null,
      input.viewer ? memberLevel(db, input.viewer.id).then(voteWeightOf) : 1,
      moderation ? false : countView(row.id, input.viewer, input.visitor, at),
      findRelatedDeals(db, row, at),
      row.post_type === "d" ? loadFreshness(db, row, input.viewer?.id ?? null, at) : null,
      priceHistoryOf(db, row),
      row.post_type === "d" && canSeeColdReasons(input.viewer, row.user_id)
        ? findColdReasonCounts(db, row.id)
        : null,
    ]);
    if (counted) row.views += 1;
    return {
      // The viewer's weights beside their reaction, so that the page shows a vote's degrees as the
      // server will count them (record 0090).
      product_details: presentProductDetails(row, isLikedOf(vote?.reaction ?? null), at, {
        is_liked_weight: vote?.weight ?? 0,
        vote_weight: voteWeight,
      }),
      // Beside the spec's comment fields: likes_count, and liked for a signed-in viewer (record 0092).
      comments: presentCommentTree(comments, row.post_type, input.viewer, likedComments),
      // The viewer's own picture, shown beside the Leave a Comment box ("" for visitors).
      comments_user_image: siteImage(input.viewer?.image_url),
      // Only on a post that is not public, for the few who may see it: its banner.
      ...(moderation ? { moderation } : {}),
      // Beside the spec's fields: up to 6 live deals of the same store or category (record 0036).
      related_deals: related,
      // Beside the spec's fields (record 0038): last verified, coupon answers, the link check.
      freshness,
      // Beside the spec's fields (record 0040): the product's prices (core/posts/prices).
      price_history: priceHistory,
      // Beside the spec's fields, on a deal, only for the poster and moderators (record 0086). A visitor's
      // page never has it, so the page cache, which keeps visitors' pages only, never holds it.
      ...(coldReasons ? { cold_reasons: coldReasons } : {}),
    };
  }

  return {
    details,
    /**
     * Counts a visitor's view of a live post whose page was served from the page cache
     * (server/plugins/page-cache.ts), as `details` does when the page is rendered; written with
     * the other cached pages' views within a second (core/posts/view-buffer.ts), so the page is
     * answered at once.
     */
    countVisitorView(postId: number, visitor: Visitor): void {
      const view = viewOf(postId, null, visitor, now());
      if (view) cachedPageViews.add(view);
    },
    /** Writes the cached pages' views noted so far (at shutdown; tests). */
    flushViews: () => cachedPageViews.flush(),
  };
}

export type PostsService = ReturnType<typeof createPostsService>;
export type PostDetails = Awaited<ReturnType<PostsService["details"]>>;
