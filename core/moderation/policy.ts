import { hasRole } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import type { CommentStatus, PostStatus } from "../../db/schema.ts";

/**
 * Who sees a post or comment that is not public (held, hidden or removed): its author, and
 * moderators and admins. Everyone else is told it does not exist (404), so a hidden item leaks
 * nothing, not even that it was there.
 */
export function canSeeUnpublished(viewer: CurrentUser | null, authorId: number | null): boolean {
  if (!viewer) return false;
  return hasRole(viewer, "moderator") || (authorId !== null && viewer.id === authorId);
}

/** Whether the viewer may report an item: anyone signed in, except its own author. */
export function canReport(viewer: CurrentUser | null, ownerId: number | null): boolean {
  return viewer !== null && (ownerId === null || viewer.id !== ownerId);
}

/** The banner shown in place of a public item's state, to those who may still see it. */
export interface ModerationState {
  status: Exclude<PostStatus | CommentStatus, "active">;
  /** "Hidden pending review", "Removed by a moderator: spam", "Waiting for review". */
  label: string;
  reason: string;
}

/** The banner of an item that is not public; null for a public one. */
export function moderationState(
  status: PostStatus | CommentStatus,
  reason = "",
): ModerationState | null {
  switch (status) {
    case "active":
      return null;
    case "pending":
      return { status, label: "Waiting for review", reason };
    case "hidden":
      return { status, label: "Hidden pending review", reason };
    case "removed":
      return {
        status,
        label: reason ? `Removed by a moderator: ${reason}` : "Removed by a moderator",
        reason,
      };
  }
}
