/**
 * The console's SQL for stores and categories: lists with their deal counts, writes, old slugs
 * (slug_redirects), and moving deals to another store or category.
 */
import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { keptPostCount } from "../cards/deal-scope.ts";
import type { CatalogKind } from "./console-schema.ts";

const TABLE = { store: "stores", category: "categories" } as const;
const POST_COLUMN = { store: "store_id", category: "category_id" } as const;

export interface CatalogRecord {
  id: number;
  title: string;
  slug: string;
  description: string;
  image_url: string;
  /** Stores only; "" for categories. */
  link: string;
  created_at: Date;
  /** Stores only ("" for categories): where /go sends the store's deals, with {url}. */
  affiliate_template: string;
}

export interface CatalogListRow extends CatalogRecord {
  deals: number;
}

function selectRecord(kind: CatalogKind) {
  return kind === "store"
    ? sql`id, title, slug, description, image_url, link, created_at, affiliate_template`
    : sql`id, title, slug, description, image_url, '' AS link, created_at,
          '' AS affiliate_template`;
}

function searchFilter(search: string) {
  if (!search) return sql`TRUE`;
  const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(title ILIKE ${like} OR slug ILIKE ${like})`;
}

function toRecord(row: Record<string, unknown>): CatalogRecord {
  return {
    id: Number(row.id),
    title: String(row.title),
    slug: String(row.slug),
    description: String(row.description),
    image_url: String(row.image_url),
    link: String(row.link),
    created_at: new Date(row.created_at as Date),
    affiliate_template: String(row.affiliate_template ?? ""),
  };
}

/**
 * One page of stores or categories, alphabetically, with how many posts (of any status) each still
 * has: the counts the database keeps (migration 027, `store:<id>:all`, `category:<id>:all`), one
 * row read each however many posts name it.
 */
export async function findCatalogPage(
  db: DbOrTx,
  kind: CatalogKind,
  search: string,
  offset: number,
  limit: number,
): Promise<{ rows: CatalogListRow[]; total: number }> {
  const table = sql.table(TABLE[kind]);
  const [rows, count] = await Promise.all([
    sql<Record<string, unknown>>`
      SELECT ${selectRecord(kind)},
             ${keptPostCount(kind, `${TABLE[kind]}.id`, "all")} AS deals
      FROM ${table}
      WHERE ${searchFilter(search)}
      ORDER BY lower(title), id
      OFFSET ${offset} LIMIT ${limit}`.execute(db),
    sql<{ total: number | string }>`
      SELECT count(*) AS total FROM ${table} WHERE ${searchFilter(search)}`.execute(db),
  ]);
  return {
    rows: rows.rows.map((row) => ({ ...toRecord(row), deals: Number(row.deals) })),
    total: Number(count.rows[0]?.total ?? 0),
  };
}

/** One store or category; `lock` holds it until the transaction ends. */
export async function findCatalogRecord(
  db: DbOrTx,
  kind: CatalogKind,
  id: number,
  lock = false,
): Promise<CatalogRecord | undefined> {
  const result = await sql<Record<string, unknown>>`
    SELECT ${selectRecord(kind)} FROM ${sql.table(TABLE[kind])} WHERE id = ${id}
    ${lock ? sql`FOR UPDATE` : sql``}`.execute(db);
  const row = result.rows[0];
  return row ? toRecord(row) : undefined;
}

/** The store or category whose current slug this is (another than `exceptId`). */
export async function findBySlug(
  db: DbOrTx,
  kind: CatalogKind,
  slug: string,
  exceptId?: number,
): Promise<{ id: number; title: string } | undefined> {
  const result = await sql<{ id: number | string; title: string }>`
    SELECT id, title FROM ${sql.table(TABLE[kind])}
    WHERE slug = ${slug} ${exceptId === undefined ? sql`` : sql`AND id <> ${exceptId}`}`.execute(
    db,
  );
  const row = result.rows[0];
  return row ? { id: Number(row.id), title: row.title } : undefined;
}

export type CatalogValues = {
  title: string;
  slug: string;
  description: string;
  image_url: string;
  link: string;
  /** Stores only. */
  affiliate_template: string;
};

export async function insertCatalogRecord(
  db: DbOrTx,
  kind: CatalogKind,
  values: CatalogValues,
): Promise<number> {
  const row =
    kind === "store"
      ? await db.insertInto("stores").values(values).returning("id").executeTakeFirstOrThrow()
      : await db
          .insertInto("categories")
          .values({
            title: values.title,
            slug: values.slug,
            description: values.description,
            image_url: values.image_url,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCatalogRecord(
  db: DbOrTx,
  kind: CatalogKind,
  id: number,
  values: CatalogValues,
) {
  if (kind === "store") {
    await db.updateTable("stores").set(values).where("id", "=", id).execute();
    return;
  }
  await db
    .updateTable("categories")
    .set({
      title: values.title,
      slug: values.slug,
      description: values.description,
      image_url: values.image_url,
    })
    .where("id", "=", id)
    .execute();
}

export async function deleteCatalogRecord(db: DbOrTx, kind: CatalogKind, id: number) {
  await sql`DELETE FROM ${sql.table(TABLE[kind])} WHERE id = ${id}`.execute(db);
}

/** How many posts (of any status) still name this store or category. */
export async function countPosts(db: DbOrTx, kind: CatalogKind, id: number): Promise<number> {
  const result = await sql<{ total: number | string }>`
    SELECT count(*) AS total FROM posts WHERE ${sql.ref(POST_COLUMN[kind])} = ${id}`.execute(db);
  return Number(result.rows[0]?.total ?? 0);
}

/** Gives every post of one store or category to another; answers how many moved. */
export async function movePosts(
  db: DbOrTx,
  kind: CatalogKind,
  fromId: number,
  toId: number,
): Promise<number> {
  const result = await sql`
    UPDATE posts SET ${sql.ref(POST_COLUMN[kind])} = ${toId}
    WHERE ${sql.ref(POST_COLUMN[kind])} = ${fromId}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** `oldSlug` answers 301 to the store or category `targetId` from now on. */
export async function keepOldSlug(
  db: DbOrTx,
  kind: CatalogKind,
  oldSlug: string,
  targetId: number,
) {
  await db
    .insertInto("slug_redirects")
    .values({ kind, old_slug: oldSlug, target_id: targetId })
    .onConflict((oc) => oc.columns(["kind", "old_slug"]).doUpdateSet({ target_id: targetId }))
    .execute();
}

/** A slug in use again is nobody's old slug any more. */
export async function forgetOldSlug(db: DbOrTx, kind: CatalogKind, slug: string) {
  await db
    .deleteFrom("slug_redirects")
    .where("kind", "=", kind)
    .where("old_slug", "=", slug)
    .execute();
}

/** The old slugs of a deleted store or category: to the one that took its deals, or gone. */
export async function retargetOldSlugs(
  db: DbOrTx,
  kind: CatalogKind,
  fromId: number,
  toId: number | null,
) {
  if (toId === null) {
    await db
      .deleteFrom("slug_redirects")
      .where("kind", "=", kind)
      .where("target_id", "=", fromId)
      .execute();
    return;
  }
  await db
    .updateTable("slug_redirects")
    .set({ target_id: toId })
    .where("kind", "=", kind)
    .where("target_id", "=", fromId)
    .execute();
}

/** The old slugs that lead to a store or category, newest first (shown in its edit form). */
export async function findOldSlugs(db: DbOrTx, kind: CatalogKind, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom("slug_redirects")
    .select("old_slug")
    .where("kind", "=", kind)
    .where("target_id", "=", id)
    .orderBy("created_at", "desc")
    .orderBy("old_slug")
    .execute();
  return rows.map((row) => row.old_slug);
}
