import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { Database, PostUpdate } from "../../db/schema.ts";
import { idInText } from "../list-query.ts";
import { containsPattern } from "../like-pattern.ts";
import { POST_STATUSES, POST_TYPES, type PostListInput, type PostSort } from "./console-schema.ts";

/**
 * The console's filters; `authorIds` are the members the author filter matched
 * (findAuthorIds), or null when too many did and the filter is applied as a join.
 */
export type ConsolePostFilter = Omit<PostListInput, "page" | "sort"> & {
  authorIds?: readonly number[] | null;
};
type Filter = ConsolePostFilter;
type PostsQuery<O> = SelectQueryBuilder<Database, "posts" | "users", O>;

/** The author filter: the member's id, or part of their name or email address. */
function matchesAuthor(author: string) {
  const id = idInText(author);
  return (eb: ExpressionBuilder<Database, "users">) =>
    eb.or([
      ...(id === null ? [] : [eb("users.id", "=", id)]),
      eb("users.name", "ilike", containsPattern(author)),
      eb("users.email", "ilike", containsPattern(author)),
    ]);
}

/** Up to this many members matched by the author filter, their posts are looked up by member. */
export const AUTHOR_IDS_MAX = 200;

/**
 * The members the author filter (an id, or part of a name or address) matches: null when there
 * are more than AUTHOR_IDS_MAX. Looking them up first lets the posts be read by member
 * (posts_user_idx) and an author nobody matches answer at once; as one join with the posts, a
 * rare author made the newest-first list walk every post (3.6 s at a million deals).
 */
export async function findAuthorIds(db: DbOrTx, author: string): Promise<number[] | null> {
  const rows = await db
    .selectFrom("users")
    .select("users.id")
    .where(matchesAuthor(author))
    .limit(AUTHOR_IDS_MAX + 1)
    .execute();
  return rows.length > AUTHOR_IDS_MAX ? null : rows.map((row) => row.id);
}

/** Every post (all states) with its author, narrowed by the console's filters. */
function filtered(db: DbOrTx, filter: Filter) {
  let query = db.selectFrom("posts").leftJoin("users", "users.id", "posts.user_id");
  if (filter.q) {
    const q = filter.q;
    query = query.where((eb) =>
      eb.or([eb("posts.unique_id", "=", q), eb("posts.title", "ilike", containsPattern(q))]),
    );
  }
  if (filter.status) query = query.where("posts.status", "=", filter.status);
  if (filter.type) query = query.where("posts.post_type", "=", filter.type);
  if (filter.store_id) query = query.where("posts.store_id", "=", filter.store_id);
  if (filter.category_id) query = query.where("posts.category_id", "=", filter.category_id);
  if (filter.author && filter.authorIds) {
    // No member matched: a constant false, which the database answers without reading posts.
    query = filter.authorIds.length
      ? query.where("posts.user_id", "in", filter.authorIds)
      : query.where(sql<boolean>`false`);
  } else if (filter.author) {
    query = query.where(matchesAuthor(filter.author));
  }
  return query;
}

function sorted<O>(query: PostsQuery<O>, sort: PostSort): PostsQuery<O> {
  switch (sort) {
    case "oldest":
      return query.orderBy("posts.created_at", "asc").orderBy("posts.id", "asc");
    case "most_liked":
      return query.orderBy("posts.likes_count", "desc").orderBy("posts.id", "desc");
    case "most_comments":
      return query.orderBy("posts.comments_count", "desc").orderBy("posts.id", "desc");
    case "hottest":
      return query.orderBy("posts.hot_score", "desc").orderBy("posts.id", "desc");
    default:
      return query.orderBy("posts.created_at", "desc").orderBy("posts.id", "desc");
  }
}

/**
 * How many posts the console's filters match. Filtered by status and type alone (or not at all,
 * the console's first view), it sums the counts the database keeps by status and type (migration
 * 027: `status:<status>:<type>`), a few rows read instead of every post; a search, a store, a
 * category or an author is counted, each narrowed by its own index.
 */
export async function countPosts(db: DbOrTx, filter: Filter) {
  if (!filter.q && !filter.store_id && !filter.category_id && !filter.author) {
    const keys = (filter.status ? [filter.status] : POST_STATUSES).flatMap((status) =>
      (filter.type ? [filter.type] : POST_TYPES).map((type) => `status:${status}:${type}`),
    );
    const kept = await db
      .selectFrom("post_scope_counts")
      .select(sql<string>`coalesce(sum(total), 0)`.as("total"))
      .where("scope", "in", keys)
      .executeTakeFirstOrThrow();
    return Number(kept.total);
  }
  const row = await filtered(db, filter)
    .select(sql<number>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** One page of the console's posts list. */
export function findPosts(
  db: DbOrTx,
  filter: Filter,
  sort: PostSort,
  page: { limit: number; offset: number },
) {
  const query = filtered(db, filter)
    .leftJoin("stores", "stores.id", "posts.store_id")
    .leftJoin("categories", "categories.id", "posts.category_id")
    .select([
      "posts.id",
      "posts.unique_id",
      "posts.slug",
      "posts.post_type",
      "posts.kind",
      "posts.title",
      "posts.status",
      "posts.moderation_reason",
      "posts.is_featured",
      "posts.expires_at",
      "posts.created_at",
      "posts.likes_count",
      "posts.unlikes_count",
      "posts.comments_count",
      "posts.views",
      "posts.store_id",
      "posts.category_id",
      "posts.user_id",
      "stores.title as store_title",
      "categories.title as category_title",
      "users.name as user_name",
      "users.deleted_at as user_deleted_at",
    ]);
  return sorted(query, sort).limit(page.limit).offset(page.offset).execute();
}

export type ConsolePostRow = Awaited<ReturnType<typeof findPosts>>[number];

const EDITABLE = [
  "posts.id",
  "posts.unique_id",
  "posts.slug",
  "posts.post_type",
  "posts.kind",
  "posts.status",
  "posts.user_id",
  "posts.title",
  "posts.description",
  "posts.price",
  "posts.list_price",
  "posts.discount",
  "posts.link",
  "posts.link_key",
  "posts.coupon_code",
  "posts.store_id",
  "posts.category_id",
  "posts.forum_category_id",
  "posts.expires_at",
  "posts.deal_badge",
  "posts.is_featured",
  "posts.image_url",
  "posts.comments_count",
  "posts.likes_count",
  "posts.unlikes_count",
  "posts.created_at",
] as const;

/** A post of any state with every field the console edits. */
export function findPostForEdit(db: DbOrTx, uniqueId: string) {
  return db
    .selectFrom("posts")
    .select(EDITABLE)
    .where("posts.unique_id", "=", uniqueId)
    .executeTakeFirst();
}

export type EditablePost = NonNullable<Awaited<ReturnType<typeof findPostForEdit>>>;

/**
 * The posts with these unique_ids, locked until the transaction ends, in id order (so two bulk
 * calls over the same posts take their locks in the same order).
 */
export function lockPosts(db: DbOrTx, uniqueIds: string[]) {
  return db
    .selectFrom("posts")
    .select(EDITABLE)
    .where("posts.unique_id", "in", uniqueIds)
    .orderBy("posts.id")
    .forUpdate()
    .execute();
}

/** Every post of one member, locked in id order, as lockPosts reads them. */
export function lockPostsOfAuthor(db: DbOrTx, userId: number) {
  return db
    .selectFrom("posts")
    .select(EDITABLE)
    .where("posts.user_id", "=", userId)
    .orderBy("posts.id")
    .forUpdate()
    .execute();
}

export function updatePost(db: DbOrTx, postId: number, patch: PostUpdate) {
  return db.updateTable("posts").set(patch).where("id", "=", postId).execute();
}

/** Which of these ids name a row of the table (stores, categories). */
export async function existingIds(db: DbOrTx, table: "stores" | "categories", ids: number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await db.selectFrom(table).select("id").where("id", "in", ids).execute();
  return new Set(rows.map((row) => row.id));
}

export function findForumCategory(db: DbOrTx, id: number, kind: "deal" | "discussion") {
  return db
    .selectFrom("forum_categories")
    .select("id")
    .where("id", "=", id)
    .where("kind", "=", kind)
    .executeTakeFirst();
}

/** The post the navigation bar's Educators link points at (general settings), or "". */
export async function findEducatorPostUniqueId(db: DbOrTx) {
  const row = await db
    .selectFrom("general_settings")
    .select("educator_post_unique_id")
    .executeTakeFirst();
  return row?.educator_post_unique_id ?? "";
}

/** The ids of every comment of these posts (their open reports are settled with the posts). */
export async function findCommentIds(db: DbOrTx, postIds: number[]) {
  const rows = await db
    .selectFrom("comments")
    .select("id")
    .where("post_id", "in", postIds)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Deletes posts for good. Their comments, likes and views go with them (ON DELETE CASCADE of
 * migration 001). Returns what each deleted post had, for the audit log and the image files.
 */
export async function deletePosts(db: DbOrTx, postIds: number[]) {
  const counts = await db
    .selectFrom("posts")
    .select([
      "posts.id",
      (eb) =>
        eb
          .selectFrom("comments")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("comments.post_id", "=", "posts.id")
          .as("comment_rows"),
      (eb) =>
        eb
          .selectFrom("likes")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("likes.post_id", "=", "posts.id")
          .as("like_rows"),
      (eb) =>
        eb
          .selectFrom("post_views")
          .select(sql<number>`count(*)`.as("n"))
          .whereRef("post_views.post_id", "=", "posts.id")
          .as("view_rows"),
    ])
    .where("posts.id", "in", postIds)
    .execute();
  await db.deleteFrom("posts").where("id", "in", postIds).execute();
  return new Map(
    counts.map((row) => [
      row.id,
      {
        comments: Number(row.comment_rows ?? 0),
        likes: Number(row.like_rows ?? 0),
        views: Number(row.view_rows ?? 0),
      },
    ]),
  );
}

/**
 * Settles the open reports of items that no longer exist: resolved, by the staff member who
 * deleted them (null: their author, deleting their account), with the resolution "deleted".
 */
export async function resolveReportsOfDeleted(
  db: DbOrTx,
  items: { itemType: "d" | "g" | "comment"; itemIds: string[] }[],
  actorId: number | null,
  at: Date,
) {
  for (const { itemType, itemIds } of items) {
    if (itemIds.length === 0) continue;
    await db
      .updateTable("reports")
      .set({ status: "resolved", resolution: "deleted", resolved_by: actorId, resolved_at: at })
      .where("status", "=", "open")
      .where("item_type", "=", itemType)
      .where("item_id", "in", itemIds)
      .execute();
  }
}
