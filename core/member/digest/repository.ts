import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { HALF_VOTES_SQL } from "../../posts/temperature-sql.ts";
import { DEAL_NAMING_COLUMNS } from "../../posts/deal-naming-columns.ts";

/** The weekly digest's SQL (docs/decisions/0087-weekly-digest.md): table weekly_digests. */

const DAY = 86_400_000;

/**
 * The next `limit` members (by id, after `afterId`) who want this week's digest and have none:
 * opted in, not deleted, address confirmed, not suspended at `at`, with no digest row of this
 * week nor one written after `notAfter` (record 0087: at least 6 days apart).
 */
export async function findDueMembers(
  db: DbOrTx,
  options: { week: string; at: Date; notAfter: Date; afterId: number; limit: number },
): Promise<{ id: number; name: string; email: string }[]> {
  const { week, at, notAfter, afterId, limit } = options;
  return db
    .selectFrom("users as u")
    .innerJoin("email_preferences as ep", (join) =>
      join
        .onRef("ep.user_id", "=", "u.id")
        .on("ep.kind", "=", "weekly_digest")
        .on("ep.enabled", "=", true),
    )
    .select(["u.id", "u.name", "u.email"])
    .where("u.deleted_at", "is", null)
    .where("u.email_verified_at", "is not", null)
    .where((eb) =>
      eb.or([
        eb("u.suspended_at", "is", null),
        eb.and([eb("u.suspended_until", "is not", null), eb("u.suspended_until", "<=", at)]),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("weekly_digests as d")
            .select(sql`1`.as("one"))
            .whereRef("d.user_id", "=", "u.id")
            .where((inner) =>
              inner.or([inner("d.week", "=", week), inner("d.created_at", ">", notAfter)]),
            ),
        ),
      ),
    )
    .where("u.id", ">", afterId)
    .orderBy("u.id")
    .limit(limit)
    .execute();
}

/**
 * Claims the member's digest of `week`: true if this call wrote its row (in the caller's
 * transaction, which also queues the mail), false if another run already has. A concurrent run's
 * insert waits for this transaction and then writes nothing.
 */
export async function claimWeek(
  tx: DbOrTx,
  userId: number,
  week: string,
  at: Date,
): Promise<boolean> {
  const row = await tx
    .insertInto("weekly_digests")
    .values({ user_id: userId, week, mailed: false, created_at: at })
    .onConflict((oc) => oc.columns(["user_id", "week"]).doNothing())
    .returning("user_id")
    .executeTakeFirst();
  return row !== undefined;
}

/** What the claimed row ends as: the deals mailed, or none (nothing new, or no mail queued). */
export async function recordDigest(
  tx: DbOrTx,
  userId: number,
  week: string,
  outcome: { mailed: boolean; postIds: number[] },
) {
  await tx
    .updateTable("weekly_digests")
    .set({ mailed: outcome.mailed, post_ids: outcome.postIds })
    .where("user_id", "=", userId)
    .where("week", "=", week)
    .execute();
}

/** The deals of the member's last digest that was mailed before `week` (none: empty). */
export async function findLastMailedPostIds(
  db: DbOrTx,
  userId: number,
  week: string,
): Promise<number[]> {
  const row = await db
    .selectFrom("weekly_digests")
    .select("post_ids")
    .where("user_id", "=", userId)
    .where("mailed", "=", true)
    .where("week", "<", week)
    .orderBy("week", "desc")
    .limit(1)
    .executeTakeFirst();
  return (row?.post_ids ?? []).map(Number);
}

/** The stores and categories the member follows. */
export async function findFollowed(db: DbOrTx, userId: number) {
  const [stores, categories] = await Promise.all([
    db.selectFrom("store_follows").select("store_id").where("user_id", "=", userId).execute(),
    db.selectFrom("category_follows").select("category_id").where("user_id", "=", userId).execute(),
  ]);
  return {
    storeIds: stores.map((row) => Number(row.store_id)),
    categoryIds: categories.map((row) => Number(row.category_id)),
  };
}

/**
 * The hottest deals posted in the 7 days before `at`: public (active), not expired, not cold
 * (temperature at or above 0°), from the stores or categories given, or from the whole site when
 * both lists are empty; hottest first, then newest.
 */
export async function findHottestDeals(
  db: DbOrTx,
  options: { at: Date; storeIds: number[]; categoryIds: number[]; limit: number },
) {
  const { at, storeIds, categoryIds, limit } = options;
  let query = db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .select(DEAL_NAMING_COLUMNS)
    .where("posts.status", "=", "active")
    .where("posts.post_type", "=", "d")
    .where("posts.expired", "=", false)
    .where((eb) => eb.or([eb("posts.expires_at", "is", null), eb("posts.expires_at", ">", at)]))
    .where("posts.created_at", ">", new Date(at.getTime() - 7 * DAY))
    .where("posts.created_at", "<=", at)
    .where(sql<boolean>`${HALF_VOTES_SQL} >= 0`);
  if (storeIds.length || categoryIds.length) {
    query = query.where((eb) =>
      eb.or([
        ...(storeIds.length ? [eb("posts.store_id", "in", storeIds)] : []),
        ...(categoryIds.length ? [eb("posts.category_id", "in", categoryIds)] : []),
      ]),
    );
  }
  return query
    .orderBy(HALF_VOTES_SQL, "desc")
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .limit(limit)
    .execute();
}

/** The site's name as the settings hold it ("" before they are saved). */
export async function findSiteName(db: DbOrTx): Promise<string> {
  const row = await db
    .selectFrom("general_settings")
    .select("website_name")
    .where("id", "=", 1)
    .executeTakeFirst();
  return row?.website_name ?? "";
}
