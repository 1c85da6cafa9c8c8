import { postPath } from "../../posts/paths.ts";
import type * as repo from "./repository.ts";
import { WARNING_COUNTS_DAYS } from "./rules.ts";

type Rows<F extends (...args: never[]) => unknown> = Awaited<ReturnType<F>>;
type Restriction = Rows<typeof repo.findRestrictions>[number];

const DAY_MS = 24 * 3600_000;

/** Whether a block is in force at `at`: not lifted, and its end ahead. */
export function inForce(r: Pick<Restriction, "kind" | "ends_at" | "lifted_at">, at: Date): boolean {
  return r.kind === "block" && !r.lifted_at && r.ends_at !== null && r.ends_at > at;
}

/** A member's voting standing: the block in force, whether one may be placed, and the history. */
export function presentVotingStatus(restrictions: readonly Restriction[], at: Date) {
  const current = restrictions
    .filter((r) => inForce(r, at))
    .sort((a, b) => b.ends_at!.getTime() - a.ends_at!.getTime())[0];
  const warnedSince = at.getTime() - WARNING_COUNTS_DAYS * DAY_MS;
  return {
    blocked_until: current?.ends_at?.toISOString() ?? null,
    block_reason: current?.reason ?? "",
    may_block: restrictions.some(
      (r) => r.kind === "warning" && r.created_at.getTime() >= warnedSince,
    ),
    restrictions: restrictions.map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      reason: r.reason,
      created_at: r.created_at.toISOString(),
      ends_at: r.ends_at?.toISOString() ?? null,
      lifted_at: r.lifted_at?.toISOString() ?? null,
      in_force: inForce(r, at),
    })),
  };
}

export type VotingStatus = ReturnType<typeof presentVotingStatus>;

/** One vote as the console's member page lists it. */
export function presentMemberVote(row: Rows<typeof repo.findVotes>[number]) {
  return {
    post: {
      unique_id: row.unique_id,
      post_type: row.post_type,
      title: row.title,
      link: postPath(row),
      status: row.status,
      poster_id: row.poster_id === null ? null : Number(row.poster_id),
      poster_name: row.poster_name ?? "Deleted user",
    },
    reaction: row.reaction,
    reason: row.reason,
    created_at: row.created_at.toISOString(),
    network: row.voter_network,
  };
}

export type MemberVote = ReturnType<typeof presentMemberVote>;
