import type { Db, DbOrTx } from "../../../db/index.ts";
import type { ChangeFeed } from "../../cache/changes.ts";
import { defineJob } from "../../jobs/job.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { recordPeaks } from "./post-peaks.ts";
import * as repo from "./repository.ts";
import {
  badgeEarnedTimes,
  commentLedger,
  dealLedger,
  levelFor,
  numbersOf,
  pointsOf,
  removedLedger,
  type LedgerLine,
} from "./rules.ts";

/**
 * Points are recomputed by this job, never in a request (docs/decisions/0088-reputation.md): every
 * 15 minutes, and on demand for one member (`{ userId }`). Once a day a run records every live
 * post's peak heat and recomputes every member who has posted; the runs in between recompute only
 * the members whose deals reached a new peak (a vote records it, core/posts/reactions), had a
 * coupon answered, or whose comments were liked or unliked (core/posts/comments/likes) since the
 * last run, so they do not read every post of a large site. Each member's
 * ledger is rebuilt from the rules, a batch of members per transaction; a member whose ledger came
 * out the same is not written, so a second run changes nothing.
 */
export const reputationJob = defineJob<{ userId?: number }>({
  name: "reputation.recompute",
  cron: "*/15 * * * *",
  retryLimit: 3,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 600,
  timeoutSeconds: 10 * 60,
  keepSeconds: 6 * 3600,
});

/** Members per transaction. */
export const RECOMPUTE_BATCH = 200;

/** How often a scheduled run recomputes every member rather than those changed since the last. */
export const FULL_RUN_EVERY_MS = 24 * 3600_000;

/**
 * Asks the queue to recompute one member soon (a moderator removed their post, say); with `tx`, the
 * job exists if and only if that transaction commits.
 */
export function queueReputationRecompute(jobs: JobQueue, userId: number, tx?: DbOrTx) {
  return jobs.send(reputationJob, { userId }, tx);
}

export interface RecomputeResult {
  members: number;
  changed: number;
}

type RecomputeDeps = { db: Db; now: () => Date; changes?: ChangeFeed };

/**
 * Recomputes `only` one member, the members changed since `changedSince`, or (neither given) every
 * member after recording every post's peak; how many were looked at and how many changed.
 */
export async function recomputeReputation(
  deps: RecomputeDeps,
  only?: number,
  { changedSince }: { changedSince?: Date } = {},
): Promise<RecomputeResult> {
  const at = deps.now();
  const everyone = only === undefined && !changedSince;
  if (everyone) await recordPeaks(deps.db, at);
  const listed =
    only !== undefined
      ? [only]
      : changedSince
        ? await repo.membersChangedSince(deps.db, changedSince)
        : null;
  const thresholds = await repo.findThresholds(deps.db);
  const result = { members: 0, changed: 0 };
  let after = 0;
  for (;;) {
    const batch = listed
      ? listed.filter((id) => id > after).slice(0, RECOMPUTE_BATCH)
      : await repo.memberIdsAfter(deps.db, after, RECOMPUTE_BATCH);
    if (!batch.length) break;
    after = batch[batch.length - 1]!;
    result.changed += await deps.db.transaction().execute(async (tx) => {
      const ids = await repo.lockLiveMembers(tx, batch);
      result.members += ids.length;
      const [deals, comments, removed, stored, summaries, badges] = await Promise.all([
        repo.dealFactsOf(tx, ids),
        repo.likedCommentsOf(tx, ids),
        repo.removedPostsOf(tx, ids),
        repo.ledgersOf(tx, ids),
        repo.summariesOf(tx, ids),
        repo.badgesOf(tx, ids),
      ]);
      let changed = 0;
      for (const userId of ids) {
        const memberDeals = deals.get(userId) ?? [];
        const lines: LedgerLine[] = [
          ...memberDeals.flatMap(dealLedger),
          ...(comments.get(userId) ?? []).flatMap(commentLedger),
          ...removed
            .filter((post) => post.userId === userId)
            .map((post) => removedLedger(post.postId, post.at)),
        ];
        const points = pointsOf(lines);
        const level = levelFor(points, thresholds);
        const numbers = numbersOf(memberDeals);
        // A badge already held keeps the time it was first earned.
        const held = badges.get(userId) ?? new Map<string, Date>();
        const earned = new Map(
          [...badgeEarnedTimes(memberDeals, at)].map(([key, when]) => [key, held.get(key) ?? when]),
        );
        const summary = summaries.get(userId);
        if (
          summary &&
          summary.points === points &&
          summary.level === level &&
          sameBadges(held, earned) &&
          sameLedger(stored.get(userId) ?? [], lines)
        ) {
          continue;
        }
        await repo.saveMemberReputation(tx, {
          userId,
          lines,
          points,
          level,
          numbers,
          badges: earned,
          at,
        });
        changed++;
      }
      return changed;
    });
  }
  // Profiles, bylines and the top contributors show points, levels and badges (core/cache/changes.ts).
  if (result.changed) deps.changes?.emit("reputation");
  return result;
}

/**
 * A scheduled run: every member when none has run for FULL_RUN_EVERY_MS, else the members changed
 * since the last run began (a change made during a run is seen by the next).
 */
export async function scheduledRecompute(deps: RecomputeDeps): Promise<RecomputeResult> {
  const at = deps.now();
  const runs = await repo.findRuns(deps.db);
  const full =
    !runs.run_at ||
    !runs.full_run_at ||
    at.getTime() - runs.full_run_at.getTime() >= FULL_RUN_EVERY_MS;
  const result = await recomputeReputation(
    deps,
    undefined,
    full ? {} : { changedSince: runs.run_at! },
  );
  await repo.saveRun(deps.db, at, full);
  return result;
}

export function recomputeReputationJob(
  deps: RecomputeDeps & { changes: ChangeFeed; log: { info(msg: string): void } },
) {
  return async (data: { userId?: number }) => {
    const { members, changed } =
      data.userId === undefined
        ? await scheduledRecompute(deps)
        : await recomputeReputation(deps, data.userId);
    if (changed) deps.log.info(`reputation: ${changed} of ${members} members changed`);
  };
}

const lineKey = (line: {
  kind: string;
  postId: number | null;
  points: number;
  detail: string;
  at: Date;
}) => `${line.kind}|${line.postId ?? ""}|${line.points}|${line.detail}|${line.at.getTime()}`;

function sameLedger(stored: readonly repo.StoredLedgerLine[], lines: readonly LedgerLine[]) {
  if (stored.length !== lines.length) return false;
  const a = stored
    .map((line) => lineKey({ ...line, postId: line.post_id, at: new Date(line.occurred_at) }))
    .sort();
  const b = lines.map(lineKey).sort();
  return a.every((key, i) => key === b[i]);
}

function sameBadges(a: ReadonlyMap<string, Date>, b: ReadonlyMap<string, Date>) {
  return a.size === b.size && [...a.keys()].every((key) => b.has(key));
}
