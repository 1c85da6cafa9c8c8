import type { PostStatus, PostType } from "../../../db/schema.ts";
import type { FRESHNESS_MESSAGES } from "./schema.ts";
import { hasEnded } from "../policy.ts";

interface PostFacts {
  post_type: PostType;
  user_id: number | null;
  status: PostStatus;
  coupon_code: string;
  expires_at: Date | null;
}

/**
 * Why a member may not answer about a deal (Worked / Didn't work on a coupon, "Still works" on any
 * other deal), or null when they may. Only public, live deals; never one's own.
 */
export function feedbackRefusal(
  post: PostFacts,
  userId: number,
  kind: "coupon" | "confirm",
  now: Date,
): {
  reason: keyof typeof FRESHNESS_MESSAGES;
  status: "forbidden" | "rejected" | "not_found";
} | null {
  if (post.status === "removed") return { reason: "notFound", status: "not_found" };
  if (post.status !== "active") return { reason: "notPublic", status: "not_found" };
  if (post.post_type !== "d") return { reason: "notDeal", status: "rejected" };
  if (post.user_id === userId) return { reason: "own", status: "forbidden" };
  if (kind === "coupon" && !post.coupon_code) return { reason: "notCoupon", status: "rejected" };
  if (kind === "confirm" && post.coupon_code) return { reason: "isCoupon", status: "rejected" };
  if (hasEnded(post, now)) return { reason: "expired", status: "rejected" };
  return null;
}

/** Whether a viewer may answer at all (the page shows the buttons): signed in, not the poster. */
export function canAnswer(post: { user_id: number | null }, viewerId: number | null): boolean {
  return viewerId === null || viewerId !== post.user_id;
}
