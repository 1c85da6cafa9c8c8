/**
 * Stores and categories looked up by slug (old slugs included) or id, and the full store and
 * category lists (alphabetical by the `lower(title)` index, ties by id): read by the catalog's own pages and by the listing pages (a
 * store's or a category's deals, the filter panel).
 */
import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";

export function findAllStores(db: DbOrTx) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug", "link", "image_url"])
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .execute();
}

export function findAllCategories(db: DbOrTx) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug", "image_url"])
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .execute();
}

/**
 * The store a slug names: the store whose slug it is, or the one an old slug of a renamed (or
 * merged) store leads to (slug_redirects). The caller compares the slugs to answer 301.
 */
export async function findStoreBySlug(db: DbOrTx, slug: string) {
  const columns = ["id", "title", "slug", "link", "image_url", "description"] as const;
  const live = await db
    .selectFrom("stores")
    .select(columns)
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (live) return live;
  return db
    .selectFrom("slug_redirects")
    .innerJoin("stores", "stores.id", "slug_redirects.target_id")
    .select(columns.map((column) => `stores.${column}` as const))
    .where("slug_redirects.kind", "=", "store")
    .where("slug_redirects.old_slug", "=", slug)
    .executeTakeFirst();
}

export function findStoresByIds(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug", "link", "image_url", "description"])
    .where("id", "in", ids)
    .execute();
}

/** The category a slug names, its own or an old one (as findStoreBySlug). */
export async function findCategoryBySlug(db: DbOrTx, slug: string) {
  const columns = ["id", "title", "slug", "image_url", "description"] as const;
  const live = await db
    .selectFrom("categories")
    .select(columns)
    .where("slug", "=", slug)
    .executeTakeFirst();
  if (live) return live;
  return db
    .selectFrom("slug_redirects")
    .innerJoin("categories", "categories.id", "slug_redirects.target_id")
    .select(columns.map((column) => `categories.${column}` as const))
    .where("slug_redirects.kind", "=", "category")
    .where("slug_redirects.old_slug", "=", slug)
    .executeTakeFirst();
}

export function findCategoryById(db: DbOrTx, id: number) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug", "image_url", "description"])
    .where("id", "=", id)
    .executeTakeFirst();
}

export type StoreRow = Awaited<ReturnType<typeof findAllStores>>[number];
export type StoreDetailRow = NonNullable<Awaited<ReturnType<typeof findStoreBySlug>>>;
export type CategoryDetailRow = NonNullable<Awaited<ReturnType<typeof findCategoryBySlug>>>;
