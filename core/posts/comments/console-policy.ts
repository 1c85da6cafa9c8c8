import { requireRole, type StaffRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";

export type CommentConsoleAction = "list" | "hide" | "restore" | "remove" | "delete";

/**
 * Who may do what in the comments console: moderators list, hide, restore and remove comments;
 * deleting one for good is an administrator's.
 */
export function roleForCommentAction(action: CommentConsoleAction): StaffRole {
  return action === "delete" ? "admin" : "moderator";
}

export function requireCommentAction(
  user: CurrentUser | null,
  action: CommentConsoleAction,
): CurrentUser {
  return requireRole(user, roleForCommentAction(action));
}
