import type { Db } from "../../db/index.ts";
import { deleteSpentAttempts } from "../auth/sign-in-attempts.ts";
import type { Deps } from "../deps.ts";
import { deleteOldPushHistory } from "../member/push/history.ts";
import { deleteUnusedPreviewPictures } from "../posts/link-preview/unused-pictures.ts";
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
 * count, push messages and timings over 30 days old, and pictures copied by Submit Deal's link
 * preview that no deal was posted with within a day (docs/decisions/0110) are deleted.
 */
export const sweepExpiredJob = defineJob<Record<string, never>>({
  name: "sweep.expired",
  cron: "17 3 * * *",
  retryLimit: 3,
  retryDelaySeconds: 60,
  timeoutSeconds: 10 * 60,
});

export function sweepExpired(deps: {
  db: Db;
  media: Deps["media"];
  now: () => Date;
  log: { info(msg: string): void; warn(msg: string): void };
}) {
  return async () => {
    const at = deps.now();
    const sessions = await repo.deleteExpiredSessions(deps.db, at);
    const codes = await repo.deleteExpiredEmailTokens(
      deps.db,
      new Date(at.getTime() - EXPIRED_CODE_GRACE_MS),
    );
    const attempts = await deleteSpentAttempts(deps.db, at);
    const pushes = await deleteOldPushHistory(deps.db, at);
    const pictures = await deleteUnusedPreviewPictures(deps, at);
    deps.log.info(
      `sweep: deleted ${sessions} expired sessions, ${codes} expired link codes, ` +
        `${attempts} spent sign-in failure counts, ${pushes} push messages over 30 days old ` +
        `and ${pictures} link-preview pictures no deal was posted with`,
    );
  };
}
