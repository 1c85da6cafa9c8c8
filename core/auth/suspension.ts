import { DomainError } from "../errors.ts";
import { MULTI_LINE } from "../validation.ts";

/**
 * Suspension (migration 013): a suspended user cannot sign in and has no session. A suspension
 * with no end lasts until a moderator lifts it; one whose end has passed no longer counts, so the
 * person can sign in again without anyone lifting it.
 */

export interface SuspensionState {
  suspended_at: Date | null;
  /** Null with suspended_at set: until lifted. */
  suspended_until: Date | null;
  suspension_reason: string;
}

/** Whether the suspension is in force at `now`. */
export function isSuspended(user: SuspensionState, now: Date): boolean {
  if (!user.suspended_at) return false;
  return user.suspended_until === null || user.suspended_until.getTime() > now.getTime();
}

const DATE_FORMAT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});

const TIME_FORMAT = new Intl.DateTimeFormat("en-GB", {
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
  timeZone: "UTC",
});

/** "1 March 2027", or "1 March 2027, 14:30 UTC" when the end is not at midnight UTC. */
export function formatSuspensionEnd(until: Date): string {
  const date = DATE_FORMAT.format(until);
  const atMidnight =
    until.getUTCHours() === 0 && until.getUTCMinutes() === 0 && until.getUTCSeconds() === 0;
  return atMidnight ? date : `${date}, ${TIME_FORMAT.format(until)} UTC`;
}

/**
 * What the person is told when they try to sign in: "Your account is suspended until <date>:
 * <reason>", or "Your account is suspended: <reason>" with no end date.
 */
export function suspensionMessage(user: SuspensionState): string {
  const reason = user.suspension_reason.trim() || "no reason was given";
  return user.suspended_until
    ? `Your account is suspended until ${formatSuspensionEnd(user.suspended_until)}: ${reason}`
    : `Your account is suspended: ${reason}`;
}

/**
 * The refusal of a sign-in by a suspended account, in any door (password, Google, Facebook): 403
 * with the message above; `suspended` and `suspended_until` let the apps and the OAuth callback
 * tell it from other refusals.
 */
export function accountSuspendedError(user: SuspensionState): DomainError {
  return new DomainError("forbidden", suspensionMessage(user), {
    suspended: true,
    suspended_until: user.suspended_until?.toISOString() ?? null,
  });
}

/**
 * A Google or Facebook sign-in ends with a redirect, so the refusal's message travels to /login in
 * a short-lived cookie of its own (HttpOnly, path /login): the page shows the person their own
 * reason, and a link cannot make it show any other text.
 */
export const SUSPENSION_NOTICE_COOKIE = "signinSuspended";
export const SUSPENSION_NOTICE_SECONDS = 120;
export const SUSPENDED_FALLBACK_MESSAGE = "Your account is suspended.";

export function encodeSuspensionNotice(message: string): string {
  return Buffer.from(message, "utf8").toString("base64url");
}

/** The notice's message, or null when the cookie is missing or not one of ours. */
export function decodeSuspensionNotice(value: string | undefined): string | null {
  if (!value || value.length > 2000 || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
  const message = Buffer.from(value, "base64url").toString("utf8");
  return message.startsWith("Your account is suspended") && MULTI_LINE.test(message)
    ? message
    : null;
}
