import type { CurrentUser } from "../../auth/sessions.ts";
import { requireConfirmedUser, requireRole } from "../../auth/policy.ts";

/**
 * Who may do what with verified educators. Members with a confirmed account ask for themselves;
 * moderators (and administrators) review requests, keep the school-domain list and approve
 * teachers' own wishlist entries. Only a verified educator adds a wishlist entry of their own:
 * that is checked against the account's row in the service, never the session's copy.
 */
export function requireRequester(user: CurrentUser | null): CurrentUser {
  return requireConfirmedUser(user);
}

export function requireReviewer(user: CurrentUser | null): CurrentUser {
  return requireRole(user, "moderator");
}
