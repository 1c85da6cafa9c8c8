import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "../../core/auth/sessions.ts";
import { MyDataResponse } from "../../core/people/my-data/responses.ts";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertComment, insertPost } from "../helpers/console.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * "Download my data" (docs/decisions/0084-download-my-data.md): two members each hold a row of
 * every kind the file carries; member A's file holds every kind of A's, nothing of B's, and no
 * token or password hash. Rate limits are on, as in production: on PostgreSQL counted there.
 */

const onPostgres: Record<string, string> = process.env.DATABASE_URL
  ? { DATABASE_URL: process.env.DATABASE_URL }
  : {};

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT: "on", ...onPostgres } });
});
afterAll(async () => {
  await t?.close();
});

/** What a seeded member has, and the secrets of theirs the file must never hold. */
interface Seeded {
  id: number;
  email: string;
  /** A word in every text the member wrote. */
  marker: string;
  postUniqueIds: string[];
  commentIds: number[];
  /** The comment of the followee's the member likes. */
  likedCommentId: number;
  secrets: string[];
  sessionToken: string;
  client: TestClient;
}

/** A member with a row of every kind the export reads; `followee` is a third member they follow. */
async function seedMember(label: string, followee: number, commonPostId: number): Promise<Seeded> {
  const db = t.deps.db;
  const marker = `${label}${randomBytes(4).toString("hex")}`;
  const id = await createTestUser(db, { name: `Member ${marker}` });
  const avatarPath = `avatars/${marker}.webp`;
  const passwordHash = `$argon2id$v=19$m=65536,t=3,p=4$${marker}salt$${marker}hash`;
  await db
    .updateTable("users")
    .set({
      image_url: `/media/${avatarPath}`,
      password_hash: passwordHash,
      biography: `Bio of ${marker}`,
      mobile: `555-${marker}`,
      address: `1 ${marker} Street`,
      website: `https://${marker}.example.com`,
      dob: "1990-04-05",
      gender: "female",
      verified_educator: true,
    })
    .where("id", "=", id)
    .execute();
  const { email } = await db
    .selectFrom("users")
    .select("email")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  await db
    .insertInto("media")
    .values([
      { user_id: id, path: avatarPath, mime: "image/webp", width: 96, height: 96, bytes: 900 },
      {
        user_id: id,
        path: `posts/${marker}.webp`,
        mime: "image/webp",
        width: 640,
        height: 480,
        bytes: 20_000,
      },
    ])
    .execute();
  await db
    .insertInto("oauth_accounts")
    .values({ user_id: id, provider: "google", provider_user_id: `google-${marker}` })
    .execute();

  const store = await db
    .selectFrom("stores")
    .select(["id"])
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const category = await db
    .selectFrom("categories")
    .select(["id"])
    .orderBy("id")
    .executeTakeFirstOrThrow();
  const deal = await insertPost(db, {
    user_id: id,
    title: `Deal by ${marker}`,
    description: `<p>Deal text ${marker}</p>`,
    image_url: `/media/posts/${marker}.webp`,
    store_id: store.id,
    category_id: category.id,
    coupon_code: `CODE${marker}`,
  });
  const discussion = await insertPost(db, {
    user_id: id,
    post_type: "g",
    title: `Discussion by ${marker}`,
    description: `<p>Discussion text ${marker}</p>`,
    status: "pending",
  });
  const comment = await insertComment(db, {
    postId: commonPostId,
    userId: id,
    body: `<p>Comment ${marker}</p>`,
  });
  const reply = await insertComment(db, {
    postId: commonPostId,
    userId: id,
    parentId: comment,
    body: `<p>Reply ${marker}</p>`,
  });
  await db
    .insertInto("likes")
    .values({ user_id: id, post_id: commonPostId, reaction: "like" })
    .execute();
  const liked = await insertComment(db, {
    postId: commonPostId,
    userId: followee,
    body: `<p>Followee's comment for ${marker}</p>`,
  });
  await db.insertInto("comment_likes").values({ comment_id: liked, user_id: id }).execute();
  await db.insertInto("expiry_marks").values({ user_id: id, post_id: commonPostId }).execute();
  await db
    .insertInto("coupon_feedback")
    .values({ user_id: id, post_id: commonPostId, worked: false, answered_at: new Date() })
    .execute();
  await db
    .insertInto("reports")
    .values({
      reporter_id: id,
      item_type: "comment",
      item_id: String(comment),
      reason: "other",
      note: `Report note ${marker}`,
    })
    .execute();
  await db.insertInto("saved_deals").values({ user_id: id, post_id: commonPostId }).execute();
  await db.insertInto("follows").values({ follower_id: id, followee_id: followee }).execute();
  await db.insertInto("store_follows").values({ user_id: id, store_id: store.id }).execute();
  await db
    .insertInto("category_follows")
    .values({ user_id: id, category_id: category.id })
    .execute();
  const rssHash = `rss-hash-${marker}`;
  await db
    .insertInto("alerts")
    .values({
      user_id: id,
      keywords: `alertword${marker}`,
      delivery: "daily",
      store_ids: [store.id],
      category_id: category.id,
      rss_token_hash: rssHash,
    })
    .execute();
  await db
    .insertInto("notifications")
    .values({ user_id: id, kind: "moderation", message: `Notice ${marker}`, link: "/user/alerts" })
    .execute();
  await db
    .insertInto("email_preferences")
    .values({ user_id: id, kind: "post_like", enabled: true })
    .execute();
  const pushDevice = await db
    .insertInto("push_subscriptions")
    .values({
      user_id: id,
      endpoint: `https://push.example.com/${marker}`,
      p256dh: `key-${marker}`,
      auth: `auth-${marker}`,
      device_label: "Firefox on Linux",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const pushMessage = await db
    .insertInto("push_messages")
    .values({
      user_id: id,
      kind: "alert",
      title: `Push ${marker}`,
      body: "A deal",
      url: "/user/alerts",
      tag: "t",
      urgency: "high",
      ttl_seconds: 3600,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("push_deliveries")
    .values({ message_id: pushMessage.id, subscription_id: pushDevice.id })
    .execute();
  await db
    .insertInto("weekly_digests")
    .values({
      user_id: id,
      week: "2026-11-27",
      post_ids: [deal.id],
      mailed: true,
      created_at: new Date("2026-11-27T09:00:00Z"),
    })
    .execute();
  const educatorHash = `educator-hash-${marker}`;
  await db
    .insertInto("educator_requests")
    .values({
      user_id: id,
      method: "school_email",
      school_email: `${marker}@school.example.edu`,
      note: `Educator note ${marker}`,
      token_hash: educatorHash,
      token_expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
  await db
    .insertInto("teachers_wishlist")
    .values({
      user_id: id,
      first_name: `First${marker}`,
      last_name: `Last${marker}`,
      school_location: `School ${marker}`,
      amazon_wishlist: `https://www.amazon.com/hz/wishlist/ls/${marker}`,
      status: "pending",
    })
    .execute();
  const message = await db
    .insertInto("contact_messages")
    .values({
      user_id: id,
      name: `Member ${marker}`,
      category: "General",
      subject: `Subject ${marker}`,
      email,
      mobile: "",
      message: `Contact text ${marker}`,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("contact_replies")
    .values({ message_id: message.id, author_name: "Staff", body: `Answer to ${marker}` })
    .execute();
  const emailHash = `email-token-hash-${marker}`;
  await db
    .insertInto("email_tokens")
    .values({
      user_id: id,
      purpose: "reset",
      token_hash: emailHash,
      expires_at: new Date(Date.now() + 3_600_000),
    })
    .execute();
  const plan = await db
    .insertInto("subscription_plans")
    .values({ name: `Plan ${marker}`, price_cents: 500 })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("subscriptions")
    .values({
      user_id: id,
      plan_id: plan.id,
      start_date: "2026-01-01",
      end_date: "2027-01-01",
      stripe_customer_id: `cus_${marker}`,
    })
    .execute();
  await db
    .insertInto("undeliverable_addresses")
    .values({
      address: email.toLowerCase(),
      reason: `550 no such user ${marker}`,
      failed_at: new Date(),
    })
    .execute();

  const client = new TestClient(t.app);
  const sessionToken = await client.signInAs(db, id);
  const sessions = await db
    .selectFrom("sessions")
    .select("token_hash")
    .where("user_id", "=", id)
    .execute();
  return {
    id,
    email,
    marker,
    postUniqueIds: [deal.unique_id, discussion.unique_id],
    commentIds: [comment, reply],
    likedCommentId: liked,
    secrets: [
      passwordHash,
      sessionToken,
      ...sessions.map((s) => s.token_hash),
      rssHash,
      educatorHash,
      emailHash,
    ],
    sessionToken,
    client,
  };
}

let a: Seeded;
let b: Seeded;

beforeAll(async () => {
  const followee = await createTestUser(t.deps.db, { name: "Followed Teacher" });
  const common = await insertPost(t.deps.db, { user_id: followee, title: "A deal both use" });
  a = await seedMember("alpha", followee, common.id);
  b = await seedMember("bravo", followee, common.id);
});

describe("GET /api/my_data", () => {
  it("answers member A's file: every kind of A's data, as an attachment nobody caches", async () => {
    const response = await a.client.get("/api/my_data");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["content-disposition"]).toMatch(
      /^attachment; filename="chalkboard-deals-my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(response.headers["cache-control"]).toBe("no-store");
    const file = MyDataResponse.parse(response.json());
    const site = t.config.publicUrl;

    expect(file.format).toBe("chalkboard-deals-my-data/1");
    expect(Date.parse(file.exported_at)).not.toBeNaN();
    expect(file.profile).toMatchObject({
      id: a.id,
      email: a.email,
      biography: `Bio of ${a.marker}`,
      mobile: `555-${a.marker}`,
      address: `1 ${a.marker} Street`,
      dob: "1990-04-05",
      gender: "female",
      role: "member",
      verified_educator: true,
      has_password: true,
      avatar_url: `${site}/media/avatars/${a.marker}.webp`,
      social_accounts: [{ provider: "google" }],
      subscriptions: [{ plan: `Plan ${a.marker}`, start_date: "2026-01-01" }],
      mail_undeliverable: { reason: `550 no such user ${a.marker}` },
    });
    expect(file.profile.email_verified_at).not.toBeNull();

    expect(file.posts.map((p) => p.unique_id).sort()).toEqual([...a.postUniqueIds].sort());
    const discussion = file.posts.find((p) => p.post_type === "g")!;
    expect(discussion).toMatchObject({ status: "pending", title: `Discussion by ${a.marker}` });
    const deal = file.posts.find((p) => p.post_type === "d")!;
    expect(deal.image_url).toBe(`${site}/media/posts/${a.marker}.webp`);
    expect(deal.url).toBe(`${site}/post/${deal.unique_id}/${deal.url.split("/").pop()}`);
    expect(deal.coupon_code).toBe(`CODE${a.marker}`);

    expect(file.comments.map((c) => c.id).sort()).toEqual([...a.commentIds].sort());
    expect(file.comments.find((c) => c.reply_to !== null)?.body).toBe(`<p>Reply ${a.marker}</p>`);
    expect(file.votes.likes).toMatchObject([
      { reaction: "like", weight: 1, post_title: "A deal both use" },
    ]);
    expect(file.votes.comment_likes).toMatchObject([
      { comment_id: a.likedCommentId, post_title: "A deal both use" },
    ]);
    expect(file.votes.expired_marks).toHaveLength(1);
    expect(file.votes.coupon_answers).toMatchObject([{ worked: false }]);
    expect(file.reports).toMatchObject([{ note: `Report note ${a.marker}`, item_type: "comment" }]);
    expect(file.saved_deals).toMatchObject([{ post_title: "A deal both use" }]);
    expect(file.saved_deals[0]!.post_url).toMatch(new RegExp(`^${site}/post/`));
    expect(file.follows.members).toMatchObject([{ name: "Followed Teacher" }]);
    expect(file.follows.stores).toHaveLength(1);
    expect(file.follows.categories).toHaveLength(1);
    expect(file.follows.stores[0]!.url).toMatch(new RegExp(`^${site}/store/`));
    expect(file.alerts).toMatchObject([{ keywords: `alertword${a.marker}`, delivery: "daily" }]);
    expect(file.alerts[0]!.stores).toHaveLength(1);
    expect(file.notifications).toMatchObject([
      { message: `Notice ${a.marker}`, link: `${site}/user/alerts` },
    ]);
    expect(file.push_devices).toMatchObject([
      { device: "Firefox on Linux", endpoint: `https://push.example.com/${a.marker}` },
    ]);
    // The browser's keys stay out of the file: they are secrets, not facts about the member.
    expect(JSON.stringify(file)).not.toContain(`auth-${a.marker}`);
    expect(file.push_messages).toMatchObject([
      { title: `Push ${a.marker}`, link: `${site}/user/alerts`, delivered_to: 1 },
    ]);
    expect(file.email_preferences).toMatchObject({
      post_like: true,
      comment_reply: true,
      weekly_digest: false,
    });
    expect(file.weekly_digests).toMatchObject([
      { week: "2026-11-27", mailed: true, deals: [{ post_title: `Deal by ${a.marker}` }] },
    ]);
    expect(file.sessions).toHaveLength(1);
    expect(file.sessions[0]).toMatchObject({ user_agent: "test", current: true });
    expect(file.uploaded_images.map((i) => i.url).sort()).toEqual([
      `${site}/media/avatars/${a.marker}.webp`,
      `${site}/media/posts/${a.marker}.webp`,
    ]);
    expect(file.educator_requests).toMatchObject([
      { note: `Educator note ${a.marker}`, school_email: `${a.marker}@school.example.edu` },
    ]);
    expect(file.wishlist_submissions).toMatchObject([
      { first_name: `First${a.marker}`, status: "pending" },
    ]);
    expect(file.contact_messages).toMatchObject([
      { subject: `Subject ${a.marker}`, replies: [{ body: `Answer to ${a.marker}` }] },
    ]);
  });

  it("holds nothing of member B's, and no token or password hash of anyone's", async () => {
    const response = await a.client.get("/api/my_data");
    const text = response.body;
    const file = MyDataResponse.parse(JSON.parse(text));

    expect(text).not.toContain(b.marker);
    expect(text.toLowerCase()).not.toContain(b.email.toLowerCase());
    for (const uniqueId of b.postUniqueIds) expect(text).not.toContain(uniqueId);
    const commentIds = file.comments.map((c) => c.id);
    for (const id of b.commentIds) expect(commentIds).not.toContain(id);
    expect(file.votes.comment_likes.map((l) => l.comment_id)).not.toContain(b.likedCommentId);
    expect(file.profile.id).not.toBe(b.id);
    expect(file.follows.members.map((m) => m.id)).not.toContain(b.id);
    expect(file.reports.map((r) => r.item_id)).not.toContain(String(b.commentIds[0]));

    for (const secret of [...a.secrets, ...b.secrets]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/token_hash|password_hash|\$argon2/);
    // The Stripe customer id is the payment provider's key, not the member's data.
    expect(text).not.toContain(`cus_${a.marker}`);
  });

  it("works with the session's token as a bearer token, without cookies", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/my_data",
      headers: { authorization: `Bearer ${a.sessionToken}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().profile.id).toBe(a.id);
  });

  it("answers a visitor, or a bad token, the API's usual 401", async () => {
    const signedInCall = await t.app.inject({ method: "GET", url: "/api/notifications" });
    expect(signedInCall.statusCode).toBe(401);
    const visitor = await t.app.inject({ method: "GET", url: "/api/my_data" });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual(signedInCall.json());
    expect(visitor.headers["content-disposition"]).toBeUndefined();
    const badToken = await t.app.inject({
      method: "GET",
      url: "/api/my_data",
      headers: { authorization: `Bearer ${randomBytes(32).toString("base64url")}` },
    });
    expect(badToken.statusCode).toBe(401);
  });

  it("allows five downloads an hour per member: the sixth answers 429 with Retry-After", async () => {
    const id = await createTestUser(t.deps.db, { name: "Frequent Downloader" });
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, id);
    const max = RATE_LIMITS.myData.max;
    expect(max).toBe(5);
    for (let i = 0; i < max; i++) {
      expect((await client.get("/api/my_data")).statusCode, `download ${i + 1}`).toBe(200);
    }
    const limited = await client.get("/api/my_data");
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
    expect(limited.json()).toMatchObject({
      status: false,
      message: expect.stringMatching(/Too many requests/),
    });
    // A bearer token of the same member meets the same count; another member has their own.
    const { token } = await createSession(t.deps.db, id, "another device");
    const sameMember = await t.app.inject({
      method: "GET",
      url: "/api/my_data",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(sameMember.statusCode).toBe(429);
    expect((await b.client.get("/api/my_data")).statusCode).toBe(200);
  });

  it("reads a deleted member's session as no member", async () => {
    const id = await createTestUser(t.deps.db, { name: "Leaving Member" });
    const { token } = await createSession(t.deps.db, id, "test");
    await t.deps.db
      .updateTable("users")
      .set({ deleted_at: new Date() })
      .where("id", "=", id)
      .execute();
    const response = await t.app.inject({
      method: "GET",
      url: "/api/my_data",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(401);
  });
});
