/**
 * The rows of a member's data export (docs/decisions/0084-download-my-data.md): everything the
 * site keeps about one member, read from every table that names them. Each query selects the
 * columns it hands on, by name, so that no secret (a password hash, a session's or a link's token
 * hash) is ever read; the presenter shapes what is read here.
 */
import type { DbOrTx } from "../../../db/index.ts";

export async function findUser(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select([
      "id",
      "name",
      "email",
      "user_type",
      "image_url",
      "dob",
      "gender",
      "biography",
      "mobile",
      "website",
      "address",
      "role",
      "verified_educator",
      "email_verified_at",
      "suspended_at",
      "suspended_until",
      "suspension_reason",
      "created_at",
      "updated_at",
    ])
    .select((eb) => eb("password_hash", "is not", null).as("has_password"))
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
}

export function findSocialAccounts(db: DbOrTx, userId: number) {
  return db
    .selectFrom("oauth_accounts")
    .select(["provider", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
}

export function findSubscriptions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("subscriptions as s")
    .innerJoin("subscription_plans as p", "p.id", "s.plan_id")
    .select(["s.id", "p.name as plan", "s.status", "s.start_date", "s.end_date", "s.created_at"])
    .where("s.user_id", "=", userId)
    .orderBy("s.id")
    .execute();
}

/** Whether mail to the address is held back, and why (migration 031). */
export function findUndeliverable(db: DbOrTx, address: string) {
  return db
    .selectFrom("undeliverable_addresses")
    .select(["reason", "failed_at"])
    .where("address", "=", address.toLowerCase())
    .executeTakeFirst();
}

/** Every post of the member's, whatever its status. */
export function findPosts(db: DbOrTx, userId: number) {
  return db
    .selectFrom("posts as p")
    .leftJoin("stores as s", "s.id", "p.store_id")
    .leftJoin("categories as c", "c.id", "p.category_id")
    .leftJoin("forum_categories as f", "f.id", "p.forum_category_id")
    .select([
      "p.id",
      "p.unique_id",
      "p.slug",
      "p.post_type",
      "p.kind",
      "p.title",
      "p.description",
      "p.image_url",
      "p.price",
      "p.list_price",
      "p.discount",
      "p.currency",
      "p.deal_badge",
      "p.link",
      "p.coupon_code",
      "p.expires_at",
      "p.expired",
      "p.status",
      "p.moderation_reason",
      "p.views",
      "p.likes_count",
      "p.unlikes_count",
      "p.comments_count",
      "p.created_at",
      "p.updated_at",
      "s.title as store",
      "c.title as category",
      "f.title as forum_category",
    ])
    .where("p.user_id", "=", userId)
    .orderBy("p.id")
    .execute();
}

/** The post a row of the member's names, as the export links it. */
const postColumns = ["p.unique_id as post_unique_id", "p.slug", "p.post_type", "p.title"] as const;

export function findComments(db: DbOrTx, userId: number) {
  return db
    .selectFrom("comments as c")
    .innerJoin("posts as p", "p.id", "c.post_id")
    .select(["c.id", "c.parent_id", "c.body", "c.status", "c.created_at", "c.deleted_at"])
    .select(postColumns)
    .where("c.user_id", "=", userId)
    .orderBy("c.id")
    .execute();
}

export function findLikes(db: DbOrTx, userId: number) {
  return db
    .selectFrom("likes as l")
    .innerJoin("posts as p", "p.id", "l.post_id")
    .select(["l.reaction", "l.reason", "l.weight", "l.created_at", "l.voter_network"])
    .select(postColumns)
    .where("l.user_id", "=", userId)
    .orderBy("l.created_at")
    .execute();
}

/** The member's likes on comments (migration 039), with the comment's post. */
export function findCommentLikes(db: DbOrTx, userId: number) {
  return db
    .selectFrom("comment_likes as l")
    .innerJoin("comments as cm", "cm.id", "l.comment_id")
    .innerJoin("posts as p", "p.id", "cm.post_id")
    .select(["l.comment_id", "l.created_at"])
    .select(postColumns)
    .where("l.user_id", "=", userId)
    .orderBy("l.created_at")
    .orderBy("l.comment_id")
    .execute();
}

export function findExpiryMarks(db: DbOrTx, userId: number) {
  return db
    .selectFrom("expiry_marks as m")
    .innerJoin("posts as p", "p.id", "m.post_id")
    .select(["m.created_at"])
    .select(postColumns)
    .where("m.user_id", "=", userId)
    .orderBy("m.created_at")
    .execute();
}

export function findCouponFeedback(db: DbOrTx, userId: number) {
  return db
    .selectFrom("coupon_feedback as f")
    .innerJoin("posts as p", "p.id", "f.post_id")
    .select(["f.worked", "f.answered_at"])
    .select(postColumns)
    .where("f.user_id", "=", userId)
    .orderBy("f.answered_at")
    .execute();
}

/** Reports the member filed: what they reported and how it stands, not who handled it. */
export function findReports(db: DbOrTx, userId: number) {
  return db
    .selectFrom("reports")
    .select(["id", "item_type", "item_id", "reason", "note", "status", "created_at", "resolved_at"])
    .where("reporter_id", "=", userId)
    .orderBy("id")
    .execute();
}

export function findSavedDeals(db: DbOrTx, userId: number) {
  return db
    .selectFrom("saved_deals as s")
    .innerJoin("posts as p", "p.id", "s.post_id")
    .select(["s.created_at"])
    .select(postColumns)
    .where("s.user_id", "=", userId)
    .orderBy("s.created_at")
    .execute();
}

export function findFollowedMembers(db: DbOrTx, userId: number) {
  return db
    .selectFrom("follows as f")
    .innerJoin("users as u", "u.id", "f.followee_id")
    .select(["u.id", "u.name", "f.created_at"])
    .where("f.follower_id", "=", userId)
    .orderBy("f.created_at")
    .execute();
}

export function findFollowedStores(db: DbOrTx, userId: number) {
  return db
    .selectFrom("store_follows as f")
    .innerJoin("stores as s", "s.id", "f.store_id")
    .select(["s.id", "s.title", "s.slug", "f.created_at"])
    .where("f.user_id", "=", userId)
    .orderBy("f.created_at")
    .execute();
}

export function findFollowedCategories(db: DbOrTx, userId: number) {
  return db
    .selectFrom("category_follows as f")
    .innerJoin("categories as c", "c.id", "f.category_id")
    .select(["c.id", "c.title", "c.slug", "f.created_at"])
    .where("f.user_id", "=", userId)
    .orderBy("f.created_at")
    .execute();
}

/** The member's alerts, without the RSS token's hash; stores and category by name. */
export function findAlerts(db: DbOrTx, userId: number) {
  return db
    .selectFrom("alerts as a")
    .leftJoin("categories as c", "c.id", "a.category_id")
    .select([
      "a.id",
      "a.keywords",
      "a.store_ids",
      "c.title as category",
      "a.max_price",
      "a.min_discount",
      "a.only_hot",
      "a.delivery",
      "a.digest_hour",
      "a.paused",
      "a.last_mailed_at",
      "a.created_at",
      "a.updated_at",
    ])
    .where("a.user_id", "=", userId)
    .orderBy("a.id")
    .execute();
}

export function findStoreTitles(db: DbOrTx, storeIds: number[]) {
  if (storeIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("stores").select(["id", "title"]).where("id", "in", storeIds).execute();
}

/** The member's weekly digests (record 0087): when each was due, mailed or not, its deals' ids. */
export function findWeeklyDigests(db: DbOrTx, userId: number) {
  return db
    .selectFrom("weekly_digests")
    .select(["week", "mailed", "post_ids", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("week")
    .execute();
}

/** The deals the digests listed, by id. */
export function findPostsById(db: DbOrTx, postIds: number[]) {
  if (postIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom("posts as p")
    .select("p.id")
    .select(postColumns)
    .where("p.id", "in", postIds)
    .execute();
}

export function findNotifications(db: DbOrTx, userId: number) {
  return db
    .selectFrom("notifications")
    .select(["id", "kind", "message", "link", "read_at", "mailed_at", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** Devices that get push notifications (migration 040): never the browser's keys. */
export function findPushSubscriptions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("push_subscriptions")
    .select(["id", "endpoint", "device_label", "created_at", "last_used_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** Push messages still kept (they are swept after 30 days), with how many devices each reached. */
export function findPushMessages(db: DbOrTx, userId: number) {
  return db
    .selectFrom("push_messages as m")
    .select(["m.id", "m.kind", "m.title", "m.body", "m.url", "m.created_at"])
    .select((eb) =>
      eb
        .selectFrom("push_deliveries as d")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("d.message_id", "=", "m.id")
        .as("delivered_to"),
    )
    .where("m.user_id", "=", userId)
    .orderBy("m.id")
    .execute();
}

/** Signed-in devices: never the token's hash. */
export function findSessions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("sessions")
    .select(["id", "user_agent", "created_at", "last_seen_at", "expires_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .execute();
}

/** Images the member uploaded (avatars, post images), as the media table records them. */
export function findUploads(db: DbOrTx, userId: number) {
  return db
    .selectFrom("media")
    .select(["path", "mime", "width", "height", "bytes", "created_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** Requests to be verified as an educator, without their link's token hash. */
export function findEducatorRequests(db: DbOrTx, userId: number) {
  return db
    .selectFrom("educator_requests")
    .select([
      "id",
      "method",
      "school_email",
      "note",
      "status",
      "reason",
      "created_at",
      "decided_at",
    ])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

export function findWishlistSubmissions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("teachers_wishlist")
    .select([
      "id",
      "first_name",
      "last_name",
      "school_location",
      "amazon_wishlist",
      "status",
      "review_reason",
      "created_at",
    ])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

/** Messages the member sent through Contact Us while signed in, and the site's replies to them. */
export async function findContactMessages(db: DbOrTx, userId: number) {
  const messages = await db
    .selectFrom("contact_messages")
    .select([
      "id",
      "name",
      "email",
      "mobile",
      "website",
      "category",
      "subject",
      "message",
      "item_link",
      "status",
      "created_at",
      "resolved_at",
    ])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  const replies =
    messages.length === 0
      ? []
      : await db
          .selectFrom("contact_replies")
          .select(["message_id", "body", "created_at"])
          .where(
            "message_id",
            "in",
            messages.map((m) => m.id),
          )
          .orderBy("created_at")
          .execute();
  return messages.map((message) => ({
    ...message,
    replies: replies.filter((reply) => reply.message_id === message.id),
  }));
}

/** Their reputation (migration 033): points and level, badges, and the ledger that explains them. */
export async function findReputation(db: DbOrTx, userId: number) {
  const [summary, badges, ledger] = await Promise.all([
    db
      .selectFrom("member_reputation")
      .select(["points", "level", "computed_at"])
      .where("user_id", "=", userId)
      .executeTakeFirst(),
    db
      .selectFrom("member_badges")
      .select(["badge_key", "earned_at"])
      .where("user_id", "=", userId)
      .orderBy("earned_at")
      .orderBy("badge_key")
      .execute(),
    db
      .selectFrom("reputation_ledger")
      .leftJoin("posts", "posts.id", "reputation_ledger.post_id")
      .select([
        "reputation_ledger.kind",
        "reputation_ledger.points",
        "reputation_ledger.detail",
        "reputation_ledger.occurred_at",
        "posts.unique_id",
      ])
      .where("reputation_ledger.user_id", "=", userId)
      .orderBy("reputation_ledger.occurred_at")
      .orderBy("reputation_ledger.id")
      .execute(),
  ]);
  return { summary, badges, ledger };
}

/** Staff's warnings and voting blocks of the member (migration 038, record 0091). */
export function findVotingRestrictions(db: DbOrTx, userId: number) {
  return db
    .selectFrom("voting_restrictions")
    .select(["kind", "reason", "created_at", "ends_at", "lifted_at"])
    .where("user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
}
