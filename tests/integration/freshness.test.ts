import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FRESHNESS_MESSAGES } from "../../core/posts/freshness/schema.ts";
import type { NewPost } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser, establishMember } from "../helpers/users.ts";

/*
 * Freshness (record 0038): last verified, Worked / Didn't work on coupons, Still works. The app's
 * clock is pinned and moved by hand; the deals are this file's own, posted a day before the clock.
 */

const DAY = 24 * 60 * 60 * 1000;
/** Pinned at the minute the file starts (sessions are signed in against the same clock). */
let clock = new Date(Math.floor(Date.now() / 60_000) * 60_000);
let t: TestApp;
let posterId: number;
let poster: TestClient;

async function member() {
  const id = await createTestUser(t.deps.db);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

async function deal(values: Partial<NewPost> = {}) {
  const at = new Date(clock.getTime() - DAY);
  return insertPost(t.deps.db, {
    user_id: posterId,
    link: "https://shop.example/p/1",
    created_at: at,
    updated_at: at,
    ...values,
  });
}

const coupon = (values: Partial<NewPost> = {}) =>
  deal({ kind: "coupon", coupon_code: "TEACH20", ...values });

async function verified(postId: number) {
  return t.deps.db
    .selectFrom("posts")
    .select(["last_verified_at", "last_verified_by", "created_at"])
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
}

function feedback(client: TestClient, unique_id: unknown, worked: unknown) {
  return client.post("/api/coupon_feedback", { unique_id, worked });
}

async function details(client: TestClient, unique_id: string) {
  const response = await client.post("/api/product_details", { unique_id });
  expect(response.statusCode).toBe(200);
  return response.json().response;
}

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  ({ id: posterId, client: poster } = await member());
  // Its deals carry links and must publish at once: a member past the newcomer rules.
  await establishMember(t.deps.db, posterId);
});
afterAll(async () => {
  await t?.close();
});

describe("last verified", () => {
  it("is the posting time of a new deal, and shows on its card and its page", async () => {
    const ids = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", "deal")
      .executeTakeFirstOrThrow();
    const store = await t.deps.db.selectFrom("stores").select("id").executeTakeFirstOrThrow();
    const category = await t.deps.db
      .selectFrom("categories")
      .select("id")
      .executeTakeFirstOrThrow();
    const response = await poster.post("/api/save_deal", {
      user_id: posterId,
      deal_category: ids.id,
      store_id: store.id,
      category_id: category.id,
      title: "Freshly posted laminator",
      price: "19.99",
      discount: "20",
      link: `https://shop.example/p/laminator-${Date.now()}`,
      type: "d",
      deal_description: "<p>A laminator.</p>",
    });
    expect(response.statusCode).toBe(200);
    const uniqueId = response.json().response.unique_id as string;
    const row = await t.deps.db
      .selectFrom("posts")
      .select(["id", "created_at", "last_verified_at", "last_verified_by"])
      .where("unique_id", "=", uniqueId)
      .executeTakeFirstOrThrow();
    expect(row.created_at.toISOString()).toBe(clock.toISOString());
    expect(row.last_verified_at.toISOString()).toBe(clock.toISOString());
    expect(row.last_verified_by).toBe("posted");

    const page = await details(new TestClient(t.app), uniqueId);
    expect(page.product_details.last_verified_at).toBe(clock.toISOString());
    expect(page.freshness).toMatchObject({
      last_verified_at: clock.toISOString(),
      last_verified_by: "posted",
      link_check: null,
      coupon: null,
    });
  });

  it("was backfilled from created_at for every deal the migration found", async () => {
    const mismatched = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("last_verified_by", "=", "posted")
      .whereRef("last_verified_at", "<>", "created_at")
      .execute();
    expect(mismatched).toEqual([]);
  });
});

describe("POST /api/coupon_feedback", () => {
  it("counts one answer per member over the last 30 days; a later answer replaces the earlier", async () => {
    const post = await coupon();
    const start = clock;
    try {
      // Three members 40 days ago (outside the window), then answers within it.
      const old = await member();
      expect((await feedback(old.client, post.unique_id, true)).statusCode).toBe(200);
      clock = new Date(start.getTime() + 10 * DAY);
      const a = await member();
      const b = await member();
      const c = await member();
      expect((await feedback(a.client, post.unique_id, true)).statusCode).toBe(200);
      expect((await feedback(b.client, post.unique_id, false)).statusCode).toBe(200);
      const third = await feedback(c.client, post.unique_id, "true");
      expect(third.statusCode).toBe(200);
      expect(third.json().freshness.coupon).toEqual({
        worked: 3,
        total: 4,
        window_days: 30,
        your_answer: true,
      });

      // 35 days after the first answer: it has left the window.
      clock = new Date(start.getTime() + 35 * DAY);
      const later = await feedback(b.client, post.unique_id, true);
      expect(later.statusCode).toBe(200);
      expect(later.json()).toMatchObject({
        status: "true",
        message: FRESHNESS_MESSAGES.worked,
      });
      // b changed their answer: 3 answers in the window, all "worked".
      expect(later.json().freshness.coupon).toMatchObject({ worked: 3, total: 3 });

      // a answers again: replaced, not added.
      const again = await feedback(a.client, post.unique_id, false);
      expect(again.json().message).toBe(FRESHNESS_MESSAGES.didNotWork);
      expect(again.json().freshness.coupon).toMatchObject({
        worked: 2,
        total: 3,
        your_answer: false,
      });
      const rows = await t.deps.db
        .selectFrom("coupon_feedback")
        .select("user_id")
        .where("post_id", "=", post.id)
        .execute();
      expect(rows).toHaveLength(4);

      // The page says it in words for a visitor, with no answer of theirs.
      const page = await details(new TestClient(t.app), post.unique_id);
      expect(page.freshness.coupon).toEqual({
        worked: 2,
        total: 3,
        window_days: 30,
        your_answer: null,
      });
    } finally {
      clock = start;
    }
  });

  it("moves last verified forward on Worked, and not on Didn't work", async () => {
    const post = await coupon();
    const before = await verified(post.id);
    const m = await member();
    expect((await feedback(m.client, post.unique_id, false)).statusCode).toBe(200);
    expect(await verified(post.id)).toEqual(before);
    const n = await member();
    const worked = await feedback(n.client, post.unique_id, true);
    expect(worked.json().freshness).toMatchObject({
      last_verified_at: clock.toISOString(),
      last_verified_by: "coupon",
    });
    expect((await verified(post.id)).last_verified_at.toISOString()).toBe(clock.toISOString());
  });

  it("refuses one's own deal, a deal without a code, an expired, hidden, removed or deleted deal", async () => {
    const m = await member();
    const own = await coupon();
    const ownAnswer = await feedback(poster, own.unique_id, true);
    expect(ownAnswer.statusCode).toBe(403);
    expect(ownAnswer.json()).toMatchObject({ status: false, message: FRESHNESS_MESSAGES.own });

    const plain = await deal();
    const noCode = await feedback(m.client, plain.unique_id, true);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().message).toBe(FRESHNESS_MESSAGES.notCoupon);

    const expired = await coupon({ expires_at: new Date(clock.getTime() - 1000) });
    const late = await feedback(m.client, expired.unique_id, true);
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe(FRESHNESS_MESSAGES.expired);

    const hidden = await coupon({ status: "hidden" });
    const hiddenAnswer = await feedback(m.client, hidden.unique_id, true);
    expect(hiddenAnswer.statusCode).toBe(404);
    expect(hiddenAnswer.json().message).toBe(FRESHNESS_MESSAGES.notPublic);

    const removed = await coupon({ status: "removed" });
    const removedAnswer = await feedback(m.client, removed.unique_id, true);
    expect(removedAnswer.statusCode).toBe(404);
    expect(removedAnswer.json().message).toBe(FRESHNESS_MESSAGES.notFound);

    const deleted = await coupon();
    await t.deps.db.deleteFrom("posts").where("id", "=", deleted.id).execute();
    const deletedAnswer = await feedback(m.client, deleted.unique_id, true);
    expect(deletedAnswer.statusCode).toBe(404);
    expect(deletedAnswer.json().message).toBe(FRESHNESS_MESSAGES.notFound);

    const discussion = await insertPost(t.deps.db, { post_type: "g", user_id: posterId });
    const onDiscussion = await feedback(m.client, discussion.unique_id, true);
    expect(onDiscussion.statusCode).toBe(400);
    expect(onDiscussion.json().message).toBe(FRESHNESS_MESSAGES.notDeal);

    const stored = await t.deps.db
      .selectFrom("coupon_feedback")
      .select("post_id")
      .where("user_id", "in", [m.id, posterId])
      .execute();
    expect(stored).toEqual([]);
  });

  it("needs a confirmed member and CSRF, and answers bad input with 422", async () => {
    const post = await coupon();
    const visitor = new TestClient(t.app);
    expect((await feedback(visitor, post.unique_id, true)).statusCode).toBe(401);

    const unconfirmedId = await createTestUser(t.deps.db, { confirmed: false });
    const unconfirmed = new TestClient(t.app);
    await unconfirmed.signInAs(t.deps.db, unconfirmedId);
    expect((await feedback(unconfirmed, post.unique_id, true)).statusCode).toBe(403);

    const m = await member();
    const noToken = await m.client.post(
      "/api/coupon_feedback",
      { unique_id: post.unique_id, worked: true },
      { xsrf: false },
    );
    expect(noToken.statusCode).toBe(403);

    for (const worked of ["yes", 1, null, undefined]) {
      const bad = await feedback(m.client, post.unique_id, worked);
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors.worked).toBe("worked must be true or false.");
    }
    const noId = await feedback(m.client, "", true);
    expect(noId.statusCode).toBe(422);
    expect(noId.json().errors.unique_id).toBe("unique_id is required.");
    const unknown = await feedback(m.client, "nosuchdeal", true);
    expect(unknown.statusCode).toBe(404);
  });
});

describe("POST /api/confirm_deal", () => {
  it("refreshes last verified for a member's Still works", async () => {
    const post = await deal();
    const m = await member();
    const response = await m.client.post("/api/confirm_deal", { unique_id: post.unique_id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      status: "true",
      message: FRESHNESS_MESSAGES.confirmed,
      freshness: {
        last_verified_at: clock.toISOString(),
        last_verified_by: "member",
        coupon: null,
      },
    });
    const row = await verified(post.id);
    expect(row.last_verified_at.toISOString()).toBe(clock.toISOString());
    expect(row.last_verified_by).toBe("member");
  });

  it("refuses one's own deal, a coupon deal (it has its own buttons) and a deleted one", async () => {
    const own = await deal();
    const ownAnswer = await poster.post("/api/confirm_deal", { unique_id: own.unique_id });
    expect(ownAnswer.statusCode).toBe(403);
    expect(ownAnswer.json().message).toBe(FRESHNESS_MESSAGES.own);

    const m = await member();
    const withCode = await coupon();
    const onCoupon = await m.client.post("/api/confirm_deal", { unique_id: withCode.unique_id });
    expect(onCoupon.statusCode).toBe(400);
    expect(onCoupon.json().message).toBe(FRESHNESS_MESSAGES.isCoupon);

    const gone = await deal({ status: "removed" });
    const onGone = await m.client.post("/api/confirm_deal", { unique_id: gone.unique_id });
    expect(onGone.statusCode).toBe(404);
    expect((await verified(own.id)).last_verified_by).toBe("posted");
  });

  it("is rate-limited per member like other member actions", async () => {
    const limited = await createTestApp({
      seed: "none",
      env: { RATE_LIMIT: "on" },
      now: () => clock,
    });
    try {
      const ownerId = await createTestUser(limited.deps.db);
      const post = await insertPost(limited.deps.db, { user_id: ownerId, created_at: clock });
      const id = await createTestUser(limited.deps.db);
      const client = new TestClient(limited.app);
      await client.signInAs(limited.deps.db, id);
      const statuses: number[] = [];
      for (let i = 0; i < 31; i++) {
        statuses.push(
          (await client.post("/api/confirm_deal", { unique_id: post.unique_id })).statusCode,
        );
      }
      expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
      expect(statuses[30]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});
