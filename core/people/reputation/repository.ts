import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { DEGREES_SQL } from "../../posts/temperature-sql.ts";
import {
  DEFAULT_LEVEL_THRESHOLDS,
  HEAT_FLOOR_DEGREES,
  type CommentFacts,
  type DealFacts,
  type LedgerKind,
  type LedgerLine,
  type LevelThresholds,
  type MemberNumbers,
} from "./rules.ts";

/** The level thresholds an administrator set (migration 033's one row), or the defaults. */
export async function findThresholds(db: DbOrTx): Promise<LevelThresholds> {
  const row = await db
    .selectFrom("reputation_settings")
    .select(["member_points", "regular_points", "trusted_points"])
    .where("id", "=", 1)
    .executeTakeFirst();
  return row
    ? { member: row.member_points, regular: row.regular_points, trusted: row.trusted_points }
    : DEFAULT_LEVEL_THRESHOLDS;
}

/** Locks the settings row for a change (and makes it if a restore lost it). */
export async function lockThresholds(db: DbOrTx): Promise<LevelThresholds> {
  await db
    .insertInto("reputation_settings")
    .values({ id: 1 })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute();
  const row = await db
    .selectFrom("reputation_settings")
    .select(["member_points", "regular_points", "trusted_points"])
    .where("id", "=", 1)
    .forUpdate()
    .executeTakeFirstOrThrow();
  return { member: row.member_points, regular: row.regular_points, trusted: row.trusted_points };
}

export async function saveThresholds(db: DbOrTx, thresholds: LevelThresholds, at: Date) {
  await db
    .updateTable("reputation_settings")
    .set({
      member_points: thresholds.member,
      regular_points: thresholds.regular,
      trusted_points: thresholds.trusted,
      updated_at: at,
    })
    .where("id", "=", 1)
    .execute();
}

/** Every member's stored level again from their points and `thresholds`; how many changed. */
export async function relevelAll(db: DbOrTx, t: LevelThresholds): Promise<number> {
  const result = await db
    .updateTable("member_reputation")
    .set({
      level: sql<string>`CASE
        WHEN points >= ${t.trusted} THEN 'Trusted'
        WHEN points >= ${t.regular} THEN 'Regular'
        WHEN points >= ${t.member} THEN 'Member'
        ELSE 'Newcomer' END`,
    })
    .where(
      sql<boolean>`level IS DISTINCT FROM CASE
        WHEN points >= ${t.trusted} THEN 'Trusted'
        WHEN points >= ${t.regular} THEN 'Regular'
        WHEN points >= ${t.member} THEN 'Member'
        ELSE 'Newcomer' END`,
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The members whose deals reached a new peak, or had a coupon answered, or whose comments were
 * liked or unliked (migration 039's likes_changed_at), at or after `since`: all a run between full
 * ones recomputes (a removal by a moderator queues its author on its own).
 */
export async function membersChangedSince(db: DbOrTx, since: Date): Promise<number[]> {
  const rows = await sql<{ user_id: number }>`
    SELECT posts.user_id FROM posts
     WHERE posts.user_id IS NOT NULL AND posts.id IN (
       SELECT post_id FROM reputation_post_peaks WHERE peak_at >= ${since}::timestamptz
       UNION
       SELECT post_id FROM coupon_feedback WHERE answered_at >= ${since}::timestamptz)
    UNION
    SELECT comments.user_id FROM comments
     WHERE comments.likes_changed_at >= ${since}::timestamptz AND comments.user_id IS NOT NULL
    ORDER BY user_id`.execute(db);
  return rows.rows.map((row) => Number(row.user_id));
}

/** When the job last ran, and last recomputed every member. */
export async function findRuns(db: DbOrTx) {
  return db
    .selectFrom("reputation_runs")
    .select(["run_at", "full_run_at"])
    .where("id", "=", 1)
    .executeTakeFirstOrThrow();
}

export async function saveRun(db: DbOrTx, at: Date, full: boolean) {
  await db
    .updateTable("reputation_runs")
    .set(full ? { run_at: at, full_run_at: at } : { run_at: at })
    .where("id", "=", 1)
    .execute();
}

/**
 * The next `limit` members after `afterId` who have a post, a liked comment or reputation to
 * recompute; deleted accounts are not counted again (deletion removed their rows,
 * core/people/accounts).
 */
export async function memberIdsAfter(db: DbOrTx, afterId: number, limit: number) {
  const rows = await sql<{ user_id: number }>`
    SELECT members.user_id FROM (
      SELECT DISTINCT user_id FROM posts WHERE user_id > ${afterId}
      UNION
      SELECT user_id FROM comments WHERE user_id > ${afterId} AND likes_count > 0
      UNION
      SELECT user_id FROM member_reputation WHERE user_id > ${afterId}
    ) members
    JOIN users ON users.id = members.user_id AND users.deleted_at IS NULL
    ORDER BY members.user_id
    LIMIT ${limit}`.execute(db);
  return rows.rows.map((row) => Number(row.user_id));
}

/**
 * Of `userIds`, the accounts not deleted, locked against deletion until the transaction ends: a
 * deletion waits for the batch (or the batch for it), so no ledger is written for a deleted member.
 */
export async function lockLiveMembers(db: DbOrTx, userIds: readonly number[]) {
  if (!userIds.length) return [];
  const rows = await db
    .selectFrom("users")
    .select("id")
    .where("id", "in", userIds)
    .where("deleted_at", "is", null)
    .orderBy("id")
    .forShare()
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The live deals of `userIds` that earn something, with their peak heat and coupon reports from
 * other members. A deal never above the heat floor and without such a report earns no line, counts
 * towards no badge and no number (core/people/reputation/rules.ts), so it is left in the
 * database: a member with 20,000 cold deals costs the job no memory (docs/decisions/0100).
 */
export async function dealFactsOf(
  db: DbOrTx,
  userIds: readonly number[],
): Promise<Map<number, DealFacts[]>> {
  const byUser = new Map<number, DealFacts[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .selectFrom("posts")
    .leftJoin("reputation_post_peaks as peaks", "peaks.post_id", "posts.id")
    .select([
      "posts.id",
      "posts.user_id",
      "posts.created_at",
      "peaks.hot_at",
      sql<number>`greatest(coalesce(peaks.peak_degrees, 0), ${DEGREES_SQL})`.as("peak_degrees"),
      sql<Date[]>`coalesce((
        SELECT array_agg(feedback.answered_at ORDER BY feedback.answered_at)
          FROM coupon_feedback feedback
         WHERE feedback.post_id = posts.id AND feedback.worked
           AND feedback.user_id <> posts.user_id), '{}')`.as("worked_at"),
    ])
    .where("posts.user_id", "in", userIds)
    .where("posts.post_type", "=", "d")
    .where("posts.status", "=", "active")
    .where(
      sql<boolean>`(greatest(coalesce(peaks.peak_degrees, 0), ${DEGREES_SQL}) > ${HEAT_FLOOR_DEGREES}
        OR EXISTS (SELECT 1 FROM coupon_feedback feedback
                    WHERE feedback.post_id = posts.id AND feedback.worked
                      AND feedback.user_id <> posts.user_id))`,
    )
    .orderBy("posts.id")
    .execute();
  for (const row of rows) {
    const userId = Number(row.user_id);
    const list = byUser.get(userId) ?? [];
    list.push({
      postId: row.id,
      peakDegrees: Number(row.peak_degrees),
      postedAt: row.created_at,
      hotAt: row.hot_at,
      workingCouponReports: row.worked_at.map((value) => new Date(value)),
    });
    byUser.set(userId, list);
  }
  return byUser;
}

/**
 * The live comments of `userIds` on live posts that other members like, with how many of them
 * (record 0088: the author's own like never counts).
 */
export async function likedCommentsOf(
  db: DbOrTx,
  userIds: readonly number[],
): Promise<Map<number, CommentFacts[]>> {
  const byUser = new Map<number, CommentFacts[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .selectFrom("comments")
    .innerJoin("posts", "posts.id", "comments.post_id")
    .innerJoin("comment_likes", "comment_likes.comment_id", "comments.id")
    .select([
      "comments.id",
      "comments.user_id",
      "comments.post_id",
      "comments.created_at",
      (eb) => eb.fn.countAll<string>().as("likes"),
    ])
    .where("comments.user_id", "in", userIds)
    .where("comments.deleted_at", "is", null)
    .where("comments.status", "=", "active")
    .where("posts.status", "=", "active")
    .whereRef("comment_likes.user_id", "<>", "comments.user_id")
    .groupBy(["comments.id", "comments.user_id", "comments.post_id", "comments.created_at"])
    .orderBy("comments.id")
    .execute();
  for (const row of rows) {
    const userId = Number(row.user_id);
    const list = byUser.get(userId) ?? [];
    list.push({
      commentId: Number(row.id),
      postId: Number(row.post_id),
      likes: Number(row.likes),
      postedAt: row.created_at,
    });
    byUser.set(userId, list);
  }
  return byUser;
}

/**
 * The posts of `userIds` that a moderator removed, with when: the audit entry that set the status
 * to removed (core/moderation and the console's post edit write one), else the post's last edit.
 */
export async function removedPostsOf(db: DbOrTx, userIds: readonly number[]) {
  if (!userIds.length) return [];
  const rows = await db
    .selectFrom("posts")
    .select([
      "posts.id",
      "posts.user_id",
      sql<Date>`coalesce((
        SELECT max(audit_log.created_at) FROM audit_log
         WHERE audit_log.item_type = posts.post_type AND audit_log.item_id = posts.unique_id
           AND audit_log.after ->> 'status' = 'removed'), posts.updated_at)`.as("removed_at"),
    ])
    .where("posts.user_id", "in", userIds)
    .where("posts.status", "=", "removed")
    .orderBy("posts.id")
    .execute();
  return rows.map((row) => ({
    postId: row.id,
    userId: Number(row.user_id),
    at: new Date(row.removed_at),
  }));
}

export interface StoredLedgerLine {
  kind: LedgerKind;
  post_id: number | null;
  points: number;
  detail: string;
  occurred_at: Date;
}

/** The stored ledgers of `userIds`, for comparing with a recompute. */
export async function ledgersOf(db: DbOrTx, userIds: readonly number[]) {
  const byUser = new Map<number, StoredLedgerLine[]>();
  if (!userIds.length) return byUser;
  const rows = await db
    .selectFrom("reputation_ledger")
    .select(["user_id", "kind", "post_id", "points", "detail", "occurred_at"])
    .where("user_id", "in", userIds)
    .execute();
  for (const { user_id, ...line } of rows) {
    const list = byUser.get(user_id) ?? [];
    list.push(line);
    byUser.set(user_id, list);
  }
  return byUser;
}

export async function summariesOf(db: DbOrTx, userIds: readonly number[]) {
  if (!userIds.length) return new Map<number, { points: number; level: string }>();
  const rows = await db
    .selectFrom("member_reputation")
    .select(["user_id", "points", "level"])
    .where("user_id", "in", userIds)
    .execute();
  return new Map(rows.map((row) => [row.user_id, { points: row.points, level: row.level }]));
}

export async function badgesOf(db: DbOrTx, userIds: readonly number[]) {
  const byUser = new Map<number, Map<string, Date>>();
  if (!userIds.length) return byUser;
  const rows = await db
    .selectFrom("member_badges")
    .select(["user_id", "badge_key", "earned_at"])
    .where("user_id", "in", userIds)
    .execute();
  for (const row of rows) {
    const map = byUser.get(row.user_id) ?? new Map<string, Date>();
    map.set(row.badge_key, row.earned_at);
    byUser.set(row.user_id, map);
  }
  return byUser;
}

/** Writes one member's recomputed ledger, points, level, numbers and badges. */
export async function saveMemberReputation(
  db: DbOrTx,
  member: {
    userId: number;
    lines: readonly LedgerLine[];
    points: number;
    level: string;
    numbers: MemberNumbers;
    badges: ReadonlyMap<string, Date>;
    at: Date;
  },
) {
  const { userId } = member;
  await db.deleteFrom("reputation_ledger").where("user_id", "=", userId).execute();
  if (member.lines.length) {
    await db
      .insertInto("reputation_ledger")
      .values(
        member.lines.map((line) => ({
          user_id: userId,
          kind: line.kind,
          post_id: line.postId,
          points: line.points,
          detail: line.detail,
          occurred_at: line.at,
        })),
      )
      .execute();
  }
  const summary = {
    points: member.points,
    level: member.level,
    hot_deals: member.numbers.hotDeals,
    scorching_deals: member.numbers.scorchingDeals,
    working_coupon_reports: member.numbers.workingCouponReports,
    computed_at: member.at,
  };
  await db
    .insertInto("member_reputation")
    .values({ user_id: userId, ...summary })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(summary))
    .execute();
  let gone = db.deleteFrom("member_badges").where("user_id", "=", userId);
  if (member.badges.size) gone = gone.where("badge_key", "not in", [...member.badges.keys()]);
  await gone.execute();
  if (member.badges.size) {
    await db
      .insertInto("member_badges")
      .values(
        [...member.badges].map(([key, at]) => ({ user_id: userId, badge_key: key, earned_at: at })),
      )
      .onConflict((oc) => oc.columns(["user_id", "badge_key"]).doNothing())
      .execute();
  }
}

// Reading ---------------------------------------------------------------------------------------

/** A member's points, level and badge numbers; null before the job first counted them. */
export function findMemberReputation(db: DbOrTx, userId: number) {
  return db
    .selectFrom("member_reputation")
    .select(["points", "level", "hot_deals", "scorching_deals", "working_coupon_reports"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
}

export function findMemberBadges(db: DbOrTx, userId: number) {
  return db
    .selectFrom("member_badges")
    .select(["badge_key", "earned_at"])
    .where("user_id", "=", userId)
    .orderBy("earned_at")
    .execute();
}

/** One page of a member's ledger, newest first, with the post each line is about. */
export async function ledgerPage(db: DbOrTx, userId: number, offset: number, limit: number) {
  const [rows, total] = await Promise.all([
    db
      .selectFrom("reputation_ledger")
      .leftJoin("posts", "posts.id", "reputation_ledger.post_id")
      .select([
        "reputation_ledger.id",
        "reputation_ledger.kind",
        "reputation_ledger.points",
        "reputation_ledger.detail",
        "reputation_ledger.occurred_at",
        "posts.unique_id",
        "posts.slug",
        "posts.title",
        "posts.post_type",
        "posts.status",
      ])
      .where("reputation_ledger.user_id", "=", userId)
      .orderBy("reputation_ledger.occurred_at", "desc")
      .orderBy("reputation_ledger.id", "desc")
      .offset(offset)
      .limit(limit)
      .execute(),
    db
      .selectFrom("reputation_ledger")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/**
 * One page of the members who earned the most points between `from` and `to` (this month), with
 * their level and name; deleted accounts are left out.
 */
export async function topContributors(
  db: DbOrTx,
  range: { from: Date; to: Date },
  offset: number,
  limit: number,
) {
  const month = db
    .selectFrom("reputation_ledger")
    .select(["user_id", sql<number>`sum(points)::int`.as("month_points")])
    .where("occurred_at", ">=", range.from)
    .where("occurred_at", "<", range.to)
    .groupBy("user_id")
    .having(sql<boolean>`sum(points) > 0`);
  const base = db
    .with("month", () => month)
    .selectFrom("month")
    .innerJoin("users", "users.id", "month.user_id")
    .leftJoin("member_reputation as rep", "rep.user_id", "month.user_id")
    .where("users.deleted_at", "is", null);
  const [rows, total] = await Promise.all([
    base
      .select([
        "users.id",
        "users.name",
        "users.image_url",
        "month.month_points",
        sql<number>`coalesce(rep.points, 0)`.as("points"),
        sql<string>`coalesce(rep.level, 'Newcomer')`.as("level"),
      ])
      .orderBy("month.month_points", "desc")
      .orderBy("users.id")
      .offset(offset)
      .limit(limit)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}
