import type { Db } from "../../../db/index.ts";
import { defineJob } from "../../jobs/job.ts";
import type { MailQueue } from "../../mail/queue.ts";
import { weeklyDigestMail } from "../../mail/templates.ts";
import { DEFAULT_SITE_NAME } from "../../settings/defaults.ts";
import { findDigestSchedule } from "../../settings/digest-schedule.ts";
import { mailDeal } from "../alerts/mail.ts";
import * as repo from "./repository.ts";
import { dueDigest, lastDigestNotAfter } from "./schedule.ts";

/**
 * The weekly digest (docs/decisions/0087-weekly-digest.md): every hour the job looks whether the
 * owner's day and hour have come, and if so mails each member who opted in the week's hottest
 * deals of what they follow, in batches, one transaction per member.
 */

/** Deals in one digest, at most. */
export const DIGEST_DEALS = 10;
/** Members read per query; the job goes on until none is left. */
const BATCH = 200;

/** Every hour on the hour: sends the digests that are due, if any. */
export const weeklyDigestJob = defineJob<Record<string, never>>({
  name: "digest.weekly",
  cron: "0 * * * *",
  retryLimit: 5,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 600,
  timeoutSeconds: 30 * 60,
  keepSeconds: 24 * 3600,
});

export interface DigestJobDeps {
  db: Db;
  mail: MailQueue;
  now: () => Date;
  publicUrl: string;
  log: { info(msg: string): void };
}

/**
 * The job's work. Each member's digest is claimed (a weekly_digests row for this week) in the
 * transaction that queues their mail, so a second run, here or in another process, sends nothing;
 * a run stopped halfway is finished by the next. A member gets no mail when no deal of the list
 * was missing from their last mailed digest, nor when the mail queue skips them (unsubscribed
 * meanwhile, or an undeliverable address).
 */
export function sendWeeklyDigests(deps: DigestJobDeps) {
  const { db, mail, now, publicUrl } = deps;
  return async () => {
    const at = now();
    const due = dueDigest(at, await findDigestSchedule(db));
    if (!due) return;
    const { week } = due;
    const siteName = (await repo.findSiteName(db)) || DEFAULT_SITE_NAME;
    const notAfter = lastDigestNotAfter(at);
    let afterId = 0;
    let mailed = 0;
    for (;;) {
      const members = await repo.findDueMembers(db, {
        week,
        at,
        notAfter,
        afterId,
        limit: BATCH,
      });
      if (members.length === 0) break;
      for (const member of members) {
        const sent = await db.transaction().execute(async (tx) => {
          if (!(await repo.claimWeek(tx, member.id, week, at))) return false;
          const followed = await repo.findFollowed(tx, member.id);
          const deals = await repo.findHottestDeals(tx, { at, ...followed, limit: DIGEST_DEALS });
          const before = new Set(await repo.findLastMailedPostIds(tx, member.id, week));
          const postIds = deals.map((deal) => Number(deal.id));
          if (!postIds.some((id) => !before.has(id))) {
            await repo.recordDigest(tx, member.id, week, { mailed: false, postIds: [] });
            return false;
          }
          const content = weeklyDigestMail({
            siteName,
            name: member.name,
            deals: deals.map((deal) => mailDeal(publicUrl, deal)),
            wholeSite: followed.storeIds.length === 0 && followed.categoryIds.length === 0,
            settingsLink: `${publicUrl}/user/settings/email`,
            followLink: `${publicUrl}/store`,
          });
          const queued = await mail.sendToMember(
            { to: member.email, ...content },
            { userId: member.id, kind: "weekly_digest" },
            tx,
          );
          await repo.recordDigest(tx, member.id, week, {
            mailed: queued,
            postIds: queued ? postIds : [],
          });
          return queued;
        });
        if (sent) mailed++;
      }
      afterId = members[members.length - 1]!.id;
    }
    if (mailed) deps.log.info(`digest: ${mailed} weekly digests of ${week} sent`);
  };
}
