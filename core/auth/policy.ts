import { ForbiddenError, UnauthenticatedError } from "../errors.ts";
import type { UserRole } from "../../db/schema.ts";
import type { CurrentUser } from "./sessions.ts";

/** The session's user, or 401. */
export function requireUser(user: CurrentUser | null): CurrentUser {
  if (!user) throw new UnauthenticatedError();
  return user;
}

/**
 * The spec's payloads name the acting user (`user_id`, `loggedin_user_id`). The server never
 * trusts them: no session is 401, and a payload naming anyone but the session's user is 403.
 */
export function requireActingUser(user: CurrentUser | null, claimedUserId: unknown): CurrentUser {
  const current = requireUser(user);
  if (claimedUserId !== undefined && claimedUserId !== null && claimedUserId !== "") {
    if (String(claimedUserId) !== String(current.id)) {
      throw new ForbiddenError("You can only act as yourself.");
    }
  }
  return current;
}

/** What an unconfirmed account is told when it tries to publish (docs/decisions/0013). */
export const CONFIRM_EMAIL_FIRST =
  "Please confirm your email address before posting. Use the link we emailed you, or ask for a new one at /verify.";

/**
 * The session's user with a confirmed email address, for every call that publishes content
 * (deals, discussions, comments): no session is 401, an unconfirmed address is 403, and a payload
 * naming another user is 403 as in `requireActingUser`.
 */
export function requireConfirmedUser(
  user: CurrentUser | null,
  claimedUserId?: unknown,
): CurrentUser {
  const current = requireActingUser(user, claimedUserId);
  if (!current.email_verified) throw new ForbiddenError(CONFIRM_EMAIL_FIRST);
  return current;
}

const ROLE_RANK: Record<UserRole, number> = { member: 0, moderator: 1, admin: 2 };

/** Staff roles, lowest first: a moderator runs the queues, an admin runs the site. */
export type StaffRole = Exclude<UserRole, "member">;

/** Whether the user holds `role` or a higher one. */
export function hasRole(user: CurrentUser | null, role: StaffRole): boolean {
  return user !== null && ROLE_RANK[user.role] >= ROLE_RANK[role];
}

/**
 * The session's user when they hold `role` or a higher one: no session is 401, a lower role 403.
 * Every console call and page goes through this, whatever the UI shows.
 */
export function requireRole(user: CurrentUser | null, role: StaffRole): CurrentUser {
  const current = requireUser(user);
  if (!hasRole(current, role)) {
    throw new ForbiddenError(
      role === "admin"
        ? "Only an administrator can do that."
        : "Only moderators and administrators can do that.",
    );
  }
  return current;
}
