import { recordAudit } from "../../audit/audit-trail.ts";
import { hasRole, requireRole, requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { formatSuspensionEnd } from "../../auth/suspension.ts";
import type { Deps } from "../../deps.ts";
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from "../../errors.ts";
import { notify } from "../../member/notifications/notify.ts";
import { presentMemberVote, presentVotingStatus } from "./presenter.ts";
import * as repo from "./repository.ts";
import { MAX_BLOCK_DAYS, VOTES_PAGE_SIZE, VOTING_RULES, WARNING_COUNTS_DAYS } from "./rules.ts";
import {
  VOTING_MESSAGES as M,
  type MemberVotesInput,
  type VoteBlockInput,
  type VoteUnblockInput,
  type VoteWarningInput,
} from "./schema.ts";

const DAY_MS = 24 * 3600_000;
const USER_NOT_FOUND = "That user does not exist.";

/** Where a member reads their voting standing and the rules (My Account). */
export const VOTING_STANDING_PATH = "/user/profile#voting";

/**
 * Vote integrity in the console (docs/decisions/0091-vote-integrity.md): a member's votes, and
 * staff's warnings and voting blocks. Moderators and administrators; an administrator's voting only
 * an administrator's to restrict; never one's own. Every action is audited and told to the member
 * (a notification of kind "moderation", mailed as moderators' decisions are).
 */
export function createVotingIntegrityService({ db, now, changes }: Deps) {
  async function statusOf(userId: number, at: Date) {
    return presentVotingStatus(await repo.findRestrictions(db, userId), at);
  }

  /** Locks the member and checks that the actor may restrict their voting. */
  async function lockTarget(
    tx: Parameters<typeof repo.lockMember>[0],
    actor: CurrentUser,
    id: number,
  ) {
    const target = await repo.lockMember(tx, id);
    if (!target) throw new NotFoundError(USER_NOT_FOUND);
    if (target.deleted_at) throw new ConflictError(M.deleted);
    if (target.id === actor.id) throw new ForbiddenError(M.self);
    if (target.role === "admin" && !hasRole(actor, "admin")) throw new ForbiddenError(M.admin);
    return target;
  }

  return {
    /** `GET /api/admin/users/votes`: the member, their voting standing and a page of their votes. */
    async memberVotes(user: CurrentUser | null, input: MemberVotesInput) {
      requireRole(user, "moderator");
      const at = now();
      const member = await repo.findMember(db, input.user_id);
      if (!member) throw new NotFoundError(USER_NOT_FOUND);
      const total = await repo.countVotes(db, member.id);
      const lastPage = Math.max(1, Math.ceil(total / VOTES_PAGE_SIZE));
      const page = Math.min(input.page, lastPage);
      const rows = await repo.findVotes(
        db,
        member.id,
        (page - 1) * VOTES_PAGE_SIZE,
        VOTES_PAGE_SIZE,
      );
      return {
        member: {
          id: Number(member.id),
          name: member.name,
          role: member.role,
          joined: member.created_at.toISOString(),
          deleted: member.deleted_at !== null,
        },
        voting: await statusOf(member.id, at),
        votes: rows.map(presentMemberVote),
        page,
        last_page: lastPage,
        total,
      };
    },

    /** `POST /api/admin/users/vote_warning`: the member is told why; a block may follow. */
    async warn(user: CurrentUser | null, input: VoteWarningInput) {
      const actor = requireRole(user, "moderator");
      const at = now();
      await db.transaction().execute(async (tx) => {
        const target = await lockTarget(tx, actor, input.user_id);
        const warning = await repo.insertRestriction(tx, {
          user_id: target.id,
          kind: "warning",
          reason: input.reason,
          created_at: at,
          ends_at: null,
        });
        await notify(tx, [
          {
            userId: target.id,
            kind: "moderation",
            message: `A moderator warns you about your votes: ${input.reason} If it goes on, your voting may be blocked for a while.`,
            link: VOTING_STANDING_PATH,
          },
        ]);
        await recordAudit(tx, actor, {
          action: "user.vote_warn",
          itemType: "user",
          itemId: target.id,
          reason: input.reason,
          after: { warning_id: Number(warning.id) },
        });
      });
      changes.emit("users");
      return statusOf(input.user_id, at);
    },

    /**
     * `POST /api/admin/users/vote_block`: until a future date at most MAX_BLOCK_DAYS ahead, and only
     * after a warning of the last WARNING_COUNTS_DAYS days. A later block replaces a block in force.
     */
    async block(user: CurrentUser | null, input: VoteBlockInput) {
      const actor = requireRole(user, "moderator");
      const at = now();
      if (input.until.getTime() <= at.getTime()) {
        throw new ValidationError({ until: M.untilPast });
      }
      if (input.until.getTime() > at.getTime() + MAX_BLOCK_DAYS * DAY_MS) {
        throw new ValidationError({ until: M.untilTooFar });
      }
      await db.transaction().execute(async (tx) => {
        const target = await lockTarget(tx, actor, input.user_id);
        const since = new Date(at.getTime() - WARNING_COUNTS_DAYS * DAY_MS);
        const warning = await repo.findWarningSince(tx, target.id, since);
        if (!warning) throw new ConflictError(M.noWarning);
        const replaced = await repo.liftBlocks(tx, target.id, at);
        const block = await repo.insertRestriction(tx, {
          user_id: target.id,
          kind: "block",
          reason: input.reason,
          created_at: at,
          ends_at: input.until,
        });
        await notify(tx, [
          {
            userId: target.id,
            kind: "moderation",
            message: `A moderator has blocked your voting until ${formatSuspensionEnd(input.until)}: ${input.reason}`,
            link: VOTING_STANDING_PATH,
          },
        ]);
        await recordAudit(tx, actor, {
          action: "user.vote_block",
          itemType: "user",
          itemId: target.id,
          reason: input.reason,
          before: replaced.length
            ? { blocked_until: replaced[0]!.ends_at?.toISOString() ?? null }
            : { blocked_until: null },
          after: {
            block_id: Number(block.id),
            blocked_until: input.until.toISOString(),
            warning_id: Number(warning.id),
          },
        });
      });
      changes.emit("users");
      return statusOf(input.user_id, at);
    },

    /** `POST /api/admin/users/vote_unblock`: lifts the block in force; the member may vote again. */
    async unblock(user: CurrentUser | null, input: VoteUnblockInput) {
      const actor = requireRole(user, "moderator");
      const at = now();
      await db.transaction().execute(async (tx) => {
        const target = await lockTarget(tx, actor, input.user_id);
        const lifted = await repo.liftBlocks(tx, target.id, at);
        if (lifted.length === 0) throw new ConflictError(M.notBlocked);
        await notify(tx, [
          {
            userId: target.id,
            kind: "moderation",
            message: "A moderator has lifted the block on your voting: you can vote again.",
            link: VOTING_STANDING_PATH,
          },
        ]);
        await recordAudit(tx, actor, {
          action: "user.vote_unblock",
          itemType: "user",
          itemId: target.id,
          reason: input.reason,
          before: { blocked_until: lifted[0]!.ends_at?.toISOString() ?? null },
          after: { blocked_until: null },
        });
      });
      changes.emit("users");
      return statusOf(input.user_id, at);
    },

    /** My Account's Voting section: the member's own standing, and the rules that apply to them. */
    async mine(user: CurrentUser | null) {
      const member = requireUser(user);
      return { ...(await statusOf(member.id, now())), rules: VOTING_RULES };
    },
  };
}

export type VotingIntegrityService = ReturnType<typeof createVotingIntegrityService>;
