import { recordAudit } from "../../audit/audit-trail.ts";
import { requireRole } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import {
  DIGEST_SCHEDULE_MESSAGES,
  describeDigestSchedule,
  findDigestSchedule,
  saveDigestSchedule,
  type DigestSchedule,
  type DigestScheduleInput,
} from "../../settings/digest-schedule.ts";

/** The schedule as the console's form and `GET /api/admin/settings/digest` show it. */
function presentSchedule(schedule: DigestSchedule) {
  return {
    digest_weekday: schedule.weekday,
    digest_hour: schedule.hour,
    description: describeDigestSchedule(schedule),
  };
}

/**
 * The weekly digest's schedule on the console's Settings page (administrators): when the hourly
 * job sends it (core/member/digest/job.ts; docs/decisions/0087-weekly-digest.md).
 */
export function createDigestService({ db, now }: Deps) {
  return {
    /** `GET /api/admin/settings/digest`. */
    async schedule(user: CurrentUser | null) {
      requireRole(user, "admin");
      return { schedule: presentSchedule(await findDigestSchedule(db)) };
    },

    /** `POST /api/admin/settings/digest`: saved with its audit entry in one transaction. */
    async saveSchedule(user: CurrentUser | null, input: DigestScheduleInput) {
      const actor = requireRole(user, "admin");
      const next = { weekday: input.digest_weekday, hour: input.digest_hour };
      await db.transaction().execute(async (tx) => {
        const before = await findDigestSchedule(tx);
        if (before.weekday === next.weekday && before.hour === next.hour) return;
        await saveDigestSchedule(tx, next, now());
        await recordAudit(tx, actor, {
          action: "settings.digest",
          itemType: "setting",
          itemId: "weekly_digest",
          before: { digest_weekday: before.weekday, digest_hour: before.hour },
          after: { digest_weekday: next.weekday, digest_hour: next.hour },
        });
      });
      return { message: DIGEST_SCHEDULE_MESSAGES.saved(next), schedule: presentSchedule(next) };
    },
  };
}

export type DigestService = ReturnType<typeof createDigestService>;
