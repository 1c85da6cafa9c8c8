import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";

/** Stores and categories are listed alphabetically (the `lower(title)` indexes), ties by id. */

export function findAllStores(db: DbOrTx) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug", "link", "image_url"])
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .execute();
}

export function findStoresPage(db: DbOrTx, offset: number, limit: number) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug", "link", "image_url"])
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countStores(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom("stores")
    .select(sql<number>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return row.total;
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

export function findAllCategories(db: DbOrTx) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug", "image_url"])
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .execute();
}

export function findCategoriesPage(db: DbOrTx, offset: number, limit: number) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug", "image_url"])
    .orderBy(sql`lower(title)`)
    .orderBy("id")
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function countCategories(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom("categories")
    .select(sql<number>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return row.total;
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
export type CategoryRow = Awaited<ReturnType<typeof findAllCategories>>[number];
export type CategoryDetailRow = NonNullable<Awaited<ReturnType<typeof findCategoryBySlug>>>;
