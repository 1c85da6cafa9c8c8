import type { Db } from "../../../db/index.ts";
import type { ChangeFeed } from "../../cache/changes.ts";
import { defineJob } from "../../jobs/job.ts";
import { sweepExpiry } from "./repository.ts";

/**
 * Every minute: deals whose end date has come are marked expired (posts.expired), so that they
 * leave Trending and the home lists and sink below live deals in every listing within a minute
 * (record 0037); deals given a later end since are live again. The queue's cron adds one job a
 * minute across all processes (docs/decisions/0024-job-queue.md); a job that fails is retried soon,
 * and the next minute's sweep catches up anyway.
 */
export const dealExpiryJob = defineJob<Record<string, never>>({
  name: "deals.expiry",
  cron: "* * * * *",
  retryLimit: 2,
  retryDelaySeconds: 10,
  retryDelayMaxSeconds: 60,
  timeoutSeconds: 5 * 60,
  keepSeconds: 3600,
});

export function sweepDealExpiry(deps: {
  db: Db;
  now: () => Date;
  changes: ChangeFeed;
  log: { info(msg: string): void };
}) {
  return async () => {
    const { expired, reopened } = await sweepExpiry(deps.db, deps.now());
    if (expired + reopened === 0) return;
    // The lists' caches keep which deals are live: drop them (docs/decisions/0025).
    deps.changes.emit("posts");
    deps.log.info(`expiry sweep: ${expired} deals expired, ${reopened} live again`);
  };
}
