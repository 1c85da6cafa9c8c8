import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { PostType } from "../../db/schema.ts";
import { dealCardQuery, isLive } from "../cards/deal-card-query.ts";

/** What a feed lists: every deal, or one store's or one category's. */
export type FeedScope =
  { kind: "all" } | { kind: "store"; storeId: number } | { kind: "category"; categoryId: number };

/**
 * The newest live deals of a feed with a text excerpt, newest first: a walk down
 * posts_recent_idx, posts_store_idx or posts_category_idx that stops after `limit` rows.
 */
export function findFeedDeals(db: DbOrTx, scope: FeedScope, now: Date, limit: number) {
  let query = dealCardQuery(db)
    .select(["posts.description_text", "posts.updated_at"])
    .where(isLive(now));
  if (scope.kind === "store") query = query.where("posts.store_id", "=", scope.storeId);
  else if (scope.kind === "category")
    query = query.where("posts.category_id", "=", scope.categoryId);
  else query = query.where("posts.post_type", "=", "d");
  return query
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .limit(limit)
    .execute();
}

export type FeedDealRow = Awaited<ReturnType<typeof findFeedDeals>>[number];

/** Sitemap chunks: rows with ids in [chunk · size + 1, (chunk + 1) · size]. */
function chunkRange(chunk: number, size: number): [number, number] {
  return [chunk * size + 1, (chunk + 1) * size];
}

/** The chunks of live posts of a type that hold at least one post, with their newest change. */
export function findPostChunks(db: DbOrTx, postType: PostType, size: number) {
  return db
    .selectFrom("posts")
    .select([
      sql<number>`((posts.id - 1) / ${size})::int`.as("chunk"),
      sql<Date>`max(posts.updated_at)`.as("lastmod"),
    ])
    .where("posts.status", "=", "active")
    .where("posts.post_type", "=", postType)
    .groupBy(sql`1`)
    .orderBy(sql`1`)
    .execute();
}

/** One chunk of live posts of a type, by primary-key range. */
export function findPostsInChunk(db: DbOrTx, postType: PostType, chunk: number, size: number) {
  const [from, to] = chunkRange(chunk, size);
  return db
    .selectFrom("posts")
    .select(["posts.unique_id", "posts.slug", "posts.post_type", "posts.updated_at"])
    .where("posts.id", ">=", from)
    .where("posts.id", "<=", to)
    .where("posts.status", "=", "active")
    .where("posts.post_type", "=", postType)
    .orderBy("posts.id")
    .execute();
}

/** The chunks of a catalogue table that hold at least one row (ids from its primary key). */
export async function findCatalogChunks(db: DbOrTx, table: "stores" | "categories", size: number) {
  const row = await db
    .selectFrom(table)
    .select([sql<number | null>`min(id)`.as("min"), sql<number | null>`max(id)`.as("max")])
    .executeTakeFirstOrThrow();
  if (row.min === null || row.max === null) return [];
  const chunks: number[] = [];
  for (let c = Math.floor((row.min - 1) / size); c <= Math.floor((row.max - 1) / size); c++)
    chunks.push(c);
  return chunks;
}

/**
 * One chunk of stores, each with the time of its newest live deal (one probe of posts_store_idx
 * per store): a store's page changes when a deal is added.
 */
export function findStoresInChunk(db: DbOrTx, chunk: number, size: number) {
  const [from, to] = chunkRange(chunk, size);
  return db
    .selectFrom("stores")
    .select([
      "stores.slug",
      "stores.created_at",
      (eb) =>
        eb
          .selectFrom("posts")
          .select("posts.created_at")
          .whereRef("posts.store_id", "=", "stores.id")
          .where("posts.status", "=", "active")
          .orderBy("posts.created_at", "desc")
          .limit(1)
          .as("newest_post"),
    ])
    .where("stores.id", ">=", from)
    .where("stores.id", "<=", to)
    .orderBy("stores.id")
    .execute();
}

/** One chunk of categories, each with the time of its newest live deal (posts_category_idx). */
export function findCategoriesInChunk(db: DbOrTx, chunk: number, size: number) {
  const [from, to] = chunkRange(chunk, size);
  return db
    .selectFrom("categories")
    .select([
      "categories.slug",
      "categories.created_at",
      (eb) =>
        eb
          .selectFrom("posts")
          .select("posts.created_at")
          .whereRef("posts.category_id", "=", "categories.id")
          .where("posts.status", "=", "active")
          .orderBy("posts.created_at", "desc")
          .limit(1)
          .as("newest_post"),
    ])
    .where("categories.id", ">=", from)
    .where("categories.id", "<=", to)
    .orderBy("categories.id")
    .execute();
}

/** When the newest live post of a type was created (the head of posts_recent_idx). */
export async function findNewestPostTime(db: DbOrTx, postType: PostType): Promise<Date | null> {
  const row = await db
    .selectFrom("posts")
    .select("created_at")
    .where("status", "=", "active")
    .where("post_type", "=", postType)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** The pages the site owner wrote (the privacy policy and the console's others), by slug. */
export function findCmsPageDates(db: DbOrTx) {
  return db.selectFrom("cms_pages").select(["slug", "updated_at"]).orderBy("slug").execute();
}
