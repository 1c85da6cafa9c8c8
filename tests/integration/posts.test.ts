import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";

const BROWSER_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
const OTHER_BROWSER_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15";
const BOT_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

interface CommentJson {
  id: number;
  user_id: number | null;
  user_name: string;
  user_image: string;
  message: string;
  created_at: string;
  comment_id: number | "";
  product_id: number;
  product_type: string;
  comments_replies: CommentJson[];
}

let t: TestApp;

/** A deal that has a comment with a reply, and an educator post. */
let deal: { id: number; unique_id: string; slug: string };
let discussion: { id: number; unique_id: string; slug: string };
let userIds: number[];

function details(payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/api/product_details",
    payload,
    headers: { "user-agent": BROWSER_UA, ...headers },
  });
}

async function viewsOf(postId: number) {
  const row = await t.deps.db
    .selectFrom("posts")
    .select(["views", "hot_score"])
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
  return row;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  deal = await db
    .selectFrom("posts")
    .select(["posts.id", "posts.unique_id", "posts.slug"])
    .where("posts.post_type", "=", "d")
    .where("posts.status", "=", "active")
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("comments as reply")
          .select("reply.id")
          .whereRef("reply.post_id", "=", "posts.id")
          .where("reply.parent_id", "is not", null),
      ),
    )
    .orderBy("posts.id")
    .executeTakeFirstOrThrow();
  discussion = await db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug"])
    .where("post_type", "=", "g")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  userIds = (await db.selectFrom("users").select("id").orderBy("id").execute()).map((u) => u.id);
});

afterAll(async () => {
  await t?.close();
});

describe("POST /api/product_details", () => {
  it("answers a deal in the spec's shape, with threaded comments", async () => {
    const response = await details({ unique_id: deal.unique_id, slug: deal.slug, type: "d" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("true");
    const { product_details: post, comments, comments_user_image } = body.response;
    expect(post).toMatchObject({
      post_id: deal.id,
      post_type: "d",
      unique_id: deal.unique_id,
      slug: deal.slug,
      is_liked: -1,
      path: `/post/${deal.unique_id}/${deal.slug}`,
    });
    for (const field of [
      "title",
      "description",
      "image_url",
      "price",
      "currency",
      "deal_badge",
      "grab_deal_link",
      "coupon_code",
      "expiry",
      "is_expired",
      "views",
      "created_at",
      "likes",
      "unlikes",
      "store",
      "category",
      "user",
    ]) {
      expect(post).toHaveProperty(field);
    }
    expect(comments_user_image).toBe("");
    // Never a private field of the author.
    expect(JSON.stringify(body)).not.toMatch(/password|"email"/);

    const stored = await t.deps.db
      .selectFrom("comments")
      .select(["id", "parent_id"])
      .where("post_id", "=", deal.id)
      .where("deleted_at", "is", null)
      .execute();
    const flat: CommentJson[] = [];
    const walk = (list: CommentJson[], parent: number | "") => {
      for (const c of list) {
        expect(c.comment_id).toBe(parent);
        expect(c.product_id).toBe(deal.id);
        expect(c.product_type).toBe("d");
        flat.push(c);
        walk(c.comments_replies, c.id);
      }
    };
    walk(comments, "");
    expect(flat.map((c) => c.id).sort((a, b) => a - b)).toEqual(
      stored.map((c) => c.id).sort((a, b) => a - b),
    );
    expect(comments.some((c: CommentJson) => c.comments_replies.length > 0)).toBe(true);
    // Oldest first at each level.
    for (let i = 1; i < comments.length; i++) {
      expect(comments[i].created_at >= comments[i - 1].created_at).toBe(true);
    }
  });

  it("answers an educator post with type g", async () => {
    const response = await details({
      unique_id: discussion.unique_id,
      slug: discussion.slug,
      type: "g",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().response.product_details).toMatchObject({
      post_id: discussion.id,
      post_type: "g",
      path: `/educator/${discussion.unique_id}/${discussion.slug}`,
    });
  });

  it("answers 404 'No Data Found' for an unknown post or the wrong type", async () => {
    for (const payload of [
      { unique_id: "nosuchpost", slug: "x", type: "d" },
      { unique_id: deal.unique_id, slug: deal.slug, type: "g" },
      { unique_id: discussion.unique_id, slug: discussion.slug, type: "d" },
    ]) {
      const response = await details(payload);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ status: "false", message: "No Data Found" });
    }
  });

  it("finds a post by unique_id whatever the slug (the page redirects to the right one)", async () => {
    const response = await details({ unique_id: deal.unique_id, slug: "old-title", type: "d" });
    expect(response.statusCode).toBe(200);
    expect(response.json().response.product_details.slug).toBe(deal.slug);
  });

  it("refuses a payload without unique_id or with a bad type with 422, never 500", async () => {
    for (const payload of [
      {},
      { unique_id: "" },
      { unique_id: deal.unique_id, type: "x" },
      { unique_id: 12 },
    ]) {
      const response = await details(payload);
      expect(response.statusCode).toBe(422);
      expect(response.json().status).toBe(false);
    }
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("gives is_liked 1, 2 or -1 from the session user's own reaction, ignoring a payload user_id", async () => {
    const [liker, unliker, neutral] = await Promise.all(
      [0, 1, 2].map(async (i) => {
        const client = new TestClient(t.app);
        await client.signInAs(t.deps.db, userIds[i]!);
        return client;
      }),
    );
    const db = t.deps.db;
    await db
      .deleteFrom("likes")
      .where("post_id", "=", deal.id)
      .where("user_id", "in", userIds.slice(0, 3))
      .execute();
    await db
      .insertInto("likes")
      .values([
        { post_id: deal.id, user_id: userIds[0]!, reaction: "like" },
        { post_id: deal.id, user_id: userIds[1]!, reaction: "unlike" },
      ])
      .execute();
    const ask = async (client: TestClient, userId: number) => {
      const response = await client.request({
        method: "POST",
        url: "/api/product_details",
        payload: { user_id: userId, unique_id: deal.unique_id, slug: deal.slug, type: "d" },
        headers: { "user-agent": BROWSER_UA },
      });
      expect(response.statusCode).toBe(200);
      return response.json().response;
    };
    expect((await ask(liker!, userIds[0]!)).product_details.is_liked).toBe(1);
    expect((await ask(unliker!, userIds[1]!)).product_details.is_liked).toBe(2);
    const neutralAnswer = await ask(neutral!, userIds[2]!);
    expect(neutralAnswer.product_details.is_liked).toBe(-1);
    // Naming someone else in user_id does not reveal their reaction.
    expect((await ask(neutral!, userIds[0]!)).product_details.is_liked).toBe(-1);
    const me = await db
      .selectFrom("users")
      .select("image_url")
      .where("id", "=", userIds[2]!)
      .executeTakeFirstOrThrow();
    expect(neutralAnswer.comments_user_image).toBe(me.image_url ?? "");
  });

  it("cleans stored HTML again on the way out", async () => {
    const db = t.deps.db;
    await db
      .updateTable("posts")
      .set({
        description:
          '<p>Great <script>alert(1)</script><a href="javascript:alert(2)" onclick="x()">deal</a></p>',
      })
      .where("id", "=", discussion.id)
      .execute();
    const comment = await db
      .insertInto("comments")
      .values({
        post_id: discussion.id,
        user_id: userIds[0]!,
        body: '<p>Hi<img src=x onerror="alert(3)"><svg onload="alert(4)"></svg></p>',
        created_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const body = (await details({ unique_id: discussion.unique_id, type: "g" })).json().response;
    expect(body.product_details.description).not.toMatch(/script|javascript:|onclick/i);
    expect(body.product_details.description).toContain("Great");
    const mine = body.comments.find((c: CommentJson) => c.id === comment.id);
    expect(mine.message).toContain("Hi");
    expect(mine.message).not.toMatch(/onerror|onload|<svg|<img/i);
  });

  it("keeps a deleted comment with replies as a placeholder and drops one without", async () => {
    const db = t.deps.db;
    const now = Date.now();
    const parent = await db
      .insertInto("comments")
      .values({
        post_id: discussion.id,
        user_id: userIds[1]!,
        body: "<p>parent</p>",
        created_at: new Date(now),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const reply = await db
      .insertInto("comments")
      .values({
        post_id: discussion.id,
        user_id: userIds[2]!,
        parent_id: parent.id,
        body: "<p>reply</p>",
        created_at: new Date(now + 1000),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const lonely = await db
      .insertInto("comments")
      .values({
        post_id: discussion.id,
        user_id: userIds[1]!,
        body: "<p>gone</p>",
        created_at: new Date(now),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("comments")
      .set({ deleted_at: new Date() })
      .where("id", "in", [parent.id, lonely.id])
      .execute();
    const comments: CommentJson[] = (
      await details({ unique_id: discussion.unique_id, type: "g" })
    ).json().response.comments;
    const kept = comments.find((c) => c.id === parent.id)!;
    expect(kept.message).toContain("deleted");
    expect(kept.user_id).toBeNull();
    expect(kept.user_name).toBe("");
    expect(kept.comments_replies.map((c) => c.id)).toEqual([reply.id]);
    expect(comments.find((c) => c.id === lonely.id)).toBeUndefined();
  });
});

describe("views", () => {
  let viewed = 0;

  it("counts a visitor once a day, each visitor and each signed-in user once, and no bots", async () => {
    // A post no other test has opened.
    const { id, unique_id } = await t.deps.db
      .selectFrom("posts")
      .select(["id", "unique_id"])
      .where("post_type", "=", "d")
      .where("id", "<>", deal.id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    viewed = id;
    const before = await viewsOf(id);
    const ask = (headers: Record<string, string>) => details({ unique_id, type: "d" }, headers);

    const first = await ask({ "user-agent": BROWSER_UA });
    expect(first.json().response.product_details.views).toBe(before.views + 1);
    const after = await viewsOf(id);
    expect(after.views).toBe(before.views + 1);
    expect(after.hot_score).not.toBe(before.hot_score);

    await ask({ "user-agent": BROWSER_UA });
    expect((await viewsOf(id)).views).toBe(before.views + 1);

    await ask({ "user-agent": OTHER_BROWSER_UA });
    expect((await viewsOf(id)).views).toBe(before.views + 2);

    await ask({ "user-agent": BOT_UA });
    await ask({ "user-agent": "" });
    expect((await viewsOf(id)).views).toBe(before.views + 2);

    const member = new TestClient(t.app);
    await member.signInAs(t.deps.db, userIds[3]!);
    const asMember = () =>
      member.request({
        method: "POST",
        url: "/api/product_details",
        payload: { unique_id, type: "d" },
        headers: { "user-agent": BROWSER_UA },
      });
    await asMember();
    await asMember();
    expect((await viewsOf(id)).views).toBe(before.views + 3);

    // The stored key is a hash, never the address or the user id.
    const keys = await t.deps.db
      .selectFrom("post_views")
      .select("visitor_key")
      .where("post_id", "=", id)
      .execute();
    expect(keys).toHaveLength(3);
    for (const { visitor_key } of keys) expect(visitor_key).toMatch(/^[0-9a-f]{64}$/);
  });

  it("recomputes the trending score from the new view count", async () => {
    const row = await t.deps.db
      .selectFrom("posts")
      .select([
        "hot_score",
        sql<number>`post_hot_score(likes_count, unlikes_count, comments_count, views, created_at)`.as(
          "expected",
        ),
      ])
      .where("id", "=", viewed)
      .executeTakeFirstOrThrow();
    expect(row.hot_score).toBeCloseTo(row.expected, 9);
  });
});
