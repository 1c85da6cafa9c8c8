import { describeDigestSchedule, type DigestSchedule } from "../../settings/digest-schedule.ts";

/**
 * When a weekly digest is due (docs/decisions/0087-weekly-digest.md). The hourly job sends the
 * digest of the latest scheduled moment that has passed, for a day after it: a queue that was
 * down at the hour catches up, and an owner who moves the day does not make members wait a week.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** How long after its hour a digest may still go out (the job runs every hour). */
export const DIGEST_CATCH_UP_HOURS = 24;

/**
 * No member gets two digests less than this many days apart, whatever the schedule did in
 * between (moved to a later day, or run late one week and on time the next).
 */
export const DIGEST_MIN_DAYS_APART = 6;

/** The latest moment on the schedule at or before `at`. */
export function latestDigestMoment(at: Date, schedule: DigestSchedule): Date {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const daysBack = (at.getUTCDay() - schedule.weekday + 7) % 7;
  let moment = midnight - daysBack * DAY + schedule.hour * HOUR;
  if (moment > at.getTime()) moment -= 7 * DAY;
  return new Date(moment);
}

/**
 * The send due at `at`: its week's key (the UTC date it was due, YYYY-MM-DD) and the moment, or
 * null when the last scheduled moment is more than DIGEST_CATCH_UP_HOURS ago.
 */
export function dueDigest(at: Date, schedule: DigestSchedule): { week: string; due: Date } | null {
  const due = latestDigestMoment(at, schedule);
  if (at.getTime() - due.getTime() >= DIGEST_CATCH_UP_HOURS * HOUR) return null;
  return { week: due.toISOString().slice(0, 10), due };
}

/** Members whose last digest went out after this moment get none now. */
export function lastDigestNotAfter(at: Date): Date {
  return new Date(at.getTime() - DIGEST_MIN_DAYS_APART * DAY);
}

/** The digest as the email settings page describes it to members: when it comes, and what. */
export function weeklyDigestDescription(schedule: DigestSchedule): string {
  return (
    `Every ${describeDigestSchedule(schedule)}, the past week's hottest deals from the stores ` +
    `and categories you follow (or from the whole site if you follow none). Only when there is ` +
    `something new.`
  );
}
