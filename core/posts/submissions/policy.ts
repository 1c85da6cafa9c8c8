import { requireConfirmedUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";

/**
 * Who may post a deal or a discussion: the signed-in user acting as themself, with a confirmed
 * email address (401 without a session, 403 for someone else's user_id or an unconfirmed account;
 * docs/decisions/0013).
 */
export function requirePoster(user: CurrentUser | null, claimedUserId: unknown): CurrentUser {
  return requireConfirmedUser(user, claimedUserId);
}
