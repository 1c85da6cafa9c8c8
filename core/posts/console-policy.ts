import { requireRole, type StaffRole } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import type { PostBulkAction } from "./console-schema.ts";

/**
 * Who may do what in the posts console: moderators edit, feature, hide, restore, remove and expire
 * any post; deleting a post for good (with its comments and likes) is an administrator's.
 */
export function roleForPostAction(action: PostBulkAction | "update"): StaffRole {
  return action === "delete" ? "admin" : "moderator";
}

/** The staff member allowed to do `action`; 401 for a visitor, 403 for a lower role. */
export function requirePostAction(
  user: CurrentUser | null,
  action: PostBulkAction | "update",
): CurrentUser {
  return requireRole(user, roleForPostAction(action));
}
