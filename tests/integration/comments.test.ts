import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlToText } from "../../core/content/sanitize.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

const REQUIRED = "Please enter a comment before posting.";

let t: TestApp;
let member: number;
let client: TestClient;
let deal: { id: number; unique_id: string; slug: string; post_type: "d" | "g" };
let discussion: { id: number; unique_id: string; slug: string; post_type: "d" | "g" };

function livePost(type: "d" | "g") {
  return t.deps.db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug", "post_type"])
    .where("status", "=", "active")
    .where("post_type", "=", type)
    .orderBy("id")
    .executeTakeFirstOrThrow();
}

beforeAll(async () => {
  t = await createTestApp();
  member = await createTestUser(t.deps.db, { name: "Casey Commenter" });
  client = new TestClient(t.app);
  await client.signInAs(t.deps.db, member);
  deal = await livePost("d");
  discussion = await livePost("g");
});
afterAll(async () => {
  await t?.close();
});

async function postCounters(postId: number) {
  return t.deps.db
    .selectFrom("posts")
    .select([
      "comments_count",
      "hot_score",
      sql<number>`post_hot_score(likes_count, unlikes_count, comments_count, views, created_at)`.as(
        "expected_score",
      ),
    ])
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
}

async function commentCount() {
  const row = await t.deps.db
    .selectFrom("comments")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function comment(payload: Record<string, unknown>, by: TestClient = client) {
  return by.post("/api/product_add_comment", {
    user_id: member,
    post_id: deal.id,
    post_type: deal.post_type,
    comment_id: "",
    ...payload,
  });
}

describe("POST /api/product_add_comment", () => {
  it("posts a top-level comment: 201, the spec's message, the comment, and the post's counters", async () => {
    const before = await postCounters(deal.id);
    const response = await comment({ comment_text: "  Great price on these!\nBought two.  " });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({ status: "true", message: "Comment has been posted." });
    expect(body.comment).toMatchObject({
      id: expect.any(Number),
      user_id: member,
      user_name: "Casey Commenter",
      user_image: "",
      message: "<p>Great price on these!<br />Bought two.</p>",
      comment_id: "",
      product_id: deal.id,
      product_type: "d",
      comments_replies: [],
    });
    expect(Date.parse(body.comment.created_at)).not.toBeNaN();
    const after = await postCounters(deal.id);
    expect(after.comments_count).toBe(before.comments_count + 1);
    expect(after.hot_score).toBeGreaterThan(before.hot_score);
    expect(after.hot_score).toBeCloseTo(after.expected_score, 9);
  });

  it("posts a reply under a comment of the same post, shown nested by product_details", async () => {
    const parent = (await comment({ comment_text: "Does it ship free?" })).json().comment;
    const reply = await comment({ comment_id: String(parent.id), comment_text: "Yes, over $35." });
    expect(reply.statusCode).toBe(201);
    expect(reply.json().comment).toMatchObject({ comment_id: parent.id, product_id: deal.id });

    const details = await client.post("/api/product_details", {
      unique_id: deal.unique_id,
      slug: deal.slug,
      type: "d",
    });
    const thread = details.json().response.comments.find((c: { id: number }) => c.id === parent.id);
    expect(thread.comments_replies.map((r: { message: string }) => r.message)).toEqual([
      "<p>Yes, over $35.</p>",
    ]);
  });

  it("comments on an educator discussion (post_type g) too", async () => {
    const response = await comment({
      post_id: discussion.id,
      post_type: "g",
      comment_text: "We tried this in 3rd grade.",
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().comment.product_type).toBe("g");
  });

  it("refuses a reply to a comment of another post, or to an unknown comment, with 404", async () => {
    const elsewhere = (
      await comment({ post_id: discussion.id, post_type: "g", comment_text: "Elsewhere" })
    ).json().comment;
    const count = await commentCount();
    const crossPost = await comment({ comment_id: elsewhere.id, comment_text: "Wrong thread" });
    expect(crossPost.statusCode).toBe(404);
    const unknown = await comment({ comment_id: 99999999, comment_text: "Nobody home" });
    expect(unknown.statusCode).toBe(404);
    expect(await commentCount()).toBe(count);
  });

  it("refuses an unknown post, a post of the other type and a removed post with 404", async () => {
    const count = await commentCount();
    expect((await comment({ post_id: 99999999, comment_text: "Hello" })).statusCode).toBe(404);
    expect((await comment({ post_type: "g", comment_text: "Hello" })).statusCode).toBe(404);
    const removed = await t.deps.db
      .insertInto("posts")
      .values({
        unique_id: "removedpost1",
        slug: "removed",
        post_type: "d",
        kind: "deal",
        title: "Removed deal",
        status: "removed",
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await comment({ post_id: removed.id, comment_text: "Hello" })).statusCode).toBe(404);
    expect(await commentCount()).toBe(count);
  });

  it.each([
    ["empty", ""],
    ["spaces", "    "],
    ["new lines and tabs", "\n\t \n"],
    ["zero-width spaces", "\u200b\u200b "],
    ["missing", undefined],
    ["null", null],
  ])("refuses a %s comment with the spec's message (422) and stores nothing", async (_, text) => {
    const count = await commentCount();
    const response = await comment({ comment_text: text });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      status: false,
      message: REQUIRED,
      errors: { comment_text: REQUIRED },
    });
    expect(await commentCount()).toBe(count);
  });

  it("refuses a comment over 5,000 characters", async () => {
    const response = await comment({ comment_text: "a".repeat(5001) });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe("Comments can be at most 5,000 characters.");
  });

  it("turns web addresses into links marked nofollow ugc", async () => {
    const response = await comment({
      comment_text: "Cheaper here: https://example.com/deal?a=1&b=2. Thanks!",
    });
    expect(response.json().comment.message).toBe(
      '<p>Cheaper here: <a href="https://example.com/deal?a=1&amp;b=2" rel="nofollow ugc noopener" target="_blank">https://example.com/deal?a=1&amp;b=2</a>. Thanks!</p>',
    );
  });

  it("an unconfirmed account may not publish comments (403, nothing stored)", async () => {
    const newcomer = await createTestUser(t.deps.db, { confirmed: false });
    const newcomerClient = new TestClient(t.app);
    await newcomerClient.signInAs(t.deps.db, newcomer);
    const count = await commentCount();
    const response = await comment({ user_id: newcomer, comment_text: "First!" }, newcomerClient);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/confirm your email/);
    expect(await commentCount()).toBe(count);
  });

  it("refuses a visitor (401), another user's user_id (403) and a call without XSRF header (403)", async () => {
    const count = await commentCount();
    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/product_add_comment",
      payload: {
        user_id: member,
        post_id: deal.id,
        post_type: "d",
        comment_id: "",
        comment_text: "Hi",
      },
    });
    expect(visitor.statusCode).toBe(401);
    const other = await createTestUser(t.deps.db);
    expect((await comment({ user_id: other, comment_text: "Hi" })).statusCode).toBe(403);
    const noXsrf = await client.post(
      "/api/product_add_comment",
      { user_id: member, post_id: deal.id, post_type: "d", comment_id: "", comment_text: "Hi" },
      { xsrf: false },
    );
    expect(noXsrf.statusCode).toBe(403);
    expect(await commentCount()).toBe(count);
  });
});

/** Markup that would run script, load remote content or restyle the page if it were interpreted. */
const XSS_CORPUS = [
  "<script>alert(1)</script>",
  '<img src=x onerror="alert(1)">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>',
  '<svg onload="alert(1)"><circle r="5"/></svg>',
  "<svg><script>alert(1)</script></svg>",
  '<iframe src="https://evil.example"></iframe>',
  '<p style="position:fixed;top:0">overlay</p>',
  '"><body onload=alert(1)>',
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "javascript:alert(1)",
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>",
];

/** No element, attribute or URL scheme that could act survives: markup is text. */
function expectInert(html: string) {
  expect(html).not.toMatch(/<(script|svg|img|iframe|style|body|math|table)\b/i);
  expect(html).not.toMatch(/<[^>]+\son\w+\s*=/i);
  expect(html).not.toMatch(/<[^>]+(href|src)\s*=\s*["']?\s*(javascript|data):/i);
  expect(html).not.toMatch(/<[^>]+\sstyle\s*=/i);
}

describe("comments are inert whatever is typed", () => {
  it.each(XSS_CORPUS)("%s", async (payload) => {
    const response = await comment({ comment_text: payload });
    expect(response.statusCode).toBe(201);
    const { comment: saved } = response.json();
    expectInert(saved.message);
    // What was typed is kept and shown as text.
    expect(htmlToText(saved.message)).toBe(payload);

    const stored = await t.deps.db
      .selectFrom("comments")
      .select("body")
      .where("id", "=", saved.id)
      .executeTakeFirstOrThrow();
    expectInert(stored.body);

    const details = await client.post("/api/product_details", {
      unique_id: deal.unique_id,
      slug: deal.slug,
      type: "d",
    });
    const shown = details.json().response.comments.find((c: { id: number }) => c.id === saved.id);
    expectInert(shown.message);
  });

  it("a javascript: address typed as text is never made a link", async () => {
    const response = await comment({ comment_text: "javascript:alert(1) and data:text/html,x" });
    expect(response.json().comment.message).toBe("<p>javascript:alert(1) and data:text/html,x</p>");
  });
});

describe("comment rate limit", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMIT: "on" } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("answers 429 with Retry-After after 30 comments in 10 minutes from one account", async () => {
    const id = await createTestUser(limited.deps.db);
    const c = new TestClient(limited.app);
    await c.signInAs(limited.deps.db, id);
    const target = await limited.deps.db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const send = (n: number) =>
      c.post("/api/product_add_comment", {
        user_id: id,
        post_id: target.id,
        comment_id: "",
        comment_text: `Comment number ${n}`,
      });
    for (let n = 1; n <= 30; n++) expect((await send(n)).statusCode).toBe(201);
    const refused = await send(31);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      status: false,
      message: expect.stringMatching(/Too many/),
    });

    // Another member on the same address is not locked out.
    const neighbour = await createTestUser(limited.deps.db);
    const n = new TestClient(limited.app);
    await n.signInAs(limited.deps.db, neighbour);
    const allowed = await n.post("/api/product_add_comment", {
      user_id: neighbour,
      post_id: target.id,
      comment_id: "",
      comment_text: "Hello from the same school",
    });
    expect(allowed.statusCode).toBe(201);
  });
});
