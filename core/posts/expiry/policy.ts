import { hasRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";

/** A moderator's (or an administrator's) one mark expires a deal at once. */
export function expiresAlone(user: CurrentUser): boolean {
  return hasRole(user, "moderator");
}

/** The poster and moderators may reopen an expired deal. */
export function canReopen(user: CurrentUser | null, post: { user_id: number | null }): boolean {
  return user !== null && (post.user_id === user.id || hasRole(user, "moderator"));
}

/** Anyone signed in may mark a deal but its poster, and only once. */
export function canMark(user: CurrentUser | null, post: { user_id: number | null }): boolean {
  return user !== null && post.user_id !== user.id;
}
