import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { followerCount } from "./member-follow-query.ts";
import type { FollowScope } from "./schema.ts";

export function findStore(db: DbOrTx, id: number) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug"])
    .where("id", "=", id)
    .executeTakeFirst();
}

export function findCategory(db: DbOrTx, id: number) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** Stops following; true when the member did follow it. */
export async function deleteFollow(db: DbOrTx, scope: FollowScope, userId: number, id: number) {
  const result =
    scope === "store"
      ? await db
          .deleteFrom("store_follows")
          .where("user_id", "=", userId)
          .where("store_id", "=", id)
          .executeTakeFirst()
      : await db
          .deleteFrom("category_follows")
          .where("user_id", "=", userId)
          .where("category_id", "=", id)
          .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertFollow(
  db: DbOrTx,
  scope: FollowScope,
  userId: number,
  id: number,
  at: Date,
) {
  if (scope === "store") {
    await db
      .insertInto("store_follows")
      .values({ user_id: userId, store_id: id, created_at: at })
      .onConflict((oc) => oc.columns(["user_id", "store_id"]).doNothing())
      .execute();
  } else {
    await db
      .insertInto("category_follows")
      .values({ user_id: userId, category_id: id, created_at: at })
      .onConflict((oc) => oc.columns(["user_id", "category_id"]).doNothing())
      .execute();
  }
}

export async function countFollows(db: DbOrTx, scope: FollowScope, userId: number) {
  const table = scope === "store" ? "store_follows" : "category_follows";
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function isFollowing(db: DbOrTx, scope: FollowScope, userId: number, id: number) {
  const row =
    scope === "store"
      ? await db
          .selectFrom("store_follows")
          .select("user_id")
          .where("user_id", "=", userId)
          .where("store_id", "=", id)
          .executeTakeFirst()
      : await db
          .selectFrom("category_follows")
          .select("user_id")
          .where("user_id", "=", userId)
          .where("category_id", "=", id)
          .executeTakeFirst();
  return row !== undefined;
}

/** Which of `storeIds` the member follows. */
export async function findFollowedStoresAmong(db: DbOrTx, userId: number, storeIds: number[]) {
  if (storeIds.length === 0) return [];
  const rows = await db
    .selectFrom("store_follows")
    .select("store_id")
    .where("user_id", "=", userId)
    .where("store_id", "in", storeIds)
    .execute();
  return rows.map((row) => row.store_id);
}

/** Whether the member follows anything the feed draws from: a store, a category or a member. */
export async function followsAnything(db: DbOrTx, userId: number): Promise<boolean> {
  const row = await sql<{ any: boolean }>`
    SELECT EXISTS (SELECT 1 FROM store_follows WHERE user_id = ${userId})
        OR EXISTS (SELECT 1 FROM category_follows WHERE user_id = ${userId})
        OR EXISTS (SELECT 1 FROM follows WHERE follower_id = ${userId}) AS any`.execute(db);
  return row.rows[0]?.any === true;
}

/**
 * The newest `limit` public deals of everything the member follows, newest first, as ids. Each
 * followed store, category and member is one ordered walk of its index (posts_store_idx,
 * posts_category_idx, posts_feed_user_idx), stopped after `limit` entries; the walks are merged,
 * a deal reached twice (a followed store's deal in a followed category) counted once, and cut at
 * `limit`. The cost is bounded by the follows times `limit`, never by the number of posts
 * (docs/decisions/0043-saved-deals-and-feed.md).
 */
export async function findFeedIds(db: DbOrTx, userId: number, limit: number): Promise<number[]> {
  const result = await sql<{ id: number }>`
    SELECT id FROM (
      SELECT DISTINCT walk.id, walk.created_at FROM (
        SELECT p.id, p.created_at
          FROM store_follows f
          CROSS JOIN LATERAL (
            SELECT posts.id, posts.created_at FROM posts
             WHERE posts.store_id = f.store_id AND posts.status = 'active'
             ORDER BY posts.created_at DESC, posts.id DESC
             LIMIT ${limit}) p
         WHERE f.user_id = ${userId}
        UNION ALL
        SELECT p.id, p.created_at
          FROM category_follows f
          CROSS JOIN LATERAL (
            SELECT posts.id, posts.created_at FROM posts
             WHERE posts.category_id = f.category_id AND posts.status = 'active'
             ORDER BY posts.created_at DESC, posts.id DESC
             LIMIT ${limit}) p
         WHERE f.user_id = ${userId}
        UNION ALL
        SELECT p.id, p.created_at
          FROM follows f
          CROSS JOIN LATERAL (
            SELECT posts.id, posts.created_at FROM posts
             WHERE posts.user_id = f.followee_id AND posts.status = 'active'
               AND posts.post_type = 'd'
             ORDER BY posts.created_at DESC, posts.id DESC
             LIMIT ${limit}) p
         WHERE f.follower_id = ${userId}
      ) walk
    ) merged
    ORDER BY created_at DESC, id DESC
    LIMIT ${limit}`.execute(db);
  return result.rows.map((row) => Number(row.id));
}

/**
 * The stores with the most live deals (the counts the database keeps, migration 022), leaving
 * out those the member follows: an empty feed's suggestions.
 */
export async function findPopularStores(db: DbOrTx, userId: number, limit: number) {
  const result = await sql<{
    id: number;
    title: string;
    slug: string;
    image_url: string;
    live_deals: string;
  }>`
    SELECT s.id, s.title, s.slug, s.image_url, c.total AS live_deals
      FROM post_scope_counts c
      JOIN stores s ON c.scope = 'store:' || s.id || ':live'
     WHERE c.scope LIKE 'store:%:live' AND c.total > 0
       AND NOT EXISTS (SELECT 1 FROM store_follows f WHERE f.user_id = ${userId} AND f.store_id = s.id)
     ORDER BY c.total DESC, s.id
     LIMIT ${limit}`.execute(db);
  return result.rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    slug: row.slug,
    image_url: row.image_url,
    live_deals: Number(row.live_deals),
  }));
}

/** The stores and categories the member follows, by title. */
export async function findFollowedScopes(db: DbOrTx, userId: number) {
  const [stores, categories] = await Promise.all([
    db
      .selectFrom("store_follows")
      .innerJoin("stores", "stores.id", "store_follows.store_id")
      .select(["stores.id", "stores.title", "stores.slug"])
      .where("store_follows.user_id", "=", userId)
      .orderBy(sql`lower(stores.title)`)
      .execute(),
    db
      .selectFrom("category_follows")
      .innerJoin("categories", "categories.id", "category_follows.category_id")
      .select(["categories.id", "categories.title", "categories.slug"])
      .where("category_follows.user_id", "=", userId)
      .orderBy(sql`lower(categories.title)`)
      .execute(),
  ]);
  return { stores, categories };
}

// Members ---------------------------------------------------------------------------------------

/** A member one may follow (not deleted): their name, and how many follow them. */
export function findFollowee(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select((eb) => ["users.name", followerCount(eb)])
    .where("users.id", "=", userId)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
}

export async function followMember(db: DbOrTx, followerId: number, followeeId: number) {
  await db
    .insertInto("follows")
    .values({ follower_id: followerId, followee_id: followeeId })
    .onConflict((oc) => oc.columns(["follower_id", "followee_id"]).doNothing())
    .execute();
}

export async function unfollowMember(db: DbOrTx, followerId: number, followeeId: number) {
  await db
    .deleteFrom("follows")
    .where("follower_id", "=", followerId)
    .where("followee_id", "=", followeeId)
    .execute();
}
