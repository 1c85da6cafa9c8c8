import { recordAudit } from "../../audit/audit-trail.ts";
import { requireRole, requireUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { lastPage } from "../../constants.ts";
import type { Deps } from "../../deps.ts";
import { ValidationError } from "../../errors.ts";
import { siteImage } from "../../media/media-path.ts";
import { postPath } from "../../posts/paths.ts";
import { queueReputationRecompute } from "./job.ts";
import { memberReputation, presentBadges } from "./member-reputation.ts";
import * as repo from "./repository.ts";
import { LEDGER_KINDS, LEDGER_TEXTS, LEVELS, type Level, type LevelThresholds } from "./rules.ts";
import {
  REPUTATION_MESSAGES,
  thresholdFieldErrors,
  thresholdsOf,
  type ReputationLevelsInput,
} from "./schema.ts";

/** Lines of a member's ledger per page. */
export const LEDGER_PAGE_SIZE = 20;
/** Members per page of the top contributors. */
export const TOP_PAGE_SIZE = 20;

/** The UTC calendar month `at` is in: its first instant and the next month's. */
export function monthOf(at: Date): { from: Date; to: Date; label: string } {
  const from = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const to = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return { from, to, label: from.toISOString().slice(0, 7) };
}

const levelsAnswer = (t: LevelThresholds) => ({
  member_points: t.member,
  regular_points: t.regular,
  trusted_points: t.trusted,
});

/**
 * Reputation as members see it (docs/decisions/0088-reputation.md): a member's points, level and
 * badges, their ledger, the month's top contributors, and the level thresholds administrators set.
 * Nothing here computes points: the reputation job does (job.ts).
 */
export function createReputationService(deps: Deps) {
  const { db, changes, now, jobs } = deps;

  return {
    /** Points, level, earned badges and every badge's standing of one member. */
    forMember: (userId: number) => memberReputation(db, userId),

    /** `POST /api/user/reputation`: the signed-in member's standing and a page of their ledger. */
    async ledger(user: CurrentUser | null, { page }: { page: number }) {
      const actor = requireUser(user);
      const [standing, { rows, total }] = await Promise.all([
        memberReputation(db, actor.id),
        repo.ledgerPage(db, actor.id, (page - 1) * LEDGER_PAGE_SIZE, LEDGER_PAGE_SIZE),
      ]);
      return {
        reputation: { points: standing.points, level: standing.level, badges: standing.badges },
        badge_standings: standing.standings,
        ledger: rows.map((row) => ({
          kind: row.kind,
          points: row.points,
          detail: row.detail,
          rule: LEDGER_TEXTS[row.kind],
          occurred_at: row.occurred_at.toISOString(),
          // A removed post is no longer public: the line says so without a link.
          post:
            row.unique_id && row.title && row.slug && row.post_type && row.status === "active"
              ? {
                  unique_id: row.unique_id,
                  title: row.title,
                  link: postPath({
                    post_type: row.post_type,
                    unique_id: row.unique_id,
                    slug: row.slug,
                  }),
                }
              : null,
        })),
        pagination: {
          total,
          per_page: LEDGER_PAGE_SIZE,
          current_page: page,
          last_page: lastPage(total, LEDGER_PAGE_SIZE),
        },
      };
    },

    /** `POST /api/community_top` and /community/top: this month's members by points earned. */
    async topContributors({ page }: { page: number }) {
      const month = monthOf(now());
      const offset = (page - 1) * TOP_PAGE_SIZE;
      const { rows, total } = await repo.topContributors(db, month, offset, TOP_PAGE_SIZE);
      const badges = await repo.badgesOf(
        db,
        rows.map((row) => row.id),
      );
      return {
        month: month.label,
        members: rows.map((row, index) => ({
          rank: offset + index + 1,
          user_id: row.id,
          user_name: row.name,
          user_image: siteImage(row.image_url),
          month_points: row.month_points,
          points: row.points,
          level: (LEVELS as readonly string[]).includes(row.level)
            ? (row.level as Level)
            : "Newcomer",
          badges: presentBadges(
            [...(badges.get(row.id) ?? new Map<string, Date>())]
              .map(([badge_key, earned_at]) => ({ badge_key, earned_at }))
              .sort((a, b) => a.earned_at.getTime() - b.earned_at.getTime()),
          ),
        })),
        pagination: {
          total,
          per_page: TOP_PAGE_SIZE,
          current_page: page,
          last_page: lastPage(total, TOP_PAGE_SIZE),
        },
      };
    },

    /** The rules as members read them: how points are earned and lost, and the levels' thresholds. */
    async rules() {
      return {
        points: LEDGER_KINDS.map((kind) => LEDGER_TEXTS[kind]),
        thresholds: await repo.findThresholds(db),
      };
    },

    /** `GET /api/admin/reputation_levels` (administrators). */
    async levels(user: CurrentUser | null) {
      requireRole(user, "admin");
      return { levels: levelsAnswer(await repo.findThresholds(db)) };
    },

    /**
     * `POST /api/admin/reputation_levels` (administrators): new thresholds, each above the one
     * before; every member's level follows at once, in the same transaction as its audit entry.
     */
    async saveLevels(user: CurrentUser | null, input: ReputationLevelsInput) {
      const actor = requireRole(user, "admin");
      const next = thresholdsOf(input);
      const errors = thresholdFieldErrors(next);
      if (Object.keys(errors).length) throw new ValidationError(errors);
      const changed = await db.transaction().execute(async (tx) => {
        const before = await repo.lockThresholds(tx);
        if (
          before.member === next.member &&
          before.regular === next.regular &&
          before.trusted === next.trusted
        ) {
          return false;
        }
        await repo.saveThresholds(tx, next, now());
        await repo.relevelAll(tx, next);
        await recordAudit(tx, actor, {
          action: "settings.reputation_levels",
          itemType: "setting",
          itemId: "reputation_levels",
          before: levelsAnswer(before),
          after: levelsAnswer(next),
        });
        return true;
      });
      if (changed) changes.emit("reputation");
      return { message: REPUTATION_MESSAGES.saved, levels: levelsAnswer(next) };
    },

    /** Asks the reputation job to recompute one member soon. */
    recompute: (userId: number) => queueReputationRecompute(jobs, userId),
  };
}

export type ReputationService = ReturnType<typeof createReputationService>;
