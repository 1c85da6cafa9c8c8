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
 * The id of the store or category a slug names: the row whose slug it is, or else the one an old
 * slug of a renamed (or merged) row leads to (slug_redirects).
 */
function slugTarget(kind: "store" | "category", slug: string) {
  const table = kind === "store" ? "stores" : "categories";
  return sql<number>`coalesce(
    (SELECT id FROM ${sql.table(table)} WHERE slug = ${slug}),
    (SELECT target_id FROM slug_redirects WHERE kind = ${kind} AND old_slug = ${slug}))`;
}

/** The store a slug names, its own or an old one; the caller compares the slugs to answer 301. */
export function findStoreBySlug(db: DbOrTx, slug: string) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "slug", "link", "image_url", "description"])
    .where("id", "=", slugTarget("store", slug))
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
export function findCategoryBySlug(db: DbOrTx, slug: string) {
  return db
    .selectFrom("categories")
    .select(["id", "title", "slug", "image_url", "description"])
    .where("id", "=", slugTarget("category", slug))
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
