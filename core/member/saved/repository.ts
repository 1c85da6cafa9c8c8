import type { DbOrTx } from "../../../db/index.ts";
import { idIn, prepared } from "../../../db/prepared.ts";

/** The post a unique_id names, with what saving it depends on. */
export function findPostByUniqueId(db: DbOrTx, uniqueId: string) {
  return db
    .selectFrom("posts")
    .select(["id", "unique_id", "post_type", "status"])
    .where("unique_id", "=", uniqueId)
    .executeTakeFirst();
}

/** Takes a save back; true when there was one. */
export async function deleteSave(db: DbOrTx, userId: number, postId: number): Promise<boolean> {
  const result = await db
    .deleteFrom("saved_deals")
    .where("user_id", "=", userId)
    .where("post_id", "=", postId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function insertSave(db: DbOrTx, userId: number, postId: number, at: Date) {
  await db
    .insertInto("saved_deals")
    .values({ user_id: userId, post_id: postId, created_at: at })
    .onConflict((oc) => oc.columns(["user_id", "post_id"]).doNothing())
    .execute();
}

/** Every save of the member, public or not (the bound on how many one may keep). */
export async function countAllSaves(db: DbOrTx, userId: number): Promise<number> {
  const row = await db
    .selectFrom("saved_deals")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Saved deals that are public (the list shows only those), newest saved first. */
function publicSaves(db: DbOrTx, userId: number) {
  return db
    .selectFrom("saved_deals")
    .innerJoin("posts", "posts.id", "saved_deals.post_id")
    .where("saved_deals.user_id", "=", userId)
    .where("posts.status", "=", "active")
    .where("posts.post_type", "=", "d");
}

export async function countPublicSaves(db: DbOrTx, userId: number): Promise<number> {
  const row = await publicSaves(db, userId)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the member's public saved deals' ids, newest saved first. */
export async function findSavedIds(
  db: DbOrTx,
  userId: number,
  offset: number,
  limit: number,
): Promise<number[]> {
  const rows = await publicSaves(db, userId)
    .select("saved_deals.post_id")
    .orderBy("saved_deals.created_at", "desc")
    .orderBy("saved_deals.post_id", "desc")
    .offset(offset)
    .limit(limit)
    .execute();
  return rows.map((row) => row.post_id);
}

/** Which of `postIds` the member has saved. */
export async function findSavedAmong(db: DbOrTx, userId: number, postIds: number[]) {
  if (postIds.length === 0) return [];
  const rows = await prepared(db.selectFrom("saved_deals"))
    .select("post_id")
    .where("user_id", "=", userId)
    .where(idIn("post_id", postIds))
    .orderBy("post_id")
    .execute();
  return rows.map((row) => row.post_id);
}

/** Whether the member saved the post a unique_id names (the deal page's Save button). */
export async function hasSaved(db: DbOrTx, userId: number, uniqueId: string): Promise<boolean> {
  const row = await prepared(db.selectFrom("saved_deals"))
    .innerJoin("posts", "posts.id", "saved_deals.post_id")
    .select("saved_deals.post_id")
    .where("saved_deals.user_id", "=", userId)
    .where("posts.unique_id", "=", uniqueId)
    .executeTakeFirst();
  return row !== undefined;
}
