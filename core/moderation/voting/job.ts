import type { Db } from "../../../db/index.ts";
import { recordSystemAudit } from "../../audit/audit-trail.ts";
import { defineJob } from "../../jobs/job.ts";
import * as repo from "./repository.ts";
import {
  FINDING_WINDOW_HOURS,
  NEW_ACCOUNT_DAYS,
  NEW_ACCOUNTS_ON_ONE_NETWORK,
  SERIAL_POSTS_BY_ONE_POSTER,
} from "./rules.ts";

/**
 * The serial-voting check (docs/decisions/0091-vote-integrity.md): every hour, the last day's
 * votes are read for the two patterns of rules.ts, and each finding becomes one report of the
 * site's own in the moderation queue, with the numbers in its note. A finding already open, or
 * resolved after its newest vote, is not filed again; a second run in the same hour files nothing.
 */
export const serialVotingJob = defineJob<Record<string, never>>({
  name: "votes.serial_check",
  cron: "23 * * * *",
  retryLimit: 3,
  retryDelaySeconds: 30,
  retryDelayMaxSeconds: 600,
  timeoutSeconds: 10 * 60,
  keepSeconds: 6 * 3600,
});

const HOUR_MS = 3600_000;
const DIRECTION = { like: "hot", unlike: "cold" } as const;

export interface SerialVotingResult {
  found: number;
  filed: number;
}

/** Reads the window's votes and files what it finds; how many findings, and how many were new. */
export async function checkSerialVoting(deps: {
  db: Db;
  now: () => Date;
}): Promise<SerialVotingResult> {
  const at = deps.now();
  const since = new Date(at.getTime() - FINDING_WINDOW_HOURS * HOUR_MS);
  const youngerThan = new Date(at.getTime() - NEW_ACCOUNT_DAYS * 24 * HOUR_MS);
  const serial = await repo.findSerialVoters(deps.db, since, SERIAL_POSTS_BY_ONE_POSTER);
  const crowds = await repo.findNetworkNewcomers(
    deps.db,
    since,
    youngerThan,
    NEW_ACCOUNTS_ON_ONE_NETWORK,
  );
  const names = new Map(
    (
      await repo.findNames(deps.db, [
        ...new Set([
          ...serial.flatMap((s) => [Number(s.voter_id), Number(s.poster_id)]),
          ...crowds.flatMap((c) => c.voter_ids.map(Number)),
        ]),
      ])
    ).map((u) => [Number(u.id), u.name]),
  );
  const nameOf = (id: number) => `${names.get(id) ?? "Deleted user"} (#${id})`;

  const findings = [
    ...serial.map((s) => ({
      finding: `serial:${s.voter_id}:${s.poster_id}:${s.reaction}`,
      lastVoteAt: new Date(s.last_vote_at),
      item_type: "user" as const,
      item_id: String(s.voter_id),
      note:
        `Serial voting: ${nameOf(Number(s.voter_id))} voted ${DIRECTION[s.reaction]} on ` +
        `${s.votes} posts by ${nameOf(Number(s.poster_id))} within ${FINDING_WINDOW_HOURS} hours ` +
        `(the rule: ${SERIAL_POSTS_BY_ONE_POSTER} or more).`,
    })),
    ...crowds.map((c) => ({
      finding: `network:${c.post_id}:${c.voter_network}:${c.reaction}`,
      lastVoteAt: new Date(c.last_vote_at),
      item_type: c.post_type,
      item_id: c.unique_id,
      note:
        `Serial voting: ${c.voter_ids.length} accounts younger than ${NEW_ACCOUNT_DAYS} days voted ` +
        `${DIRECTION[c.reaction]} on this post from network ${c.voter_network} within ` +
        `${FINDING_WINDOW_HOURS} hours (the rule: ${NEW_ACCOUNTS_ON_ONE_NETWORK} or more): ` +
        `${c.voter_ids.map((id) => nameOf(Number(id))).join(", ")}.`,
    })),
  ];

  let filed = 0;
  for (const f of findings) {
    const wasFiled = await deps.db.transaction().execute(async (tx) => {
      if (await repo.isReported(tx, f.finding, f.lastVoteAt)) return false;
      const inserted = await repo.fileFinding(tx, {
        item_type: f.item_type,
        item_id: f.item_id,
        finding: f.finding,
        note: f.note,
        created_at: at,
      });
      if (inserted) {
        await recordSystemAudit(tx, {
          action: "report.serial_voting",
          itemType: f.item_type,
          itemId: f.item_id,
          reason: f.note,
        });
      }
      return inserted;
    });
    if (wasFiled) filed += 1;
  }
  return { found: findings.length, filed };
}

/** The job's handler (core/jobs/site-jobs.ts). */
export function serialVotingCheck(deps: {
  db: Db;
  now: () => Date;
  log: { info(msg: string): void };
}) {
  return async () => {
    const { found, filed } = await checkSerialVoting(deps);
    if (filed) deps.log.info(`serial voting: ${filed} new of ${found} findings reported`);
  };
}
