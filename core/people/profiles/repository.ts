import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { PostType } from "../../../db/schema.ts";
import { prepared } from "../../../db/prepared.ts";
import { ACTIVE, findCardsByIds } from "../../cards/deal-card-query.ts";
import { keptPostCount } from "../../cards/deal-scope.ts";
import { followerCount } from "../../member/follows/member-follow-query.ts";

/**
 * A live (not deleted) user with every count a profile shows, in one round trip. The post counts
 * are kept by the database (keptPostCount); the follow counts use the follows primary key and
 * follows_followee_idx.
 */
export function findProfileUser(db: DbOrTx, userId: number) {
  return prepared(db.selectFrom("users"))
    .where("users.id", "=", userId)
    .where("users.deleted_at", "is", null)
    .select((eb) => [
      "users.id",
      "users.name",
      "users.email",
      "users.user_type",
      "users.image_url",
      // As text: node-postgres would turn a date into a local-time Date object.
      sql<string | null>`to_char(users.dob, 'YYYY-MM-DD')`.as("dob"),
      "users.gender",
      "users.biography",
      "users.mobile",
      "users.website",
      "users.address",
      "users.created_at",
      "users.verified_educator",
      keptPostCount("user", "users.id", "deal").as("deal_count"),
      keptPostCount("user", "users.id", "coupon").as("coupon_count"),
      followerCount(eb),
      eb
        .selectFrom("follows")
        .innerJoin("users as f", "f.id", "follows.followee_id")
        .select(sql<number>`count(*)`.as("n"))
        .whereRef("follows.follower_id", "=", "users.id")
        .where("f.deleted_at", "is", null)
        .as("followings"),
    ])
    .executeTakeFirst();
}

export type ProfileUserRow = NonNullable<Awaited<ReturnType<typeof findProfileUser>>>;

/** The newest followers of a user (follows_followee_idx). */
export function findFollowers(db: DbOrTx, userId: number, limit: number) {
  return db
    .selectFrom("follows")
    .innerJoin("users", "users.id", "follows.follower_id")
    .select(["users.id", "users.name", "users.image_url"])
    .where("follows.followee_id", "=", userId)
    .where("users.deleted_at", "is", null)
    .orderBy("follows.created_at", "desc")
    .orderBy("users.id", "desc")
    .limit(limit)
    .execute();
}

/** The people a user follows, newest first (the primary key leads with follower_id). */
export function findFollowings(db: DbOrTx, userId: number, limit: number) {
  return db
    .selectFrom("follows")
    .innerJoin("users", "users.id", "follows.followee_id")
    .select(["users.id", "users.name", "users.image_url"])
    .where("follows.follower_id", "=", userId)
    .where("users.deleted_at", "is", null)
    .orderBy("follows.created_at", "desc")
    .orderBy("users.id", "desc")
    .limit(limit)
    .execute();
}

export type FollowUserRow = Awaited<ReturnType<typeof findFollowers>>[number];

/**
 * The ids of a page of the user's live deals and coupons, newest first, from posts_feed_user_idx
 * alone: an index-only walk past the pages before it. Status and type are written as literals,
 * so that a plan made once for every member can use the partial index.
 */
export function userDealIdsQuery(db: DbOrTx, userId: number, page: number, pageSize: number) {
  return prepared(db.selectFrom("posts"))
    .select("posts.id")
    .where("posts.user_id", "=", userId)
    .where("posts.status", "=", ACTIVE)
    .where("posts.post_type", "=", sql.lit<PostType>("d"))
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize);
}

/**
 * A page of the user's live deals and coupons as cards: the page's ids (userDealIdsQuery), then
 * their cards by id. Reading the cards along the way instead visited every skipped post's row:
 * 70-170 ms for page 1,001 of a member with 23,000 deals on PostgreSQL, 2-4 ms this way.
 */
export async function findUserDeals(db: DbOrTx, userId: number, page: number, pageSize: number) {
  const rows = await userDealIdsQuery(db, userId, page, pageSize).execute();
  return findCardsByIds(
    db,
    rows.map((row) => row.id),
  );
}

/**
 * The user's posts that wait for a moderator's review (status "pending", deals and discussions),
 * newest first: My Account lists them apart, since only their author sees them.
 */
export function findPostsWaitingForReview(db: DbOrTx, userId: number, limit: number) {
  return db
    .selectFrom("posts")
    .select(["unique_id", "slug", "title", "post_type", "kind", "created_at"])
    .where("user_id", "=", userId)
    .where("status", "=", "pending")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

export type WaitingPostRow = Awaited<ReturnType<typeof findPostsWaitingForReview>>[number];

/** The user's subscriptions with their plans, newest first (subscriptions_user_idx). */
export function findSubscriptions(db: DbOrTx, userId: number, limit: number) {
  return db
    .selectFrom("subscriptions")
    .innerJoin("subscription_plans", "subscription_plans.id", "subscriptions.plan_id")
    .select([
      "subscriptions.id",
      "subscriptions.status",
      sql<string | null>`to_char(subscriptions.start_date, 'YYYY-MM-DD')`.as("start_date"),
      sql<string | null>`to_char(subscriptions.end_date, 'YYYY-MM-DD')`.as("end_date"),
      "subscription_plans.name as plan_name",
      "subscription_plans.description as plan_description",
      "subscription_plans.price_cents",
      "subscription_plans.currency",
      "subscription_plans.interval",
    ])
    .where("subscriptions.user_id", "=", userId)
    .orderBy("subscriptions.created_at", "desc")
    .orderBy("subscriptions.id", "desc")
    .limit(limit)
    .execute();
}

export type SubscriptionRow = Awaited<ReturnType<typeof findSubscriptions>>[number];

export interface ProfileChanges {
  name: string;
  mobile: string;
  website: string;
  dob: string | null;
  gender: "male" | "female" | null;
  biography: string;
  address: string;
  image_url?: string;
}

export async function updateProfile(
  db: DbOrTx,
  userId: number,
  changes: ProfileChanges,
  now: Date,
) {
  await db
    .updateTable("users")
    .set({ ...changes, updated_at: now })
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .execute();
}

export async function findAvatarUrl(db: DbOrTx, userId: number) {
  const row = await db
    .selectFrom("users")
    .select("image_url")
    .where("id", "=", userId)
    .executeTakeFirst();
  return row?.image_url ?? null;
}
