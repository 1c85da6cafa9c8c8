import { z } from "zod";
import type { DbOrTx } from "../../db/index.ts";

/**
 * When the weekly digest goes out (docs/decisions/0087-weekly-digest.md): a day of the week and
 * an hour, UTC (the site has no time zone setting), kept in general_settings (migration 035) and
 * set on the console's Settings page. Apart from the page's other settings so that its form,
 * call and audit entry stand alone.
 */

export interface DigestSchedule {
  /** 0 Sunday … 6 Saturday, as Date.getUTCDay() counts. */
  weekday: number;
  /** 0–23, UTC. */
  hour: number;
}

/** Migration 035's defaults: Friday, 09:00 UTC. */
export const DEFAULT_DIGEST_SCHEDULE: DigestSchedule = { weekday: 5, hour: 9 };

export const WEEKDAY_NAMES = [
  "Sunday",
  "Monday",
  "Tuesday",
  "Wednesday",
  "Thursday",
  "Friday",
  "Saturday",
] as const;

export const DIGEST_SCHEDULE_MESSAGES = {
  weekday: "Choose a day of the week: a whole number from 0 (Sunday) to 6 (Saturday).",
  hour: "Choose an hour: a whole number from 0 to 23 (UTC).",
  saved: (schedule: DigestSchedule) =>
    `The weekly digest now goes out on ${describeDigestSchedule(schedule)}.`,
} as const;

/** "Friday at 09:00 UTC". */
export function describeDigestSchedule({ weekday, hour }: DigestSchedule): string {
  return `${WEEKDAY_NAMES[weekday]} at ${String(hour).padStart(2, "0")}:00 UTC`;
}

/** A whole number from `min` to `max`, as JSON or as a form's text ("5"); required. */
function wholeNumber(min: number, max: number, message: string) {
  return z.preprocess(
    (value) =>
      typeof value === "string" ? (/^\s*\d{1,2}\s*$/.test(value) ? Number(value) : NaN) : value,
    z.number({ error: message }).int(message).min(min, message).max(max, message),
  );
}

/** `POST /api/admin/settings/digest` {digest_weekday, digest_hour}: both required. */
export const DigestScheduleBody = z.object({
  digest_weekday: wholeNumber(0, 6, DIGEST_SCHEDULE_MESSAGES.weekday),
  digest_hour: wholeNumber(0, 23, DIGEST_SCHEDULE_MESSAGES.hour),
});
export type DigestScheduleInput = z.output<typeof DigestScheduleBody>;

/** The schedule as stored, or the defaults before the settings row exists. */
export async function findDigestSchedule(db: DbOrTx): Promise<DigestSchedule> {
  const row = await db
    .selectFrom("general_settings")
    .select(["digest_weekday", "digest_hour"])
    .where("id", "=", 1)
    .executeTakeFirst();
  return row ? { weekday: row.digest_weekday, hour: row.digest_hour } : DEFAULT_DIGEST_SCHEDULE;
}

/** Saves the schedule in the one general-settings row (id 1), creating it when there is none. */
export async function saveDigestSchedule(db: DbOrTx, schedule: DigestSchedule, at: Date) {
  const values = { digest_weekday: schedule.weekday, digest_hour: schedule.hour, updated_at: at };
  await db
    .insertInto("general_settings")
    .values({ id: 1, ...values })
    .onConflict((oc) => oc.column("id").doUpdateSet(values))
    .execute();
}
