/** The console's SQL for forums and their categories (the public read is ./repository.ts). */
import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { keptPostCount } from "../cards/deal-scope.ts";

const FORUM_COLUMNS = ["id", "title", "slug", "detail", "type", "position"] as const;
const CATEGORY_COLUMNS = ["id", "forum_id", "kind", "title", "position"] as const;

export function findForumRows(db: DbOrTx) {
  return db.selectFrom("forums").select(FORUM_COLUMNS).orderBy("position").orderBy("id").execute();
}

export type ForumRecord = Awaited<ReturnType<typeof findForumRows>>[number];

/** Every forum category with how many posts (of any status) it holds. */
export function findCategoryRows(db: DbOrTx) {
  return db
    .selectFrom("forum_categories")
    .select([
      ...CATEGORY_COLUMNS,
      keptPostCount("forum-category", "forum_categories.id", "all").as("posts"),
    ])
    .orderBy("position")
    .orderBy("id")
    .execute();
}

export function findForum(db: DbOrTx, id: number, lock = false) {
  const query = db.selectFrom("forums").select(FORUM_COLUMNS).where("id", "=", id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export function findForumBySlug(db: DbOrTx, slug: string) {
  return db
    .selectFrom("forums")
    .select(["id", "title"])
    .where("slug", "=", slug)
    .executeTakeFirst();
}

export type ForumValues = {
  title: string;
  slug: string;
  detail: string;
  type: "d" | "g";
};

export async function insertForum(db: DbOrTx, values: ForumValues, position: number) {
  const row = await db
    .insertInto("forums")
    .values({ ...values, position })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function updateForum(db: DbOrTx, id: number, values: ForumValues) {
  await db.updateTable("forums").set(values).where("id", "=", id).execute();
}

export async function deleteForum(db: DbOrTx, id: number) {
  await db.deleteFrom("forums").where("id", "=", id).execute();
}

export async function countForumCategories(db: DbOrTx, forumId: number): Promise<number> {
  const row = await db
    .selectFrom("forum_categories")
    .select(sql<string>`count(*)`.as("total"))
    .where("forum_id", "=", forumId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export function findCategory(db: DbOrTx, id: number, lock = false) {
  const query = db.selectFrom("forum_categories").select(CATEGORY_COLUMNS).where("id", "=", id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

export type ForumCategoryRecord = NonNullable<Awaited<ReturnType<typeof findCategory>>>;

export async function insertCategory(
  db: DbOrTx,
  values: { forum_id: number; kind: "deal" | "discussion"; title: string },
  position: number,
) {
  const row = await db
    .insertInto("forum_categories")
    .values({ ...values, position })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function renameCategory(db: DbOrTx, id: number, title: string) {
  await db.updateTable("forum_categories").set({ title }).where("id", "=", id).execute();
}

export async function deleteCategory(db: DbOrTx, id: number) {
  await db.deleteFrom("forum_categories").where("id", "=", id).execute();
}

export async function countCategoryPosts(db: DbOrTx, categoryId: number): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select(sql<string>`count(*)`.as("total"))
    .where("forum_category_id", "=", categoryId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** Gives every post of one forum category to another; answers how many moved. */
export async function moveCategoryPosts(db: DbOrTx, fromId: number, toId: number) {
  const result = await db
    .updateTable("posts")
    .set({ forum_category_id: toId })
    .where("forum_category_id", "=", fromId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
