import { sql, type ExpressionBuilder } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { Database } from "../../db/schema.ts";

/**
 * The one query behind every deal card (home, listings, search, profiles): live posts with their
 * store and author. Callers add their own where, order and paging.
 */
export function dealCardQuery(db: DbOrTx) {
  return db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .leftJoin("users", "users.id", "posts.user_id")
    .where("posts.status", "=", "active")
    .select([
      "posts.id",
      "posts.unique_id",
      "posts.slug",
      "posts.post_type",
      "posts.kind",
      "posts.title",
      "posts.image_url",
      "posts.price",
      "posts.list_price",
      "posts.discount",
      "posts.currency",
      "posts.deal_badge",
      "posts.link",
      "posts.coupon_code",
      "posts.expires_at",
      "posts.is_featured",
      "posts.views",
      "posts.likes_count",
      "posts.unlikes_count",
      "posts.comments_count",
      "posts.created_at",
      "posts.user_id",
      "posts.store_id",
      "posts.category_id",
      "stores.title as store_title",
      "stores.slug as store_slug",
      "users.name as user_name",
      "users.image_url as user_image",
    ]);
}

export type DealCardRow = Awaited<ReturnType<ReturnType<typeof dealCardQuery>["executeTakeFirstOrThrow"]>>;

/** Not expired: no expiry, or an expiry still ahead. */
export function isLive(now: Date) {
  return (eb: ExpressionBuilder<Database, "posts">) =>
    eb.or([eb("posts.expires_at", "is", null), eb("posts.expires_at", ">", now)]);
}

export function findTrendingDeals(db: DbOrTx, now: Date, limit: number) {
  return dealCardQuery(db)
    .where("posts.post_type", "=", "d")
    .where(isLive(now))
    .orderBy("posts.hot_score", "desc")
    .orderBy("posts.id", "desc")
    .limit(limit)
    .execute();
}

export function findRecentDeals(db: DbOrTx, page: number, pageSize: number) {
  return dealCardQuery(db)
    .where("posts.post_type", "=", "d")
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
}

export async function countRecentDeals(db: DbOrTx): Promise<number> {
  const row = await db
    .selectFrom("posts")
    .select(sql<number>`count(*)`.as("total"))
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .executeTakeFirstOrThrow();
  return row.total;
}

export function findTeachersWishlist(db: DbOrTx) {
  return db
    .selectFrom("teachers_wishlist")
    .select(["id", "first_name", "last_name", "school_location", "amazon_wishlist"])
    .orderBy("position")
    .orderBy("id")
    .execute();
}
