import { createHash } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

let t: TestApp;
let member: number;
let client: TestClient;
let post: { id: number; unique_id: string; slug: string; post_type: "d" | "g" };

beforeAll(async () => {
  t = await createTestApp();
  member = await createTestUser(t.deps.db);
  client = new TestClient(t.app);
  await client.signInAs(t.deps.db, member);
  post = await t.deps.db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug", "post_type"])
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await t?.close();
});

/** The post's counters, its stored score and the score the formula gives for them. */
async function counters(postId: number) {
  return t.deps.db
    .selectFrom("posts")
    .select([
      "likes_count",
      "unlikes_count",
      "hot_score",
      sql<number>`post_hot_score(likes_count, unlikes_count, comments_count, views, created_at)`.as(
        "expected_score",
      ),
    ])
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
}

async function reactionOf(userId: number, postId: number) {
  const row = await t.deps.db
    .selectFrom("likes")
    .select("reaction")
    .where("user_id", "=", userId)
    .where("post_id", "=", postId)
    .executeTakeFirst();
  return row?.reaction ?? null;
}

function press(btn_type: string, overrides: Record<string, unknown> = {}) {
  return client.post("/api/product_like_unlike", {
    user_id: member,
    post_id: post.id,
    post_type: post.post_type,
    btn_type,
    ...overrides,
  });
}

describe("POST /api/product_like_unlike", () => {
  it("like, like again (taken back), unlike, then like (switches): counts and score follow", async () => {
    const before = await counters(post.id);

    const liked = await press("like");
    expect(liked.statusCode).toBe(200);
    expect(liked.json()).toEqual({
      status: "true",
      message: "You liked this post.",
      is_liked: 1,
      likes: before.likes_count + 1,
      unlikes: before.unlikes_count,
      // Beside the spec's fields (record 0008): the temperature after the vote.
      temperature: expect.any(Number),
      heat: expect.stringMatching(/^(cold|mild|warm|hot)$/),
    });
    expect(await reactionOf(member, post.id)).toBe("like");
    const afterLike = await counters(post.id);
    expect(afterLike.likes_count).toBe(before.likes_count + 1);
    expect(afterLike.hot_score).toBeCloseTo(afterLike.expected_score, 9);
    expect(afterLike.hot_score).toBeGreaterThan(before.hot_score);

    const takenBack = await press("like");
    expect(takenBack.json()).toMatchObject({
      status: "true",
      is_liked: -1,
      likes: before.likes_count,
      unlikes: before.unlikes_count,
    });
    expect(await reactionOf(member, post.id)).toBeNull();

    const unliked = await press("unlike");
    expect(unliked.json()).toMatchObject({
      is_liked: 2,
      likes: before.likes_count,
      unlikes: before.unlikes_count + 1,
    });
    expect(await reactionOf(member, post.id)).toBe("unlike");

    const switched = await press("LIKE");
    expect(switched.json()).toMatchObject({
      is_liked: 1,
      likes: before.likes_count + 1,
      unlikes: before.unlikes_count,
    });
    const final = await counters(post.id);
    expect(final).toMatchObject({
      likes_count: before.likes_count + 1,
      unlikes_count: before.unlikes_count,
    });
    expect(final.hot_score).toBeCloseTo(final.expected_score, 9);
  });

  it("the deal page's product_details shows the user's reaction as is_liked", async () => {
    const details = await client.post("/api/product_details", {
      user_id: member,
      unique_id: post.unique_id,
      slug: post.slug,
      type: post.post_type,
    });
    expect(details.statusCode).toBe(200);
    expect(details.json().response.product_details.is_liked).toBe(1);
  });

  it("keeps the counters exact when many members react at once", async () => {
    const target = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const before = await counters(target.id);
    const clients = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const id = await createTestUser(t.deps.db);
        const c = new TestClient(t.app);
        await c.signInAs(t.deps.db, id);
        return { id, c, btn: i % 4 === 0 ? "unlike" : "like" };
      }),
    );
    const responses = await Promise.all(
      clients.map(({ id, c, btn }) =>
        c.post("/api/product_like_unlike", { user_id: id, post_id: target.id, btn_type: btn }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const after = await counters(target.id);
    expect(after.likes_count).toBe(before.likes_count + 6);
    expect(after.unlikes_count).toBe(before.unlikes_count + 2);
    const stored = await t.deps.db
      .selectFrom("likes")
      .select([
        sql<number>`count(*) filter (where reaction = 'like')`.as("likes"),
        sql<number>`count(*) filter (where reaction = 'unlike')`.as("unlikes"),
      ])
      .where("post_id", "=", target.id)
      .executeTakeFirstOrThrow();
    expect({ likes: Number(stored.likes), unlikes: Number(stored.unlikes) }).toEqual({
      likes: after.likes_count,
      unlikes: after.unlikes_count,
    });
  });

  it("an unknown post, a post of the other type or a removed post is 404", async () => {
    expect((await press("like", { post_id: 99999999 })).statusCode).toBe(404);
    expect(
      (await press("like", { post_type: post.post_type === "d" ? "g" : "d" })).statusCode,
    ).toBe(404);
    const victim = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("id", "<>", post.id)
      .orderBy("id", "desc")
      .offset(3)
      .executeTakeFirstOrThrow();
    const removed = await t.deps.db
      .updateTable("posts")
      .set({ status: "removed" })
      .where("id", "=", victim.id)
      .returning("id")
      .executeTakeFirstOrThrow();
    const response = await press("like", { post_id: removed.id, post_type: "" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: "false", message: "No Data Found" });
    expect(await reactionOf(member, removed.id)).toBeNull();
  });

  it("validates btn_type and post_id", async () => {
    const badButton = await press("love");
    expect(badButton.statusCode).toBe(422);
    expect(badButton.json().errors.btn_type).toBe("btn_type must be 'like' or 'unlike'.");
    const badPost = await press("like", { post_id: "abc" });
    expect(badPost.statusCode).toBe(422);
    expect(badPost.json().errors).toHaveProperty("post_id");
  });

  it("refuses a visitor (401), another user's user_id (403) and a call without XSRF header (403)", async () => {
    const before = await counters(post.id);
    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/product_like_unlike",
      payload: { user_id: member, post_id: post.id, post_type: "d", btn_type: "unlike" },
    });
    expect(visitor.statusCode).toBe(401);
    const other = await createTestUser(t.deps.db);
    expect((await press("unlike", { user_id: other })).statusCode).toBe(403);
    const noXsrf = await client.post(
      "/api/product_like_unlike",
      { user_id: member, post_id: post.id, post_type: "d", btn_type: "unlike" },
      { xsrf: false },
    );
    expect(noXsrf.statusCode).toBe(403);
    expect(await counters(post.id)).toEqual(before);
    expect(await reactionOf(other, post.id)).toBeNull();
  });
});

describe("repeated votes from one address are damped in the hot score (docs/decisions/0008)", () => {
  const FARM = "203.0.113.99";
  const BROWSER_UA =
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36";

  /** A post no other test here reacts to, with its unique id for product_details. */
  async function quietPost(offset: number) {
    return t.deps.db
      .selectFrom("posts")
      .select(["id", "unique_id", "post_type"])
      .where("status", "=", "active")
      .orderBy("id")
      .offset(offset)
      .executeTakeFirstOrThrow();
  }

  /** The stored score beside the formula with and without the damped reactions. */
  async function scoreOf(postId: number) {
    return t.deps.db
      .selectFrom("posts")
      .select([
        "likes_count",
        "unlikes_count",
        "damped_likes",
        "damped_unlikes",
        "hot_score",
        sql<number>`post_hot_score(likes_count - damped_likes, unlikes_count - damped_unlikes,
          comments_count, views, created_at)`.as("damped_score"),
        sql<number>`post_hot_score(likes_count, unlikes_count, comments_count, views, created_at)`.as(
          "undamped_score",
        ),
      ])
      .where("id", "=", postId)
      .executeTakeFirstOrThrow();
  }

  /** A new member pressing a button on a post from an address. */
  async function voter(postId: number, address: string) {
    const id = await createTestUser(t.deps.db);
    const c = new TestClient(t.app);
    await c.signInAs(t.deps.db, id);
    const press = (btn_type: "like" | "unlike") =>
      c.request({
        method: "POST",
        url: "/api/product_like_unlike",
        payload: { post_id: postId, btn_type },
        remoteAddress: address,
      });
    return { id, client: c, press };
  }

  it("counts at most 2 likes per address in the score, while the counts show every like", async () => {
    const post = await quietPost(5);
    const before = await scoreOf(post.id);
    const farm = [
      await voter(post.id, FARM),
      await voter(post.id, FARM),
      await voter(post.id, FARM),
    ];
    for (const [i, v] of farm.entries()) {
      const response = await v.press("like");
      expect(response.statusCode).toBe(200);
      expect(response.json().likes).toBe(before.likes_count + i + 1);
    }
    const farmed = await scoreOf(post.id);
    expect(farmed.likes_count).toBe(before.likes_count + 3);
    expect(farmed.damped_likes).toBe(before.damped_likes + 1);
    expect(farmed.hot_score).toBeCloseTo(farmed.damped_score, 9);
    expect(farmed.hot_score).toBeLessThan(farmed.undamped_score);

    // Someone from another address counts in full.
    await (await voter(post.id, "198.51.100.3")).press("like");
    const more = await scoreOf(post.id);
    expect(more.damped_likes).toBe(farmed.damped_likes);
    expect(more.hot_score).toBeGreaterThan(farmed.hot_score);

    // A farm account taking its like back frees the damped one.
    const takenBack = await farm[0]!.press("like");
    expect(takenBack.json().is_liked).toBe(-1);
    const after = await scoreOf(post.id);
    expect(after.damped_likes).toBe(before.damped_likes);
    expect(after.hot_score).toBeCloseTo(after.undamped_score, 9);
  });

  it("damps unlikes the same way, and a switch moves the vote between them", async () => {
    const post = await quietPost(7);
    const before = await scoreOf(post.id);
    const farm = [
      await voter(post.id, FARM),
      await voter(post.id, FARM),
      await voter(post.id, FARM),
    ];
    for (const v of farm) expect((await v.press("unlike")).statusCode).toBe(200);
    const buried = await scoreOf(post.id);
    expect(buried.unlikes_count).toBe(before.unlikes_count + 3);
    expect(buried.damped_unlikes).toBe(before.damped_unlikes + 1);
    expect(buried.hot_score).toBeCloseTo(buried.damped_score, 9);

    // One of them switches to a like: two unlikes and one like from the address, none damped.
    expect((await farm[2]!.press("like")).json().is_liked).toBe(1);
    const switched = await scoreOf(post.id);
    expect(switched).toMatchObject({
      unlikes_count: before.unlikes_count + 2,
      likes_count: before.likes_count + 1,
      damped_unlikes: before.damped_unlikes,
      damped_likes: before.damped_likes,
    });
    expect(switched.hot_score).toBeCloseTo(switched.undamped_score, 9);
  });

  it("keeps the damped score through a view and an account deletion", async () => {
    const post = await quietPost(8);
    const farm = [
      await voter(post.id, FARM),
      await voter(post.id, FARM),
      await voter(post.id, FARM),
    ];
    for (const v of farm) await v.press("like");
    const farmed = await scoreOf(post.id);
    expect(farmed.damped_likes).toBe(1);

    // A counted view recomputes the score elsewhere (core/posts): the damping holds.
    const viewed = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: post.unique_id, type: post.post_type },
      headers: { "user-agent": BROWSER_UA },
      remoteAddress: "198.51.100.77",
    });
    expect(viewed.statusCode).toBe(200);
    const afterView = await scoreOf(post.id);
    expect(afterView.hot_score).toBeCloseTo(afterView.damped_score, 9);
    expect(afterView.hot_score).toBeLessThan(afterView.undamped_score);

    // A farm account is deleted: its like goes, and so does the damping.
    const deleted = await farm[1]!.client.post("/api/user_deleted", { user_id: farm[1]!.id });
    expect(deleted.statusCode).toBe(200);
    const afterDeletion = await scoreOf(post.id);
    expect(afterDeletion.likes_count).toBe(farmed.likes_count - 1);
    expect(afterDeletion.damped_likes).toBe(0);
    expect(afterDeletion.hot_score).toBeCloseTo(afterDeletion.undamped_score, 9);
  });

  it("stores a keyed hash of the address, never the address, with one salt a day", async () => {
    const post = await quietPost(9);
    const a = await voter(post.id, FARM);
    const b = await voter(post.id, FARM);
    const c = await voter(post.id, "198.51.100.200");
    for (const v of [a, b, c]) await v.press("like");
    const keys = await t.deps.db
      .selectFrom("likes")
      .select(["user_id", "voter_key"])
      .where("post_id", "=", post.id)
      .where("user_id", "in", [a.id, b.id, c.id])
      .execute();
    const keyOf = (id: number) => keys.find((k) => k.user_id === id)?.voter_key;
    expect(keyOf(a.id)).toBeTruthy();
    expect(keyOf(a.id)).toBe(keyOf(b.id));
    expect(keyOf(c.id)).not.toBe(keyOf(a.id));
    const unkeyed = [
      FARM,
      createHash("sha256").update(FARM).digest("hex"),
      createHash("sha256").update(FARM).digest("base64url"),
    ];
    for (const plain of unkeyed) expect(keyOf(a.id)).not.toBe(plain);
    expect(JSON.stringify(keys)).not.toContain(FARM);
    const salts = await t.deps.db.selectFrom("vote_salts").selectAll().execute();
    expect(salts).toEqual([
      { day: new Date().toISOString().slice(0, 10), salt: expect.any(String) },
    ]);
  });
});
