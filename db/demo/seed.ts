import { sql, type Insertable, type Kysely, type Transaction } from "kysely";
import { hashPassword } from "../../core/auth/password.ts";
import type { MediaStorage } from "../../core/media/storage.ts";
import { recomputeReputation } from "../../core/people/reputation/job.ts";
import type { Database } from "../schema.ts";
import { demoImageUrl, renderImages } from "./images.ts";
import { DEMO_NEWCOMER, DEMO_PASSWORD, DEMO_STAFF } from "./people.ts";
import { buildDemoPlan, type DemoPlan, type DemoScale } from "./plan.ts";
import {
  FOOTER_SETTINGS,
  GENERAL_SETTINGS,
  PRIVACY_POLICY_HTML,
  PRIVACY_POLICY_TITLE,
  SOCIAL_LINKS,
  SUBSCRIPTION_PLAN,
} from "./site.ts";

export { DEMO_EMAIL, DEMO_PASSWORD } from "./people.ts";
export type { DemoScale } from "./plan.ts";

export interface SeedOptions {
  /** Images are written to demo/ of this storage and referenced as /media/demo/<file>. */
  media: MediaStorage;
  /** "full" (default): the site's demo content; "small": the same shape, fewer rows, for tests. */
  scale?: DemoScale;
  /** The moment the content is dated against (default: now). */
  now?: Date;
  /** A folder of images drawn before (db/demo/images.ts, `cacheDir`): tests share one. */
  imageCache?: string;
}

export class DemoDataError extends Error {}

/** The tables whose ids the seed chooses itself; their sequences are moved past them at the end. */
const EXPLICIT_ID_TABLES = [
  "users",
  "stores",
  "categories",
  "forums",
  "forum_categories",
  "posts",
  "comments",
] as const;

/** Tables that must be empty before seeding. */
const CONTENT_TABLES = [
  "users",
  "stores",
  "categories",
  "forums",
  "posts",
  "general_settings",
  "teachers_wishlist",
] as const;

/** Upper bound on bind parameters per INSERT (PostgreSQL allows 65535). */
const MAX_PARAMETERS = 30_000;

async function insertChunked<T extends keyof Database & string>(
  tx: Transaction<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!).length;
  const size = Math.max(1, Math.floor(MAX_PARAMETERS / columns));
  for (let i = 0; i < rows.length; i += size) {
    // Kysely cannot relate a generic table name to its row type; the rows were typed by the caller.
    await tx
      .insertInto(table)
      .values(rows.slice(i, i + size) as never)
      .execute();
  }
}

/**
 * Fills an empty, migrated database with the demo content, in one transaction, and draws its
 * images into demo/ of the media storage. The content is the same on every run (ids, unique_ids, titles,
 * links); dates are relative to options.now. Every demo account signs in with DEMO_PASSWORD.
 */
export async function seedDemoData(db: Kysely<Database>, options: SeedOptions): Promise<void> {
  const plan = buildDemoPlan(options.scale ?? "full");
  const now = options.now ?? new Date();
  // The images are drawn on sharp's threads while the database work runs on this one.
  const images = renderImages(options.media, plan.images, { cacheDir: options.imageCache });
  try {
    const passwordHash = await hashPassword(DEMO_PASSWORD);
    await db.transaction().execute(async (tx) => {
      await assertEmpty(tx);
      await insertPlan(tx, plan, now, passwordHash);
    });
    // Reputation as the job would count it at its first quarter hour, so that profiles, bylines and
    // /community/top show it from the start (record 0088).
    await recomputeReputation({ db, now: () => now });
  } finally {
    await images;
  }
}

async function assertEmpty(tx: Transaction<Database>): Promise<void> {
  for (const table of CONTENT_TABLES) {
    const row = await tx
      .selectFrom(table)
      .select(sql<number>`1`.as("one"))
      .limit(1)
      .executeTakeFirst();
    if (row) {
      throw new DemoDataError(
        `Demo data needs an empty database, but table ${table} already has rows.`,
      );
    }
  }
}

async function insertPlan(
  tx: Transaction<Database>,
  plan: DemoPlan,
  now: Date,
  passwordHash: string,
): Promise<void> {
  const at = (agoMin: number) => new Date(now.getTime() - agoMin * 60_000);
  await insertMembers(tx, plan, at, passwordHash);
  await insertCatalogue(tx, plan, at);
  await insertForums(tx, plan);
  await insertPosts(tx, plan, at);
  await insertEngagement(tx, plan, at);
  await insertReports(tx, plan, at);
  await insertSiteContent(tx, plan, at);
  await insertSubscription(tx, plan, at);
  for (const table of EXPLICIT_ID_TABLES) {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), (SELECT max(id) FROM ${sql.table(table)}))`.execute(
      tx,
    );
  }
  await insertStaff(tx, at, passwordHash);
  await insertNewcomer(tx, plan, at, passwordHash);
}

/** The console's staff accounts, after the members (their ids follow the members' sequence). */
async function insertStaff(tx: Transaction<Database>, at: DateOf, passwordHash: string) {
  const joined = at(730 * 24 * 60);
  await tx
    .insertInto("users")
    .values(
      DEMO_STAFF.map((staff) => ({
        name: staff.name,
        email: staff.email,
        role: staff.role,
        password_hash: passwordHash,
        user_type: "Shopper",
        image_url: null,
        dob: null,
        gender: null,
        email_verified_at: joined,
        created_at: joined,
        updated_at: joined,
      })),
    )
    .execute();
}

/** Turns a plan's "minutes before now" into a date. */
type DateOf = (agoMin: number) => Date;

async function insertMembers(
  tx: Transaction<Database>,
  plan: DemoPlan,
  at: DateOf,
  passwordHash: string,
): Promise<void> {
  await insertChunked(
    tx,
    "users",
    plan.users.map((u) => {
      const joined = at(u.agoMin);
      return {
        id: u.id,
        name: u.seed.name,
        email: u.email,
        password_hash: passwordHash,
        user_type: u.seed.userType,
        image_url: demoImageUrl(u.imageFile),
        dob: u.dob,
        gender: u.seed.gender,
        biography: u.seed.biography,
        mobile: u.mobile,
        website: u.seed.website ?? "",
        address: u.seed.address,
        email_verified_at: new Date(joined.getTime() + 7 * 60_000),
        created_at: joined,
        updated_at: joined,
      };
    }),
  );
  await insertChunked(
    tx,
    "follows",
    plan.follows.map((f) => ({
      follower_id: f.followerId,
      followee_id: f.followeeId,
      created_at: at(f.agoMin),
    })),
  );
}

async function insertCatalogue(tx: Transaction<Database>, plan: DemoPlan, at: DateOf) {
  const catalogueCreated = at(730 * 24 * 60);
  await insertChunked(
    tx,
    "stores",
    plan.stores.map((s) => ({
      id: s.id,
      title: s.seed.title,
      slug: s.slug,
      link: `https://www.${s.seed.domain}/`,
      image_url: demoImageUrl(s.imageFile),
      description: s.seed.description,
      created_at: catalogueCreated,
    })),
  );
  await insertChunked(
    tx,
    "featured_stores",
    plan.featuredStoreIds.map((storeId, i) => ({ store_id: storeId, position: i + 1 })),
  );
  await insertChunked(
    tx,
    "categories",
    plan.categories.map((c) => ({
      id: c.id,
      title: c.seed.title,
      slug: c.slug,
      image_url: demoImageUrl(c.imageFile),
      description: c.seed.description,
      created_at: catalogueCreated,
    })),
  );
}

async function insertForums(tx: Transaction<Database>, plan: DemoPlan): Promise<void> {
  await insertChunked(tx, "forums", plan.forums);
  await insertChunked(
    tx,
    "forum_categories",
    plan.forumCategories.map((fc) => ({
      id: fc.id,
      forum_id: fc.forumId,
      kind: fc.kind,
      title: fc.title,
      position: fc.position,
    })),
  );
}

async function insertPosts(tx: Transaction<Database>, plan: DemoPlan, at: DateOf) {
  await insertChunked(
    tx,
    "posts",
    plan.posts.map((p) => postRow(p, "active", at)),
  );
}

/** One planned post as its row. */
function postRow(p: DemoPlan["posts"][number], status: "active" | "pending", at: DateOf) {
  const created = at(p.agoMin);
  const expiresAt =
    p.expiresAfterMin === null ? null : new Date(created.getTime() + p.expiresAfterMin * 60_000);
  return {
    id: p.id,
    unique_id: p.uniqueId,
    slug: p.slug,
    post_type: p.postType,
    kind: p.kind,
    user_id: p.userId,
    forum_category_id: p.forumCategoryId,
    store_id: p.storeId,
    category_id: p.categoryId,
    title: p.title,
    description: p.description,
    description_text: p.descriptionText,
    image_url: demoImageUrl(p.imageFile),
    price: p.price,
    list_price: p.listPrice,
    discount: p.discount,
    currency: "USD",
    deal_badge: p.dealBadge,
    link: p.link,
    link_key: p.linkKey,
    coupon_code: p.couponCode,
    expires_at: expiresAt,
    // As the minute sweep would have it (migration 017).
    expired: expiresAt !== null && expiresAt.getTime() <= at(0).getTime(),
    is_featured: p.isFeatured,
    status,
    views: p.views,
    created_at: created,
    updated_at: created,
  };
}

/** The open reports of the console's first-start queue (issue 10). */
async function insertReports(tx: Transaction<Database>, plan: DemoPlan, at: DateOf) {
  await insertChunked(
    tx,
    "reports",
    plan.reports.map((r) => ({
      item_type: r.itemType,
      item_id: r.itemId,
      reporter_id: r.reporterId,
      reason: r.reason,
      note: r.note,
      created_at: at(r.agoMin),
    })),
  );
}

/**
 * The newcomer and their first post, held for review (issue 10), after the staff: their ids
 * follow the sequences. A pending post is in no public list or count.
 */
async function insertNewcomer(
  tx: Transaction<Database>,
  plan: DemoPlan,
  at: DateOf,
  passwordHash: string,
) {
  const joined = at(DEMO_NEWCOMER.joinedDaysAgo * 24 * 60);
  const newcomer = await tx
    .insertInto("users")
    .values({
      name: DEMO_NEWCOMER.name,
      email: DEMO_NEWCOMER.email,
      password_hash: passwordHash,
      user_type: "Teacher",
      image_url: null,
      dob: null,
      gender: null,
      email_verified_at: joined,
      created_at: joined,
      updated_at: joined,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const { id: _id, ...row } = postRow(
    { ...plan.heldPost, id: 0, userId: newcomer.id },
    "pending",
    at,
  );
  await tx
    .insertInto("posts")
    .values({
      ...row,
      // A new post's score is its age term alone (the trigger computes it on updates only).
      hot_score: sql<number>`post_hot_score(0, 0, 0, 0, ${row.created_at})`,
    })
    .execute();
}

/** Comments and likes, then each post's counts and trending score from the rows just written. */
async function insertEngagement(tx: Transaction<Database>, plan: DemoPlan, at: DateOf) {
  await insertChunked(
    tx,
    "comments",
    plan.comments.map((c) => ({
      id: c.id,
      post_id: c.postId,
      user_id: c.userId,
      parent_id: c.parentId,
      body: c.body,
      created_at: at(c.agoMin),
    })),
  );
  await insertChunked(
    tx,
    "likes",
    plan.likes.map((l) => ({
      post_id: l.postId,
      user_id: l.userId,
      reaction: l.reaction,
      created_at: at(l.agoMin),
    })),
  );
  await sql`
    UPDATE posts AS p
    SET likes_count = c.likes,
        unlikes_count = c.unlikes,
        comments_count = c.comments
    FROM (
      SELECT p2.id,
             coalesce(l.likes, 0)::int AS likes,
             coalesce(l.unlikes, 0)::int AS unlikes,
             coalesce(m.comments, 0)::int AS comments
      FROM posts p2
      LEFT JOIN (
        SELECT post_id,
               count(*) FILTER (WHERE reaction = 'like') AS likes,
               count(*) FILTER (WHERE reaction = 'unlike') AS unlikes
        FROM likes GROUP BY post_id
      ) l ON l.post_id = p2.id
      LEFT JOIN (
        SELECT post_id, count(*) AS comments FROM comments WHERE deleted_at IS NULL GROUP BY post_id
      ) m ON m.post_id = p2.id
    ) AS c
    WHERE c.id = p.id`.execute(tx);
}

/** The Teachers Wishlist, site settings, footer, social links and the privacy policy. */
async function insertSiteContent(tx: Transaction<Database>, plan: DemoPlan, at: DateOf) {
  await insertChunked(
    tx,
    "teachers_wishlist",
    plan.wishlist.map((w) => ({
      first_name: w.firstName,
      last_name: w.lastName,
      school_location: w.schoolLocation,
      amazon_wishlist: w.amazonWishlist,
      position: w.position,
      created_at: at(w.agoMin),
    })),
  );
  await tx
    .insertInto("general_settings")
    .values({ id: 1, ...GENERAL_SETTINGS, educator_post_unique_id: plan.educatorPostUniqueId })
    .execute();
  await tx.insertInto("footer_settings").values(FOOTER_SETTINGS).execute();
  await insertChunked(
    tx,
    "social_links",
    SOCIAL_LINKS.map((s, i) => ({ ...s, position: i + 1 })),
  );
  await tx
    .insertInto("cms_pages")
    .values({ slug: "privacy-policy", title: PRIVACY_POLICY_TITLE, detail: PRIVACY_POLICY_HTML })
    .execute();
}

/** The subscription plan, and the demo account's month of it, begun 12 days ago. */
async function insertSubscription(tx: Transaction<Database>, plan: DemoPlan, at: DateOf) {
  const plan1 = await tx
    .insertInto("subscription_plans")
    .values(SUBSCRIPTION_PLAN)
    .returning("id")
    .executeTakeFirstOrThrow();
  const start = at(12 * 24 * 60);
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + 1);
  const demoUser = plan.users[0]!;
  await tx
    .insertInto("subscriptions")
    .values({
      user_id: demoUser.id,
      plan_id: plan1.id,
      status: "Active",
      start_date: start.toISOString().slice(0, 10),
      end_date: end.toISOString().slice(0, 10),
      created_at: start,
    })
    .execute();
}
