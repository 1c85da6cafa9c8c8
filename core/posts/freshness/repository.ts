import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { LinkCheckOutcome, VerifiedBy } from "../../../db/schema.ts";
import { isLive } from "../../cards/deal-card-query.ts";
import { prepared } from "../../../db/prepared.ts";

/** A post by unique_id, locked for a member's answer about it, with what the rules look at. */
export function lockPostForFeedback(db: DbOrTx, uniqueId: string) {
  return db
    .selectFrom("posts")
    .select(["id", "post_type", "user_id", "status", "coupon_code", "expires_at"])
    .where("unique_id", "=", uniqueId)
    .forUpdate()
    .executeTakeFirst();
}

/** A member's answer on a coupon: a later answer replaces the earlier one, and its time. */
export function saveCouponFeedback(
  db: DbOrTx,
  answer: { post_id: number; user_id: number; worked: boolean; answered_at: Date },
) {
  return db
    .insertInto("coupon_feedback")
    .values(answer)
    .onConflict((oc) =>
      oc.columns(["post_id", "user_id"]).doUpdateSet({
        worked: answer.worked,
        answered_at: answer.answered_at,
      }),
    )
    .execute();
}

/**
 * Moves the deal's "last verified" forward to `at` (never back: a late job's older result does not
 * undo a newer confirmation). Returns whether it moved.
 */
export async function markVerified(db: DbOrTx, postId: number, at: Date, by: VerifiedBy) {
  const result = await db
    .updateTable("posts")
    .set({ last_verified_at: at, last_verified_by: by })
    .where("id", "=", postId)
    .where("last_verified_at", "<=", at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Answers since `since` (coupon_feedback_recent_idx: one range of one post's entries). */
export async function countCouponFeedback(db: DbOrTx, postId: number, since: Date) {
  const row = await db
    .selectFrom("coupon_feedback")
    .select([
      sql<number>`count(*)::int`.as("total"),
      sql<number>`count(*) FILTER (WHERE worked)::int`.as("worked"),
    ])
    .where("post_id", "=", postId)
    .where("answered_at", ">=", since)
    .executeTakeFirstOrThrow();
  return { worked: Number(row.worked), total: Number(row.total) };
}

/** The member's own answer on a coupon, whenever it was given. */
export async function findOwnAnswer(db: DbOrTx, postId: number, userId: number) {
  const row = await db
    .selectFrom("coupon_feedback")
    .select(["worked", "answered_at"])
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row ?? null;
}

/** What the freshness panel shows of a post: its verification and its last link check. */
export function findFreshness(db: DbOrTx, postId: number) {
  return prepared(db.selectFrom("posts"))
    .leftJoin("link_checks", "link_checks.post_id", "posts.id")
    .select([
      "posts.last_verified_at",
      "posts.last_verified_by",
      "link_checks.checked_at",
      "link_checks.outcome",
    ])
    .where("posts.id", "=", postId)
    .executeTakeFirst();
}

// The link check --------------------------------------------------------------------------------

/**
 * Live public deals with a link, newest first (posts_recent_idx), for the daily link check: their
 * store (to space checks of one store out) and the link's host (for deals with no store).
 */
export function findDealsToCheck(db: DbOrTx, now: Date, limit: number) {
  return db
    .selectFrom("posts")
    .select(["posts.id", "posts.store_id", "posts.link"])
    .where("posts.status", "=", "active")
    .where("posts.post_type", "=", "d")
    .where("posts.link", "<>", "")
    .where(isLive(now))
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .limit(limit)
    .execute();
}

/** One deal to check: its state (it may have changed since it was queued) and its store's page. */
export function findDealForCheck(db: DbOrTx, postId: number) {
  return db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .select([
      "posts.id",
      "posts.unique_id",
      "posts.title",
      "posts.status",
      "posts.post_type",
      "posts.link",
      "posts.expires_at",
      "stores.link as store_link",
    ])
    .where("posts.id", "=", postId)
    .executeTakeFirst();
}

/** The deal's last check, replacing the one before. */
export function saveLinkCheck(
  db: DbOrTx,
  check: {
    post_id: number;
    checked_at: Date;
    http_status: number | null;
    outcome: LinkCheckOutcome;
    final_url: string;
    detail: string;
  },
) {
  const { post_id: _postId, ...rest } = check;
  return db
    .insertInto("link_checks")
    .values(check)
    .onConflict((oc) => oc.column("post_id").doUpdateSet(rest))
    .execute();
}

export function findLinkCheck(db: DbOrTx, postId: number) {
  return db.selectFrom("link_checks").selectAll().where("post_id", "=", postId).executeTakeFirst();
}

/**
 * Serialises the site's report of a deal with members' reports of it: the same advisory lock key
 * as core/moderation/repository.ts's lockReportedItem ("report:d:<unique_id>").
 */
export async function lockReportedDeal(tx: DbOrTx, uniqueId: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`report:d:${uniqueId}`}, 0))`.execute(
    tx,
  );
}

/** Whether the site already has an open report on the deal (reports_one_open_system_idx). */
export async function hasOpenSystemReport(db: DbOrTx, uniqueId: string) {
  const row = await db
    .selectFrom("reports")
    .select("id")
    .where("item_type", "=", "d")
    .where("item_id", "=", uniqueId)
    .where("status", "=", "open")
    .where("reporter_id", "is", null)
    // Only the link check's own: the serial-voting job files reports of the site's too (migration 038).
    .where("reason", "=", "expired")
    .where("finding", "=", "")
    .executeTakeFirst();
  return row !== undefined;
}

/** A report of the site's own: no reporter; it waits in /admin/reports like members' reports. */
export function insertSystemReport(
  db: DbOrTx,
  report: { item_id: string; note: string; created_at: Date },
) {
  return db
    .insertInto("reports")
    .values({ item_type: "d", reporter_id: null, reason: "expired", ...report })
    .execute();
}
