import type { Db } from "../../../db/index.ts";
import type { ChangeFeed } from "../../cache/changes.ts";
import { defineJob } from "../../jobs/job.ts";
import type { JobAttempt, JobQueue } from "../../jobs/queue.ts";
import { checkLink, type LinkCheckResult, type LinkCheckSettings } from "./link-check.ts";
import * as repo from "./repository.ts";
import { hasEnded } from "../policy.ts";

/** At most this many deals are checked a day: the newest live ones. */
export const LINK_CHECKS_PER_DAY = 2_000;
/** Checks of one store (or, for a deal with no store, one host) start at least this far apart. */
export const STORE_SPACING_SECONDS = 20;

/**
 * Every day at 04:41 UTC: the newest live deals are queued for a link check each, spread out per
 * store (docs/decisions/0038-freshness-and-link-check.md).
 */
export const linkCheckSweepJob = defineJob<Record<string, never>>({
  name: "freshness.link-check-sweep",
  cron: "41 4 * * *",
  retryLimit: 3,
  retryDelaySeconds: 60,
  timeoutSeconds: 10 * 60,
});

/** One deal's link check. A network failure is recorded, not retried; a database fault is. */
export const linkCheckJob = defineJob<{ post_id: number }>({
  name: "freshness.link-check",
  retryLimit: 2,
  retryDelaySeconds: 60,
  timeoutSeconds: 2 * 60,
  keepSeconds: 3600,
});

export interface LinkCheckWorkerDeps {
  db: Db;
  now: () => Date;
  log: { info(msg: string): void; warn(msg: string): void };
  /** Caches drop cards whose "last verified" moved. */
  changes: ChangeFeed;
  linkCheck?: Partial<LinkCheckSettings>;
}

/** The store a deal's checks are spaced out by: its store, or its link's host. */
function storeKey(deal: { store_id: number | null; link: string }): string {
  if (deal.store_id !== null) return `store:${deal.store_id}`;
  try {
    return `host:${new URL(deal.link).hostname.replace(/^www\./, "")}`;
  } catch {
    return "host:";
  }
}

/**
 * When each deal's check may start, newest deal first: the first deal of each store at once, the
 * next `spacingSeconds` later, and so on, so no store sees more than one check per spacing.
 */
export function planLinkChecks(
  deals: readonly { id: number; store_id: number | null; link: string }[],
  spacingSeconds = STORE_SPACING_SECONDS,
): { post_id: number; startAfterSeconds: number }[] {
  const perStore = new Map<string, number>();
  return deals.map((deal) => {
    const key = storeKey(deal);
    const before = perStore.get(key) ?? 0;
    perStore.set(key, before + 1);
    return { post_id: deal.id, startAfterSeconds: before * spacingSeconds };
  });
}

/** The daily sweep: queues one check per deal, spaced per store. */
export function sweepLinkChecks(jobs: JobQueue, deps: LinkCheckWorkerDeps) {
  return async () => {
    const deals = await repo.findDealsToCheck(deps.db, deps.now(), LINK_CHECKS_PER_DAY);
    const plan = planLinkChecks(deals);
    for (const check of plan) {
      await jobs.send(linkCheckJob, { post_id: check.post_id }, undefined, {
        startAfterSeconds: check.startAfterSeconds,
      });
    }
    deps.log.info(`link check: queued ${plan.length} deals`);
  };
}

const FLAGS = new Set(["not_found", "redirected_home"]);

/** What moderators read in the queue about a dead link. */
function reportNote(link: string, result: LinkCheckResult): string {
  return `Automatic link check: ${result.detail} Link: ${link}`.slice(0, 1000);
}

/**
 * Checks one deal's link and records the result. Success moves "last verified" forward; 404, 410
 * or a redirect to the store's home page puts the deal in the moderation queue as a report of the
 * site's own (reason "expired"), once per change of state: a deal already flagged for the same
 * reason by the last check is not reported again. A deal that is no longer live is skipped.
 */
export function checkDealLink(deps: LinkCheckWorkerDeps) {
  return async ({ post_id }: { post_id: number }, attempt?: Pick<JobAttempt, "signal">) => {
    const deal = await repo.findDealForCheck(deps.db, post_id);
    const startedAt = deps.now();
    if (
      !deal ||
      deal.status !== "active" ||
      deal.post_type !== "d" ||
      !deal.link ||
      hasEnded(deal, startedAt)
    ) {
      return;
    }
    const result = await checkLink(deal.link, {
      storeLink: deal.store_link,
      settings: deps.linkCheck,
      signal: attempt?.signal,
    });
    const at = deps.now();
    const verified = await deps.db.transaction().execute(async (tx) => {
      const previous = await repo.findLinkCheck(tx, deal.id);
      await repo.saveLinkCheck(tx, {
        post_id: deal.id,
        checked_at: at,
        http_status: result.httpStatus,
        outcome: result.outcome,
        final_url: result.finalUrl.slice(0, 2000),
        detail: result.detail.slice(0, 500),
      });
      if (result.outcome === "ok") return repo.markVerified(tx, deal.id, at, "link_check");
      if (FLAGS.has(result.outcome) && previous?.outcome !== result.outcome) {
        await repo.lockReportedDeal(tx, deal.unique_id);
        if (!(await repo.hasOpenSystemReport(tx, deal.unique_id))) {
          await repo.insertSystemReport(tx, {
            item_id: deal.unique_id,
            note: reportNote(deal.link, result),
            created_at: at,
          });
        }
      }
      return false;
    });
    if (verified) deps.changes.emit("posts");
    deps.log.info(`link check of deal ${deal.unique_id}: ${result.outcome} (${result.detail})`);
  };
}
