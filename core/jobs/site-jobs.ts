import type { Db, DbHandle } from "../../db/index.ts";
import type { ChangeFeed } from "../cache/changes.ts";
import {
  checkDealLink,
  linkCheckJob,
  linkCheckSweepJob,
  sweepLinkChecks,
} from "../freshness/link-check-job.ts";
import type { LinkCheckSettings } from "../freshness/link-check.ts";
import type { Mailer } from "../mail/mailer.ts";
import { createMailQueue, deliverMail, sendMailJob } from "../mail/queue.ts";
import { createJobQueue, type JobQueue } from "./queue.ts";
import { sweepExpired, sweepExpiredJob } from "./sweeps.ts";
import { dealExpiryJob, sweepDealExpiry } from "../expiry/sweep.ts";
import {
  alertDigestJob,
  alertInstantJob,
  alertMatchJob,
  matchDealAlerts,
  sendDailyDigests,
  sendWaitingInstantMails,
} from "../alerts/jobs.ts";

/** Every kind of job the site has. Add a kind here and its handler in `workSiteJobs`. */
export const JOB_KINDS = [
  sendMailJob,
  sweepExpiredJob,
  linkCheckSweepJob,
  linkCheckJob,
  dealExpiryJob,
  alertMatchJob,
  alertInstantJob,
  alertDigestJob,
] as const;

/** The site's queue over its database: one per process, started and stopped by the entry point. */
export function createSiteJobQueue(
  database: DbHandle,
  options: { schema?: string } = {},
): JobQueue {
  return createJobQueue(database, { kinds: JOB_KINDS, ...options });
}

export interface JobWorkerDeps {
  db: Db;
  mailer: Mailer;
  now: () => Date;
  log: { info(msg: string): void; warn(msg: string): void };
  /**
   * This process's change feed, when it has caches to drop (the server; not `npm run worker`):
   * what the link check ("last verified") and the expiry sweep changed.
   */
  changes?: ChangeFeed;
  /** The link check's limits; `allowLoopback` only in tests (LINK_CHECK_ALLOW_LOOPBACK). */
  linkCheck?: Partial<LinkCheckSettings>;
  /** The site's address for links in mails (PUBLIC_URL). */
  publicUrl?: string;
}

/** Makes this process work every kind of job: server processes and `npm run worker` alike. */
export async function workSiteJobs(jobs: JobQueue, deps: JobWorkerDeps): Promise<void> {
  await jobs.work(sendMailJob, deliverMail(deps.mailer, deps.log));
  await jobs.work(sweepExpiredJob, sweepExpired(deps));
  await jobs.work(linkCheckSweepJob, sweepLinkChecks(jobs, deps));
  await jobs.work(linkCheckJob, checkDealLink(deps));
  await jobs.work(dealExpiryJob, sweepDealExpiry(deps));
  const alertDeps = {
    ...deps,
    mail: createMailQueue(jobs),
    publicUrl: deps.publicUrl ?? "http://localhost:3000",
  };
  await jobs.work(alertMatchJob, matchDealAlerts(alertDeps));
  await jobs.work(alertInstantJob, sendWaitingInstantMails(alertDeps));
  await jobs.work(alertDigestJob, sendDailyDigests(alertDeps));
}
