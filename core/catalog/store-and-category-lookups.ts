/**
 * Stores and categories looked up by slug or id, and the full store list (alphabetical by the
 * `lower(title)` index, ties by id): read by the catalog's own pages and by the listing pages (a
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

export function findStoreBySlug(db: DbOrTx, slug: string) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug", "link", "image_url", "description"])
    .where("slug", "=", slug)
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

export function findCategoryBySlug(db: DbOrTx, slug: string) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug", "image_url", "description"])
    .where("slug", "=", slug)
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
