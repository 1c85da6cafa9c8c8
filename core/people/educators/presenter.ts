import type { EducatorRequestStatus } from "../../../db/schema.ts";
import type { PendingReviewRow, PendingWishlistRow, RequestRow } from "./repository.ts";

/**
 * A member's request as they see it. An open school-address request whose link expired reads as
 * expired, whether or not a later request has closed it yet.
 */
export function presentOwnRequest(row: RequestRow, now: Date) {
  const expired =
    row.status === "pending" &&
    row.method === "school_email" &&
    row.token_expires_at !== null &&
    row.token_expires_at.getTime() <= now.getTime();
  const status: EducatorRequestStatus = expired ? "expired" : row.status;
  return {
    id: row.id,
    method: row.method,
    school_email: row.school_email,
    note: row.note,
    status,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
    expires_at:
      row.method === "school_email" ? (row.token_expires_at?.toISOString() ?? null) : null,
  };
}

export type OwnEducatorRequest = ReturnType<typeof presentOwnRequest>;

/** A request in the moderators' queue. */
export function presentPendingReview(row: PendingReviewRow) {
  return {
    id: row.id,
    user_id: row.user_id,
    user_name: row.user_name,
    user_email: row.user_email,
    user_type: row.user_type,
    user_joined: row.user_joined.toISOString(),
    note: row.note,
    created_at: row.created_at.toISOString(),
  };
}

export type PendingEducatorReview = ReturnType<typeof presentPendingReview>;

/** A teacher's own wishlist entry, with its review state. */
export function presentOwnWishlistEntry(row: {
  id: number;
  first_name: string;
  last_name: string;
  school_location: string;
  amazon_wishlist: string;
  status: "pending" | "approved" | "rejected";
  review_reason: string;
  created_at: Date;
}) {
  return {
    id: row.id,
    first_name: row.first_name,
    last_name: row.last_name,
    school_location: row.school_location,
    amazon_wishlist: row.amazon_wishlist,
    status: row.status,
    review_reason: row.review_reason,
    created_at: row.created_at.toISOString(),
  };
}

export type OwnWishlistEntry = ReturnType<typeof presentOwnWishlistEntry>;

/** An entry waiting in the console, with who sent it. */
export function presentPendingWishlistEntry(row: PendingWishlistRow) {
  return {
    ...presentOwnWishlistEntry(row),
    user_id: row.user_id,
    user_name: row.user_name ?? "",
  };
}

export type PendingWishlistEntry = ReturnType<typeof presentPendingWishlistEntry>;
