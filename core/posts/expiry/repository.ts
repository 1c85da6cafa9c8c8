import { sql, type SelectQueryBuilder } from "kysely";
import type { Database } from "../../../db/schema.ts";
import type { DbOrTx } from "../../../db/index.ts";
import { DEFAULT_EXPIRY_MARK_THRESHOLD } from "./schema.ts";
import { prepared } from "../../../db/prepared.ts";

/** A post by its unique_id, locked until the transaction ends (marks on one deal go one at a time). */
export function lockPostByUniqueId(db: DbOrTx, uniqueId: string) {
  return db
    .selectFrom("posts")
    .select(["id", "unique_id", "post_type", "user_id", "status", "expires_at", "expired"])
    .where("unique_id", "=", uniqueId)
    .forUpdate()
    .executeTakeFirst();
}

export type ExpiryPost = NonNullable<Awaited<ReturnType<typeof lockPostByUniqueId>>>;

/** The live post the deal page shows, for its expiry panel. */
export function findPostByUniqueId(db: DbOrTx, uniqueId: string) {
  return prepared(db.selectFrom("posts"))
    .select(["id", "post_type", "user_id", "status", "expires_at", "expired"])
    .where("unique_id", "=", uniqueId)
    .executeTakeFirst();
}

/** Distinct members' marks needed to expire a deal (general settings; 3 until set). */
export async function findMarkThreshold(db: DbOrTx): Promise<number> {
  const row = await prepared(db.selectFrom("general_settings"))
    .select("expiry_mark_threshold")
    .where("id", "=", 1)
    .executeTakeFirst();
  return row?.expiry_mark_threshold ?? DEFAULT_EXPIRY_MARK_THRESHOLD;
}

/** Adds a member's mark; false when they had marked the deal already. */
export async function insertMark(db: DbOrTx, postId: number, userId: number, at: Date) {
  const result = await db
    .insertInto("expiry_marks")
    .values({ post_id: postId, user_id: userId, created_at: at })
    .onConflict((oc) => oc.columns(["post_id", "user_id"]).doNothing())
    .returning("post_id")
    .executeTakeFirst();
  return result !== undefined;
}

export async function countMarks(db: DbOrTx, postId: number): Promise<number> {
  const row = await prepared(db.selectFrom("expiry_marks"))
    .select(sql<number>`count(*)::int`.as("marks"))
    .where("post_id", "=", postId)
    .executeTakeFirstOrThrow();
  return row.marks;
}

export async function hasMarked(db: DbOrTx, postId: number, userId: number) {
  const row = await db
    .selectFrom("expiry_marks")
    .select("post_id")
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Ends a deal now: its end date is `at` and it is marked expired at once (no wait for the sweep). */
export function expireNow(db: DbOrTx, postId: number, at: Date) {
  return db
    .updateTable("posts")
    .set({ expires_at: at, expired: true, updated_at: at })
    .where("id", "=", postId)
    .execute();
}

/** Makes a deal live again: no end date, not expired, its marks cleared. */
export async function reopen(db: DbOrTx, postId: number, at: Date) {
  await db
    .updateTable("posts")
    .set({ expires_at: null, expired: false, updated_at: at })
    .where("id", "=", postId)
    .execute();
  await db.deleteFrom("expiry_marks").where("post_id", "=", postId).execute();
}

/** Rows one statement of the sweep changes at most: a minute's work is bounded, and so are locks. */
export const EXPIRY_SWEEP_BATCH = 1_000;

/**
 * The minute sweep: deals whose end has come are marked expired (posts_expiring_idx), and marked
 * deals given a later end (or none) since are live again (posts_expired_idx). How many of each.
 *
 * Each statement picks its rows by walking its partial index in `expires_at` order with a LIMIT.
 * Without the order and limit the planner multiplies the two conditions' selectivities as if
 * independent (at a million deals it expects 200,000 matches where there are none) and reads
 * every deal: 1.9 s a minute in the embedded database, with every request waiting behind it.
 */
export async function sweepExpiry(db: DbOrTx, at: Date, batch = EXPIRY_SWEEP_BATCH) {
  const expired = await setExpiredInBatches(db, true, batch, (posts) =>
    posts
      .where(sql<boolean>`NOT expired`)
      .where("expires_at", "is not", null)
      .where("expires_at", "<=", at)
      .orderBy("expires_at"),
  );
  const extended = await setExpiredInBatches(db, false, batch, (posts) =>
    posts
      .where(sql<boolean>`expired`)
      .where("expires_at", ">", at)
      .orderBy("expires_at", "desc"),
  );
  const cleared = await setExpiredInBatches(db, false, batch, (posts) =>
    // Descending puts the nulls first, so this too is a walk of posts_expired_idx.
    posts
      .where(sql<boolean>`expired`)
      .where("expires_at", "is", null)
      .orderBy("expires_at", "desc"),
  );
  return { expired, reopened: extended + cleared };
}

type PostIds = SelectQueryBuilder<Database, "posts", { id: number }>;

/**
 * Sets `expired` on the posts `pick` chooses, `batch` at a time, until a batch changes fewer rows
 * than a full one; how many it changed in all. The ids are read first (`= any(array(subquery))`)
 * and changed by primary key: with `IN (subquery)` the planner may hash-join the ids against a scan
 * of every deal.
 */
async function setExpiredInBatches(
  db: DbOrTx,
  expired: boolean,
  batch: number,
  pick: (posts: PostIds) => PostIds,
): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db
      .updateTable("posts")
      .set({ expired })
      .where(({ eb, selectFrom }) =>
        eb(
          "id",
          "=",
          sql<number>`any(array(${pick(selectFrom("posts").select("id")).limit(batch)}))`,
        ),
      )
      .executeTakeFirst();
    const changed = Number(result.numUpdatedRows);
    total += changed;
    if (changed < batch) return total;
  }
}
