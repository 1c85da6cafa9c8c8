import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../../core/auth/password.ts";
import { PAGE_SIZE } from "../../core/constants.ts";
import { createDb, type Db, type DbHandle } from "../../db/index.ts";
import { DEMO_EMAIL, DEMO_PASSWORD, DemoDataError, seedDemoData } from "../../db/demo/seed.ts";
import { createFolderStorage } from "../../core/media/storage.ts";
import { DEMO_IMAGE_CACHE } from "../setup/demo-images.ts";

const NOW = new Date("2026-01-15T15:00:00Z");
const DAY_MS = 24 * 60 * 60 * 1000;

async function count(db: Db, query: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`SELECT (${sql.raw(query)})::int AS n`.execute(db);
  return rows[0]!.n;
}

async function seeded(scale: "small" | "full", now = NOW) {
  const mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), "chalkboard-demo-"));
  const handle = await createDb({ databaseUrl: "memory://" });
  await seedDemoData(handle.db, {
    media: createFolderStorage(mediaDir),
    scale,
    now,
    imageCache: DEMO_IMAGE_CACHE,
  });
  return { handle, mediaDir };
}

/**
 * The first page of the new-deals list, in its order (newest first, then the larger id), judged
 * at `now` as the listing's cards are.
 */
async function newestDealsPage(db: Db, now: Date) {
  const rows = await db
    .selectFrom("posts")
    .select(["id", "kind", "coupon_code", "expires_at"])
    .where("post_type", "=", "d")
    .where("status", "=", "active")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(PAGE_SIZE.listing)
    .execute();
  return rows.map((row) => ({
    ...row,
    isCouponWithCode: row.kind === "coupon" && row.coupon_code !== "",
    isExpired: row.expires_at !== null && row.expires_at <= now,
  }));
}

/** What the browser tests open: a coupon with a code and an ended deal, on the first page. */
async function expectNewestPageCases(db: Db, now: Date) {
  const page = await newestDealsPage(db, now);
  expect(page).toHaveLength(PAGE_SIZE.listing);
  expect(page.filter((d) => d.isCouponWithCode).length).toBeGreaterThan(0);
  expect(page.filter((d) => d.isExpired).length).toBeGreaterThan(0);
  // The newest deal, which most page tests open, is a live one.
  expect(page[0]!.isExpired).toBe(false);
}

function mediaFile(mediaDir: string, url: string): string {
  // Deal and discussion pictures carry their size, for their responsive variants.
  expect(url).toMatch(/^\/media\/demo\/[a-z0-9-]+(\.800x600)?\.(webp|png)$/);
  return path.join(mediaDir, url.slice("/media/".length));
}

describe("demo data, small scale", () => {
  let handle: DbHandle;
  let db: Db;
  let mediaDir: string;

  beforeAll(async () => {
    ({ handle, mediaDir } = await seeded("small"));
    db = handle.db;
  }, 60_000);

  afterAll(async () => {
    await handle?.close();
    if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
  });

  it("fills every table the site reads", async () => {
    expect(
      await count(
        db,
        "SELECT count(*) FROM users WHERE role = 'member' AND email <> 'newcomer@example.com'",
      ),
    ).toBe(8);
    expect(
      await count(
        db,
        "SELECT count(*) FROM users WHERE email = 'admin@example.com' AND role = 'admin'",
      ),
    ).toBe(1);
    expect(
      await count(
        db,
        "SELECT count(*) FROM users WHERE email = 'moderator@example.com' AND role = 'moderator'",
      ),
    ).toBe(1);
    expect(await count(db, "SELECT count(*) FROM stores")).toBe(12);
    expect(await count(db, "SELECT count(*) FROM categories")).toBe(8);
    expect(await count(db, "SELECT count(*) FROM posts WHERE post_type = 'd'")).toBe(60);
    expect(
      await count(db, "SELECT count(*) FROM posts WHERE post_type = 'g' AND status = 'active'"),
    ).toBe(15);
    expect(await count(db, "SELECT count(*) FROM posts WHERE kind = 'coupon'")).toBeGreaterThan(5);
    expect(await count(db, "SELECT count(*) FROM posts WHERE kind = 'deal'")).toBeGreaterThan(20);
    expect(await count(db, "SELECT count(*) FROM teachers_wishlist")).toBe(12);
    expect(await count(db, "SELECT count(*) FROM featured_stores")).toBe(8);
    expect(
      await count(db, "SELECT count(*) FROM comments WHERE parent_id IS NULL"),
    ).toBeGreaterThan(20);
    expect(
      await count(db, "SELECT count(*) FROM comments WHERE parent_id IS NOT NULL"),
    ).toBeGreaterThan(5);
    expect(await count(db, "SELECT count(*) FROM likes WHERE reaction = 'like'")).toBeGreaterThan(
      20,
    );
    expect(await count(db, "SELECT count(*) FROM likes WHERE reaction = 'unlike'")).toBeGreaterThan(
      0,
    );
    expect(await count(db, "SELECT count(*) FROM follows")).toBeGreaterThan(8);
    expect(await count(db, "SELECT count(*) FROM social_links")).toBe(5);
    expect(await count(db, "SELECT count(*) FROM footer_settings")).toBe(1);

    const forums = await db.selectFrom("forums").select(["slug", "type"]).orderBy("id").execute();
    expect(forums).toEqual([
      { slug: "educators", type: "g" },
      { slug: "deals", type: "d" },
    ]);
    const kinds = await db
      .selectFrom("forum_categories")
      .select(["kind", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy("kind")
      .orderBy("kind")
      .execute();
    expect(kinds).toEqual([
      { kind: "deal", n: 4 },
      { kind: "discussion", n: 4 },
    ]);
  });

  it("has a demo account that signs in with the documented password", async () => {
    const demo = await db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(demo.email).toBe(DEMO_EMAIL);
    expect(demo.name).toBe("Demo Teacher");
    expect(demo.email_verified_at).not.toBeNull();
    expect(await verifyPassword(demo.password_hash, DEMO_PASSWORD)).toBe(true);
    expect(
      await count(db, "SELECT count(*) FROM users WHERE email !~ '@example\\.(com|org)$'"),
    ).toBe(0);
    expect(await count(db, "SELECT count(DISTINCT password_hash) FROM users")).toBe(1);

    const subscription = await db
      .selectFrom("subscriptions")
      .innerJoin("subscription_plans", "subscription_plans.id", "subscriptions.plan_id")
      .select([
        "subscriptions.status",
        "subscription_plans.price_cents",
        "subscription_plans.currency",
      ])
      .where("subscriptions.user_id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(subscription).toEqual({ status: "Active", price_cents: 1099, currency: "usd" });
  });

  it("keeps the engagement counts and trending score consistent with the rows", async () => {
    const wrongCounts = await count(
      db,
      `SELECT count(*) FROM posts p WHERE
         likes_count <> (SELECT count(*) FROM likes WHERE post_id = p.id AND reaction = 'like')
      OR unlikes_count <> (SELECT count(*) FROM likes WHERE post_id = p.id AND reaction = 'unlike')
      OR comments_count <> (SELECT count(*) FROM comments WHERE post_id = p.id AND deleted_at IS NULL)`,
    );
    expect(wrongCounts).toBe(0);
    const wrongScores = await count(
      db,
      `SELECT count(*) FROM posts WHERE hot_score = 0
          OR abs(hot_score - post_hot_score(likes_count, unlikes_count, comments_count, views, created_at)) > 1e-9`,
    );
    expect(wrongScores).toBe(0);
    expect(await count(db, "SELECT count(*) FROM posts WHERE comments_count > 0")).toBeGreaterThan(
      20,
    );
    expect(await count(db, "SELECT count(*) FROM posts WHERE search IS NULL")).toBe(0);
  });

  it("gives every deal a store, a category, a deal category and sensible prices", async () => {
    const deals = await db.selectFrom("posts").selectAll().where("post_type", "=", "d").execute();
    const dealCategories = new Set(
      (
        await db.selectFrom("forum_categories").select("id").where("kind", "=", "deal").execute()
      ).map((r) => r.id),
    );
    for (const deal of deals) {
      expect(deal.store_id, deal.title).not.toBeNull();
      expect(deal.category_id, deal.title).not.toBeNull();
      expect(dealCategories.has(deal.forum_category_id!), deal.title).toBe(true);
      expect(["deal", "coupon"]).toContain(deal.kind);
      expect(deal.currency).toBe("USD");
      expect(deal.link).toMatch(/^https:\/\/www\.[a-z0-9.-]+\//);
      expect(deal.link_key).not.toBe("");
      expect(deal.description).toMatch(/^<p>/);
      expect(deal.description).not.toMatch(/<script|on\w+=/i);
      expect(deal.description_text).not.toMatch(/<[a-z]/i);
      expect(["", "Hot Deal", "Best Price", "Free Shipping", "Teacher Favorite"]).toContain(
        deal.deal_badge,
      );
      if (deal.kind === "coupon") expect(deal.coupon_code).toMatch(/^[A-Z]+\d+$/);
      if (deal.price !== null && deal.list_price !== null) {
        expect(deal.price).toBeLessThan(deal.list_price);
        expect(deal.discount).toBe(Math.round((1 - deal.price / deal.list_price) * 100));
      }
      expect(deal.created_at.getTime()).toBeLessThanOrEqual(NOW.getTime());
      expect(deal.created_at.getTime()).toBeGreaterThan(NOW.getTime() - 183 * DAY_MS);
      if (deal.expires_at)
        expect(deal.expires_at.getTime()).toBeGreaterThan(deal.created_at.getTime());
    }
    expect(deals.some((d) => d.expires_at && d.expires_at < NOW)).toBe(true);
    expect(deals.some((d) => d.expires_at && d.expires_at > NOW)).toBe(true);
    expect(deals.some((d) => d.expires_at === null)).toBe(true);
    expect(deals.some((d) => d.is_featured)).toBe(true);
    expect(new Set(deals.map((d) => d.title)).size).toBe(deals.length);

    const discussions = await count(
      db,
      `SELECT count(*) FROM posts p JOIN forum_categories fc ON fc.id = p.forum_category_id
       WHERE p.post_type = 'g' AND p.kind = 'discussion' AND fc.kind = 'discussion' AND p.store_id IS NULL`,
    );
    // The 15 public discussions and the one held for review.
    expect(discussions).toBe(16);
  });

  it("shows a coupon with a code and an ended deal on the first page of new deals", async () => {
    await expectNewestPageCases(db, NOW);
  });

  it("threads replies under earlier comments of the same post", async () => {
    const broken = await count(
      db,
      `SELECT count(*) FROM comments c
       LEFT JOIN comments parent ON parent.id = c.parent_id
       JOIN posts p ON p.id = c.post_id
       WHERE c.created_at < p.created_at OR c.created_at > '${NOW.toISOString()}'
          OR (c.parent_id IS NOT NULL AND (parent.post_id <> c.post_id OR parent.created_at >= c.created_at))`,
    );
    expect(broken).toBe(0);
  });

  it("writes an image for every image URL", async () => {
    const urls = [
      ...(await db.selectFrom("posts").select("image_url as url").execute()),
      // The staff and the newcomer have no picture (the site shows initials).
      ...(await db
        .selectFrom("users")
        .select("image_url as url")
        .where("role", "=", "member")
        .where("email", "<>", "newcomer@example.com")
        .execute()),
      ...(await db.selectFrom("stores").select("image_url as url").execute()),
      ...(await db.selectFrom("categories").select("image_url as url").execute()),
    ].map((r) => r.url ?? "");
    const settings = await db.selectFrom("general_settings").selectAll().executeTakeFirstOrThrow();
    const footer = await db.selectFrom("footer_settings").selectAll().executeTakeFirstOrThrow();
    urls.push(settings.website_logo, footer.play_store_image, footer.app_store_image);
    for (const url of urls) {
      const file = mediaFile(mediaDir, url);
      expect(fs.existsSync(file), url).toBe(true);
    }
    const logo = fs.readFileSync(mediaFile(mediaDir, settings.website_logo));
    expect(logo.subarray(1, 4).toString()).toBe("PNG");
  });

  it("fills the site settings and pages", async () => {
    const settings = await db.selectFrom("general_settings").selectAll().executeTakeFirstOrThrow();
    expect(settings.website_name).toBe("Chalkboard Deals");
    expect(settings.website_description).toMatch(/^[A-Z].{40,}\.$/);
    const educatorPost = await db
      .selectFrom("posts")
      .select("post_type")
      .where("unique_id", "=", settings.educator_post_unique_id)
      .executeTakeFirstOrThrow();
    expect(educatorPost.post_type).toBe("g");

    const footer = await db.selectFrom("footer_settings").selectAll().executeTakeFirstOrThrow();
    expect(footer.playstore_url).toBe(
      "https://play.google.com/store/apps/details?id=com.chalkboarddeals.app",
    );
    expect(footer.copyright_text).not.toMatch(/©|\d{4}/);

    const icons = await db
      .selectFrom("social_links")
      .select("social_image")
      .orderBy("position")
      .execute();
    expect(icons.map((i) => i.social_image)).toEqual([
      "icon-facebook",
      "icon-twitter",
      "icon-instagram",
      "icon-pinterest",
      "icon-youtube",
    ]);

    const policy = await db
      .selectFrom("cms_pages")
      .selectAll()
      .where("slug", "=", "privacy-policy")
      .executeTakeFirstOrThrow();
    for (const topic of [
      "XSRF-TOKEN",
      "/delete-account",
      "/contact",
      "affiliate",
      "Children",
      "sell",
    ]) {
      expect(policy.detail).toContain(topic);
    }
  });

  it("fills the console's queue: open reports on a deal, a comment and a member, and a held post", async () => {
    const reports = await db
      .selectFrom("reports")
      .select(["item_type", "item_id", "reporter_id", "reason", "note", "status", "created_at"])
      .orderBy("id")
      .execute();
    expect(reports.map((r) => r.item_type)).toEqual(["d", "d", "comment", "user"]);
    expect(reports.every((r) => r.status === "open" && r.created_at <= NOW)).toBe(true);
    // Two members on one deal: below the hide threshold of 3, so it stays public.
    const [first, second] = reports;
    expect(first!.item_id).toBe(second!.item_id);
    expect(first!.reporter_id).not.toBe(second!.reporter_id);
    const reported = await db
      .selectFrom("posts")
      .select(["status", "user_id", "created_at"])
      .where("unique_id", "=", first!.item_id)
      .executeTakeFirstOrThrow();
    expect(reported.status).toBe("active");
    // Every reported item exists, is public, and is not the reporter's own; items are older.
    for (const report of reports) {
      const owner =
        report.item_type === "d"
          ? reported
          : report.item_type === "comment"
            ? await db
                .selectFrom("comments")
                .innerJoin("posts", "posts.id", "comments.post_id")
                .select(["comments.user_id", "comments.created_at", "posts.status"])
                .where("comments.id", "=", Number(report.item_id))
                .where("comments.status", "=", "active")
                .executeTakeFirstOrThrow()
            : await db
                .selectFrom("users")
                .select(["id as user_id", "created_at"])
                .where("id", "=", Number(report.item_id))
                .where("deleted_at", "is", null)
                .executeTakeFirstOrThrow();
      expect(owner.user_id).not.toBe(report.reporter_id);
      expect(owner.created_at.getTime()).toBeLessThan(report.created_at.getTime());
      if ("status" in owner) expect(owner.status).toBe("active");
    }
    // Nobody reported the same item twice while open (the unique index would refuse it anyway).
    expect(new Set(reports.map((r) => `${r.reporter_id}:${r.item_type}:${r.item_id}`)).size).toBe(
      reports.length,
    );

    const held = await db
      .selectFrom("posts")
      .innerJoin("users", "users.id", "posts.user_id")
      .select([
        "posts.id",
        "posts.post_type",
        "posts.created_at",
        "posts.hot_score",
        "users.email",
        "users.created_at as joined",
      ])
      .where("posts.status", "=", "pending")
      .execute();
    expect(held).toHaveLength(1);
    expect(held[0]).toMatchObject({ post_type: "g", email: "newcomer@example.com" });
    // The newcomer joined two days ago: the hold's default 7 days would hold their first post.
    expect(NOW.getTime() - held[0]!.joined.getTime()).toBe(2 * DAY_MS);
    expect(held[0]!.joined.getTime()).toBeLessThan(held[0]!.created_at.getTime());
    expect(held[0]!.hot_score).not.toBe(0);
    // Numbered after every other post, so it never shifts the public posts' ids.
    expect(await count(db, "SELECT max(id) FROM posts WHERE status = 'active'")).toBe(
      held[0]!.id - 1,
    );
    // It is its author's only post: a first post held for review.
    expect(
      await count(
        db,
        `SELECT count(*) FROM posts WHERE user_id = (SELECT user_id FROM posts WHERE id = ${held[0]!.id})`,
      ),
    ).toBe(1);
  });

  it("refuses a database that already has content", async () => {
    await expect(
      seedDemoData(db, { media: createFolderStorage(mediaDir), scale: "small", now: NOW }),
    ).rejects.toBeInstanceOf(DemoDataError);
  });

  it("produces the same content on every run, whatever the date", async () => {
    const other = await seeded("small", new Date("2025-09-01T08:30:00Z"));
    try {
      const content = (d: Db) =>
        d
          .selectFrom("posts")
          .select(["id", "unique_id", "slug", "title", "price", "link", "user_id", "store_id"])
          .orderBy("id")
          .execute();
      expect(await content(other.handle.db)).toEqual(await content(db));
      const comments = (d: Db) =>
        d
          .selectFrom("comments")
          .select(["id", "post_id", "parent_id", "body"])
          .orderBy("id")
          .execute();
      expect(await comments(other.handle.db)).toEqual(await comments(db));
      const reports = (d: Db) =>
        d
          .selectFrom("reports")
          .select(["item_type", "item_id", "reporter_id", "reason", "note"])
          .orderBy("id")
          .execute();
      expect(await reports(other.handle.db)).toEqual(await reports(db));
    } finally {
      await other.handle.close();
      fs.rmSync(other.mediaDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("demo data, full scale", () => {
  it("seeds the first-start content", async () => {
    const { handle, mediaDir } = await seeded("full");
    const db = handle.db;
    try {
      expect(await count(db, "SELECT count(*) FROM stores")).toBeGreaterThanOrEqual(60);
      expect(await count(db, "SELECT count(*) FROM categories")).toBe(30);
      expect(
        await count(db, "SELECT count(*) FROM posts WHERE post_type = 'd'"),
      ).toBeGreaterThanOrEqual(600);
      expect(
        await count(db, "SELECT count(*) FROM posts WHERE post_type = 'g' AND status = 'active'"),
      ).toBe(60);
      expect(await count(db, "SELECT count(*) FROM posts WHERE status = 'pending'")).toBe(1);
      expect(await count(db, "SELECT count(*) FROM reports WHERE status = 'open'")).toBe(4);
      expect(
        await count(
          db,
          "SELECT count(*) FROM users WHERE role = 'member' AND email <> 'newcomer@example.com'",
        ),
      ).toBe(40);
      expect(
        await count(db, "SELECT count(*) FROM users WHERE user_type = 'Teacher'"),
      ).toBeGreaterThan(20);
      expect(
        await count(db, "SELECT count(*) FROM users WHERE user_type = 'Shopper'"),
      ).toBeGreaterThan(8);
      expect(await count(db, "SELECT count(DISTINCT title) = count(*) FROM posts")).toBe(1);
      expect(
        await count(
          db,
          "SELECT count(*) FROM stores s WHERE NOT EXISTS (SELECT 1 FROM posts WHERE store_id = s.id)",
        ),
      ).toBe(0);
      expect(
        await count(
          db,
          "SELECT count(*) FROM categories c WHERE NOT EXISTS (SELECT 1 FROM posts WHERE category_id = c.id)",
        ),
      ).toBe(0);
      await expectNewestPageCases(db, NOW);
      const missing = (await db.selectFrom("posts").select("image_url").execute()).filter(
        (p) => !fs.existsSync(mediaFile(mediaDir, p.image_url)),
      );
      expect(missing).toEqual([]);
    } finally {
      await handle.close();
      fs.rmSync(mediaDir, { recursive: true, force: true });
    }
  }, 120_000);
});
