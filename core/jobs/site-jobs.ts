import type { Db, DbHandle } from "../../db/index.ts";
import type { ChangeFeed } from "../cache/changes.ts";
import {
  checkDealLink,
  linkCheckJob,
  linkCheckSweepJob,
  sweepLinkChecks,
} from "../posts/freshness/link-check-job.ts";
import type { LinkCheckSettings } from "../posts/freshness/link-check.ts";
import type { Mailer } from "../mail/mailer.ts";
import { copyImageLinks, imageLinkCopyJob } from "../media/image-link-job.ts";
import type { MediaStorage } from "../media/storage.ts";
import { createMailQueue, deliverMail, sendMailJob } from "../mail/queue.ts";
import { createJobQueue, type JobQueue } from "./queue.ts";
import { sweepExpired, sweepExpiredJob } from "./sweeps.ts";
import { vacuumJob, vacuumWhereNoAutovacuum } from "./vacuum.ts";
import { dealExpiryJob, sweepDealExpiry } from "../posts/expiry/sweep.ts";
import { recomputeReputationJob, reputationJob } from "../people/reputation/job.ts";
import { mailNotifications, notificationMailJob } from "../member/notifications/mail-job.ts";
import {
  alertDigestJob,
  alertInstantJob,
  alertMatchJob,
  matchDealAlerts,
  sendDailyDigests,
  sendWaitingInstantMails,
} from "../member/alerts/jobs.ts";
import { sendWeeklyDigests, weeklyDigestJob } from "../member/digest/job.ts";
import { serialVotingCheck, serialVotingJob } from "../moderation/voting/job.ts";
import { sendPushMessages } from "../member/push/job.ts";
import { readOrMakeVapidKeys } from "../member/push/vapid.ts";
import { pushSendJob } from "../member/push/outbox.ts";

/** Every kind of job the site has. Add a kind here and its handler in `workSiteJobs`. */
export const JOB_KINDS = [
  sendMailJob,
  sweepExpiredJob,
  linkCheckSweepJob,
  linkCheckJob,
  dealExpiryJob,
  notificationMailJob,
  alertMatchJob,
  alertInstantJob,
  alertDigestJob,
  weeklyDigestJob,
  vacuumJob,
  imageLinkCopyJob,
  reputationJob,
  serialVotingJob,
  pushSendJob,
] as const;

/**
 * The site's queue over its database: one per process, started and stopped by the entry point.
 * `work: false` (tests that wait for no job) installs it without working any (core/jobs/queue.ts).
 */
export function createSiteJobQueue(
  database: DbHandle,
  options: { schema?: string; work?: boolean } = {},
): JobQueue {
  return createJobQueue(database, { kinds: JOB_KINDS, ...options });
}

export interface JobWorkerDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: { info(msg: string): void; warn(msg: string): void };
  /**
   * This process's change feed, with its broadcast to every other process on the database (servers
   * and `npm run worker` alike, docs/decisions/0106): a job's write is announced exactly as a
   * request's is. What each job emits, and why some emit nothing:
   * - deal expiry sweep: "posts" (deals expired or live again leave or join lists and Trending);
   * - link check: "posts" when "last verified" moved (cards show it); a dead link only files a
   *   report, which no public page shows (as a member's report that hides nothing: no topic);
   * - image link copy: "posts" (posts' pictures) or "users" (members'), whichever it settled;
   * - reputation: "reputation" when points, levels or badges changed;
   * - serial voting: nothing — it files reports for moderators and removes no vote;
   * - push sending: nothing — it reaches members' devices, not pages;
   * - alert matching, notification mails, digests: nothing — notifications and mails show only to
   *   their signed-in member, whose pages are never cached, and no TtlCache keeps them;
   * - nightly sweep (sessions, link codes, sign-in failures, link-preview pictures no deal shows),
   *   vacuum, mail: nothing a page shows.
   */
  changes: ChangeFeed;
  /** The link check's limits; `allowLoopback` only in tests (LINK_CHECK_ALLOW_LOOPBACK). */
  linkCheck?: Partial<LinkCheckSettings>;
  /** Push sending (record 0109); `allowLoopback` only in tests (PUSH_ALLOW_LOOPBACK). */
  push?: { allowLoopback: boolean };
  /** PUBLIC_URL, for links in mails the jobs write (notification mails); the configuration's default if absent. */
  publicUrl?: string;
  /** The media storage and MEDIA_BASE_URL: where the image-link job stores its copies. */
  media: MediaStorage;
  mediaBaseUrl?: string;
}

/** Makes this process work every kind of job: server processes and `npm run worker` alike. */
export async function workSiteJobs(jobs: JobQueue, deps: JobWorkerDeps): Promise<void> {
  // The site's VAPID keys are made at its first start (record 0109), by whichever process is first.
  await readOrMakeVapidKeys(deps.db);
  await jobs.work(sendMailJob, deliverMail(deps));
  await jobs.work(sweepExpiredJob, sweepExpired(deps));
  await jobs.work(vacuumJob, vacuumWhereNoAutovacuum({ ...deps, jobsSchema: jobs.schema }));
  await jobs.work(linkCheckSweepJob, sweepLinkChecks(jobs, deps));
  await jobs.work(linkCheckJob, checkDealLink(deps));
  await jobs.work(dealExpiryJob, sweepDealExpiry(deps));
  await jobs.work(reputationJob, recomputeReputationJob(deps));
  await jobs.work(serialVotingJob, serialVotingCheck(deps));
  // Member mails (notifications, alerts) carry the one-click unsubscribe (sendToMember).
  const publicUrl = deps.publicUrl ?? "http://localhost:3000";
  await jobs.work(
    imageLinkCopyJob,
    copyImageLinks({
      ...deps,
      config: {
        publicUrl,
        mediaBaseUrl: deps.mediaBaseUrl,
        linkCheckAllowLoopback: deps.linkCheck?.allowLoopback ?? false,
      },
    }),
  );
  const memberDeps = {
    ...deps,
    jobs,
    publicUrl,
    mail: createMailQueue(jobs, { db: deps.db, publicUrl }),
  };
  await jobs.work(notificationMailJob, mailNotifications(memberDeps));
  await jobs.work(alertMatchJob, matchDealAlerts(memberDeps));
  await jobs.work(alertInstantJob, sendWaitingInstantMails(memberDeps));
  await jobs.work(alertDigestJob, sendDailyDigests(memberDeps));
  await jobs.work(weeklyDigestJob, sendWeeklyDigests(memberDeps));
  await jobs.work(
    pushSendJob,
    sendPushMessages({ ...deps, publicUrl, allowLoopback: deps.push?.allowLoopback ?? false }),
  );
}
