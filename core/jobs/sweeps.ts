import type { Db } from "../../db/index.ts";
import { deleteSpentAttempts } from "../auth/sign-in-attempts.ts";
import { deleteOldPushHistory } from "../member/push/history.ts";
import { defineJob } from "./job.ts";
import * as repo from "./repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * A mailed link's code is kept this long past its expiry, so that using a spent link still says
 * "already used" rather than "invalid" for a while.
 */
export const EXPIRED_CODE_GRACE_MS = 30 * DAY_MS;

/**
 * Every night: expired sessions, long-expired mailed-link codes, failed sign-ins that no longer
 * count, and push messages and timings over 30 days old are deleted.
 */
export const sweepExpiredJob = defineJob<Record<string, never>>({
  name: "sweep.expired",
  cron: "17 3 * * *",
  retryLimit: 3,
  retryDelaySeconds: 60,
  timeoutSeconds: 10 * 60,
});

export function sweepExpired(deps: { db: Db; now: () => Date; log: { info(msg: string): void } }) {
  return async () => {
    const at = deps.now();
    const sessions = await repo.deleteExpiredSessions(deps.db, at);
    const codes = await repo.deleteExpiredEmailTokens(
      deps.db,
      new Date(at.getTime() - EXPIRED_CODE_GRACE_MS),
    );
    const attempts = await deleteSpentAttempts(deps.db, at);
    const pushes = await deleteOldPushHistory(deps.db, at);
    deps.log.info(
      `sweep: deleted ${sessions} expired sessions, ${codes} expired link codes, ` +
        `${attempts} spent sign-in failure counts and ${pushes} push messages over 30 days old`,
    );
  };
}
