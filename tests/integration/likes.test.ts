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
    expect(response.json()).toEqual({ status: false, message: "No Data Found" });
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
