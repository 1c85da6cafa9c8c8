import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { findAllCategories } from "./store-and-category-lookups.ts";

/** Stores and categories are listed alphabetically (the `lower(title)` indexes), ties by id. */

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

export type CategoryRow = Awaited<ReturnType<typeof findAllCategories>>[number];
