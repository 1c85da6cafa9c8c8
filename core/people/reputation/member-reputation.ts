import type { DbOrTx } from "../../../db/index.ts";
import { BADGES, LEVELS, badgeStandings, type BadgeStanding, type Level } from "./rules.ts";

/**
 * A member's standing as the reputation job last counted it: what profiles, bylines and the
 * privileges by level read (docs/decisions/0088-reputation.md). Reads only; the job writes.
 */

const isLevel = (value: string | undefined): value is Level =>
  (LEVELS as readonly string[]).includes(value ?? "");

/**
 * The member's level: "Newcomer" until the job has counted them. The one lookup for anything that
 * depends on a level (held posts, link caps, vote weight).
 */
export async function memberLevel(db: DbOrTx, userId: number): Promise<Level> {
  const row = await db
    .selectFrom("member_reputation")
    .select("level")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return isLevel(row?.level) ? row.level : "Newcomer";
}

/** The levels of several members (bylines of a comment thread), "Newcomer" for those not counted. */
export async function memberLevels(
  db: DbOrTx,
  userIds: readonly number[],
): Promise<Map<number, Level>> {
  const levels = new Map<number, Level>();
  if (!userIds.length) return levels;
  const rows = await db
    .selectFrom("member_reputation")
    .select(["user_id", "level"])
    .where("user_id", "in", [...new Set(userIds)])
    .execute();
  for (const row of rows) if (isLevel(row.level)) levels.set(row.user_id, row.level);
  return levels;
}

export interface EarnedBadge {
  key: string;
  name: string;
  rule: string;
  earned_at: string;
}

export interface MemberReputation {
  points: number;
  level: Level;
  badges: EarnedBadge[];
  /** Every badge with the member's own number against it, earned or not. */
  standings: BadgeStanding[];
}

/** Points, level, earned badges and every badge's standing. */
export async function memberReputation(db: DbOrTx, userId: number): Promise<MemberReputation> {
  const [row, badges] = await Promise.all([
    db
      .selectFrom("member_reputation")
      .select(["points", "level", "hot_deals", "scorching_deals", "working_coupon_reports"])
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("member_badges")
      .select(["badge_key", "earned_at"])
      .where("user_id", "=", userId)
      .orderBy("earned_at")
      .orderBy("badge_key")
      .execute(),
  ]);
  return {
    points: row?.points ?? 0,
    level: isLevel(row?.level) ? row.level : "Newcomer",
    badges: presentBadges(badges),
    standings: badgeStandings({
      hotDeals: row?.hot_deals ?? 0,
      scorchingDeals: row?.scorching_deals ?? 0,
      workingCouponReports: row?.working_coupon_reports ?? 0,
    }),
  };
}

/** Earned badges as the API shows them, in the order earned; unknown keys (a retired badge) left out. */
export function presentBadges(
  rows: readonly { badge_key: string; earned_at: Date }[],
): EarnedBadge[] {
  return rows.flatMap((row) => {
    const badge = BADGES.find((candidate) => candidate.key === row.badge_key);
    return badge
      ? [
          {
            key: badge.key,
            name: badge.name,
            rule: badge.rule,
            earned_at: row.earned_at.toISOString(),
          },
        ]
      : [];
  });
}
