import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { NewPost } from "../../../db/schema.ts";
import { isLive } from "../../cards/deal-card-query.ts";

/** The choices of the Submit Deals forms, each list in the order the site shows it. */
export async function findSubmitOptions(db: DbOrTx) {
  const [forumCategories, stores, categories] = await Promise.all([
    db
      .selectFrom("forum_categories")
      .select(["id", "title", "kind"])
      .orderBy("kind")
      .orderBy("position")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("stores")
      .select(["id", "title"])
      .orderBy(sql`lower(title)`)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("categories")
      .select(["id", "title"])
      .orderBy(sql`lower(title)`)
      .orderBy("id")
      .execute(),
  ]);
  return { forumCategories, stores, categories };
}

export function findForumCategory(db: DbOrTx, id: number, kind: "deal" | "discussion") {
  return db
    .selectFrom("forum_categories")
    .select(["id", "title"])
    .where("id", "=", id)
    .where("kind", "=", kind)
    .executeTakeFirst();
}

export function findStore(db: DbOrTx, id: number) {
  return db.selectFrom("stores").select(["id", "title"]).where("id", "=", id).executeTakeFirst();
}

export function findCategory(db: DbOrTx, id: number) {
  return db
    .selectFrom("categories")
    .select(["id", "title"])
    .where("id", "=", id)
    .executeTakeFirst();
}

/** A live deal with the same normalised link (served by posts_link_key_idx). */
export function findLiveDealByLinkKey(db: DbOrTx, linkKey: string, now: Date) {
  return db
    .selectFrom("posts")
    .select(["unique_id", "slug", "title"])
    .where("link_key", "=", linkKey)
    .where("link_key", "<>", "")
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .where(isLive(now))
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}

/**
 * Serialises submissions of the same link until the transaction ends, so two people posting the
 * same deal at the same moment cannot both pass the duplicate check.
 */
export async function lockLinkKey(tx: DbOrTx, linkKey: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`post-link:${linkKey}`}, 0))`.execute(
    tx,
  );
}

export function insertPost(tx: DbOrTx, post: Omit<NewPost, "hot_score">) {
  return tx
    .insertInto("posts")
    .values({
      ...post,
      // A new post starts with no engagement: its score is its age term alone.
      hot_score: sql<number>`post_hot_score(0, 0, 0, 0, ${post.created_at})`,
    })
    .returning(["id", "unique_id", "slug", "title", "post_type", "kind", "status"])
    .executeTakeFirstOrThrow();
}
