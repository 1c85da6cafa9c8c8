import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CurrentUser } from "../../core/auth/sessions.ts";
import { AUTHOR_IDS_MAX } from "../../core/posts/console-repository.ts";
import { insertMediaRecord } from "../../core/media/image-records.ts";
import { storeUploadedImage } from "../../core/media/images.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertComment, insertPost, signedInStaff } from "../helpers/console.ts";
import { pngImage } from "../helpers/multipart.ts";
import type { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

let t: TestApp;
let moderator: { id: number; client: TestClient };
let admin: { id: number; client: TestClient };
let author: { id: number; name: string; email: string };
let store: { id: number; title: string };
let otherStore: { id: number };
let category: { id: number };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  moderator = await signedInStaff(t.app, db, "moderator");
  admin = await signedInStaff(t.app, db, "admin");
  const authorId = await createTestUser(db, { name: "Quincy Consoleauthor" });
  author = await db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("id", "=", authorId)
    .executeTakeFirstOrThrow();
  const stores = await db.selectFrom("stores").select(["id", "title"]).orderBy("id").execute();
  store = stores[0]!;
  otherStore = stores[1]!;
  category = await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
});
afterAll(async () => {
  await t?.close();
});

const list = (query: string, client = moderator.client) => client.get(`/api/admin/posts?${query}`);

function postRow(uniqueId: string) {
  return t.deps.db
    .selectFrom("posts")
    .selectAll()
    .where("unique_id", "=", uniqueId)
    .executeTakeFirst();
}

async function allPostsCount() {
  const row = await t.deps.db
    .selectFrom("posts")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe("GET /api/admin/posts", () => {
  it("lists every post in every state, newest first, 20 a page", async () => {
    const hidden = await insertPost(t.deps.db, { status: "hidden", title: "Hidden console deal" });
    const response = await list("");
    expect(response.statusCode).toBe(200);
    const { posts, pagination } = response.json().response;
    const total = await allPostsCount();
    expect(pagination).toEqual({
      total,
      current_page: 1,
      last_page: Math.max(1, Math.ceil(total / 20)),
    });
    expect(posts).toHaveLength(Math.min(20, total));
    expect(posts[0].unique_id).toBe(hidden.unique_id);
    expect(posts[0].status).toBe("hidden");
    const times = posts.map((p: { created_at: string }) => p.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const second = (await list("page=2")).json().response;
    expect(second.pagination.current_page).toBe(2);
    const firstIds = new Set(posts.map((p: { unique_id: string }) => p.unique_id));
    expect(second.posts.some((p: { unique_id: string }) => firstIds.has(p.unique_id))).toBe(false);
  });

  it("filters by status, type, store, category, author and search", async () => {
    const db = t.deps.db;
    const pending = await insertPost(db, {
      status: "pending",
      title: "Held laminator sheets",
      user_id: author.id,
      store_id: store.id,
      category_id: category.id,
    });
    const discussion = await insertPost(db, {
      post_type: "g",
      title: "Console discussion about phonics",
      user_id: author.id,
    });

    const statuses = (await list("status=pending")).json().response.posts;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((p: { status: string }) => p.status === "pending")).toBe(true);
    expect(statuses.map((p: { unique_id: string }) => p.unique_id)).toContain(pending.unique_id);

    const discussions = (await list("type=g&author=" + author.id)).json().response.posts;
    expect(discussions.map((p: { unique_id: string }) => p.unique_id)).toEqual([
      discussion.unique_id,
    ]);

    for (const author_ of [String(author.id), "consoleauthor", author.email.toUpperCase()]) {
      const byAuthor = (await list(`author=${encodeURIComponent(author_)}`)).json().response;
      expect(byAuthor.posts.map((p: { unique_id: string }) => p.unique_id).sort()).toEqual(
        [pending.unique_id, discussion.unique_id].sort(),
      );
      expect(byAuthor.posts[0].author).toEqual({ id: author.id, name: author.name });
    }

    const inStore = (await list(`store_id=${store.id}&category_id=${category.id}`)).json().response;
    expect(inStore.pagination.total).toBeGreaterThan(0);
    expect(
      inStore.posts.every(
        (p: { store: { id: number }; category: { id: number } }) =>
          p.store.id === store.id && p.category.id === category.id,
      ),
    ).toBe(true);

    expect(
      (await list("q=laminator%20SHEETS"))
        .json()
        .response.posts.map((p: { unique_id: string }) => p.unique_id),
    ).toEqual([pending.unique_id]);
    expect(
      (await list(`q=${pending.unique_id}`))
        .json()
        .response.posts.map((p: { unique_id: string }) => p.unique_id),
    ).toEqual([pending.unique_id]);
    // LIKE's wildcards are searched for as typed.
    await insertPost(db, { title: "Crayons: 100% off today" });
    const percent = (await list("q=100%25")).json().response.posts;
    expect(percent.length).toBeGreaterThan(0);
    expect(percent.every((p: { title: string }) => p.title.includes("100%"))).toBe(true);
    expect((await list("q=s_o")).json().response.pagination.total).toBe(0);
  });

  it("filters by an author nobody matches, one member, or more members than are looked up by id", async () => {
    const db = t.deps.db;
    const nobody = (await list("author=nobody-at-all-here")).json().response;
    expect(nobody.posts).toEqual([]);
    expect(nobody.pagination).toMatchObject({ total: 0, current_page: 1, last_page: 1 });

    // More members match than AUTHOR_IDS_MAX: the filter is applied as a join, with the same result.
    const broad = await sql<{ id: number }>`
      INSERT INTO users (name, email, email_verified_at)
      SELECT 'Broadly Named ' || g, 'broadly-' || g || '@example.com', now()
      FROM generate_series(1, ${AUTHOR_IDS_MAX + 5}) AS g
      RETURNING id`.execute(db);
    const ids = broad.rows.map((row) => Number(row.id));
    const first = await insertPost(db, { title: "Broad author's deal", user_id: ids[0] });
    const last = await insertPost(db, { title: "Another broad deal", user_id: ids.at(-1) });
    const byMany = (await list("author=broadly%20named")).json().response;
    expect(byMany.posts.map((p: { unique_id: string }) => p.unique_id)).toEqual([
      last.unique_id,
      first.unique_id,
    ]);
    expect(byMany.pagination.total).toBe(2);
    const byOne = (await list("author=broadly-1%40example.com")).json().response;
    expect(byOne.posts.map((p: { unique_id: string }) => p.unique_id)).toEqual([first.unique_id]);
    expect(byOne.pagination.total).toBe(1);
  });

  it("totals each status and type as a count of the posts says, as posts are held, moved and deleted", async () => {
    const db = t.deps.db;
    const expectTotals = async () => {
      for (const [query, where] of [
        ["", sql`true`],
        ["status=pending", sql`status = 'pending'`],
        ["status=active&type=d", sql`status = 'active' AND post_type = 'd'`],
        ["type=g", sql`post_type = 'g'`],
        ["status=removed&type=g", sql`status = 'removed' AND post_type = 'g'`],
      ] as const) {
        const counted = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM posts WHERE ${where}`.execute(db);
        const { pagination } = (await list(query)).json().response;
        expect(pagination.total, query).toBe(counted.rows[0]!.n);
      }
    };
    const held = await insertPost(db, { status: "pending", title: "Totals held deal" });
    const talk = await insertPost(db, { post_type: "g", title: "Totals discussion" });
    await expectTotals();
    await db.updateTable("posts").set({ status: "removed" }).where("id", "=", talk.id).execute();
    await db.updateTable("posts").set({ status: "active" }).where("id", "=", held.id).execute();
    await expectTotals();
    await db.deleteFrom("posts").where("id", "in", [held.id, talk.id]).execute();
    await expectTotals();
  });

  it("sorts by likes, comments, trending and age", async () => {
    const byLikes = (await list("sort=most_liked")).json().response.posts;
    const likes = byLikes.map((p: { likes: number }) => p.likes);
    expect([...likes].sort((a, b) => b - a)).toEqual(likes);
    const byComments = (await list("sort=most_comments")).json().response.posts;
    const comments = byComments.map((p: { comments: number }) => p.comments);
    expect([...comments].sort((a, b) => b - a)).toEqual(comments);
    const oldest = (await list("sort=oldest")).json().response.posts;
    const times = oldest.map((p: { created_at: string }) => p.created_at);
    expect([...times].sort()).toEqual(times);
    const hottest = (await list("sort=hottest")).json().response.posts;
    const top = await t.deps.db
      .selectFrom("posts")
      .select("unique_id")
      .orderBy("hot_score", "desc")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(hottest[0].unique_id).toBe(top.unique_id);
  });

  it("refuses a bad filter with a message per field (422)", async () => {
    const response = await list("sort=cheapest&status=gone&store_id=abc&page=0");
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors).sort()).toEqual(
      ["page", "sort", "status", "store_id"].sort(),
    );
  });
});

describe("POST /api/admin/posts/update", () => {
  const update = (body: Record<string, unknown>, client = moderator.client) =>
    client.post("/api/admin/posts/update", body);

  it("edits a deal, derives slug, link key and discount, and audits before and after", async () => {
    const deal = await insertPost(t.deps.db, {
      title: "Old laminator title",
      price: 30,
      link: "https://shop.example.com/old",
      link_key: "shop.example.com/old",
      store_id: store.id,
    });
    const response = await update({
      unique_id: deal.unique_id,
      title: "New laminator title",
      price: "15",
      list_price: "60",
      link: "https://www.shop.example.com/new/?utm_source=x",
      store_id: otherStore.id,
      description: '<p>Better <script>alert(1)</script><a href="javascript:x()">offer</a></p>',
      deal_badge: "Hot",
      reason: "Tidy up",
    });
    expect(response.statusCode).toBe(200);
    const answer = response.json();
    expect(answer.response).toEqual({
      unique_id: deal.unique_id,
      title: "New laminator title",
      slug: "new-laminator-title",
      path: `/post/${deal.unique_id}/new-laminator-title`,
    });

    const row = (await postRow(deal.unique_id))!;
    expect(row).toMatchObject({
      title: "New laminator title",
      slug: "new-laminator-title",
      price: 15,
      list_price: 60,
      discount: 75,
      link_key: "shop.example.com/new",
      store_id: otherStore.id,
      deal_badge: "Hot",
    });
    expect(row.description).not.toMatch(/script|javascript/);
    expect(row.description_text).toBe("Better offer");

    const [entry, ...more] = await auditOf(t.deps.db, "d", deal.unique_id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      actor_id: moderator.id,
      action: "post.update",
      reason: "Tidy up",
    });
    expect(entry!.before).toMatchObject({
      title: "Old laminator title",
      slug: "old-laminator-title",
      price: 30,
      list_price: null,
      discount: null,
      store_id: store.id,
      deal_badge: "",
    });
    expect(entry!.after).toMatchObject({
      title: "New laminator title",
      slug: "new-laminator-title",
      price: 15,
      list_price: 60,
      discount: 75,
      store_id: otherStore.id,
      deal_badge: "Hot",
    });
    // Only what changed is recorded.
    expect(Object.keys(entry!.before as object)).not.toContain("category_id");
    expect([...answer.changed].sort()).toEqual(Object.keys(entry!.after as object).sort());

    // The public page shows the new title at once.
    const details = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: deal.unique_id, type: "d" },
    });
    expect(details.json().response.product_details.title).toBe("New laminator title");
  });

  it("answers an edit that changes nothing without an audit entry", async () => {
    const deal = await insertPost(t.deps.db, { title: "Same title", price: 5 });
    const response = await update({ unique_id: deal.unique_id, title: "Same title", price: 5 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: "Nothing was changed.", changed: [] });
    expect(await auditOf(t.deps.db, "d", deal.unique_id)).toEqual([]);
  });

  it("sets and clears the expiry date, coupon code and featured flag", async () => {
    const deal = await insertPost(t.deps.db, { coupon_code: "SAVE10", kind: "coupon" });
    await update({
      unique_id: deal.unique_id,
      expiry: "2031-05-20",
      is_featured: "true",
      coupon_code: "",
      kind: "deal",
    });
    let row = (await postRow(deal.unique_id))!;
    expect(row.expires_at?.toISOString()).toBe("2031-05-21T12:00:00.000Z");
    expect(row).toMatchObject({ is_featured: true, coupon_code: "", kind: "deal" });
    // The same date again leaves the moment as it is.
    const same = await update({ unique_id: deal.unique_id, expiry: "2031-05-20" });
    expect(same.json().changed).toEqual([]);
    await update({ unique_id: deal.unique_id, expiry: null, is_featured: false });
    row = (await postRow(deal.unique_id))!;
    expect(row.expires_at).toBeNull();
    expect(row.is_featured).toBe(false);
  });

  it("refuses bad edits with a message per field and changes nothing", async () => {
    const deal = await insertPost(t.deps.db, { title: "Untouched deal", price: 10 });
    const discussion = await insertPost(t.deps.db, { post_type: "g", title: "Untouched talk" });
    const cases: [Record<string, unknown>, string][] = [
      [{ unique_id: deal.unique_id, title: "   " }, "title"],
      [{ unique_id: deal.unique_id, description: "<p> </p>" }, "description"],
      [{ unique_id: deal.unique_id, price: "-1" }, "price"],
      [{ unique_id: deal.unique_id, list_price: "5" }, "list_price"],
      [{ unique_id: deal.unique_id, link: "ftp://x.example.com" }, "link"],
      [{ unique_id: deal.unique_id, store_id: 99999999 }, "store_id"],
      [{ unique_id: deal.unique_id, forum_category_id: 99999999 }, "forum_category_id"],
      [{ unique_id: deal.unique_id, expiry: "2031-02-30" }, "expiry"],
      [{ unique_id: deal.unique_id, is_featured: "maybe" }, "is_featured"],
      [{ unique_id: discussion.unique_id, price: "3" }, "price"],
    ];
    for (const [body, field] of cases) {
      const response = await update(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors, JSON.stringify(body)).toHaveProperty(field);
    }
    expect((await postRow(deal.unique_id))!).toMatchObject({ title: "Untouched deal", price: 10 });
    expect(await auditOf(t.deps.db, "d", deal.unique_id)).toEqual([]);
    expect(await auditOf(t.deps.db, "g", discussion.unique_id)).toEqual([]);
    const missing = await update({ unique_id: "nosuchpost", title: "x" });
    expect(missing.statusCode).toBe(404);
  });

  it("answers an edit page for no post, or for an address no post can have, with 404", async () => {
    const staff: CurrentUser = {
      id: moderator.id,
      name: "Test moderator",
      email: "",
      image_url: null,
      user_type: "Teacher",
      email_verified: true,
      role: "moderator",
      sessionId: 0,
    };
    for (const id of ["nosuchpost", "a\u0000b", "\ud800", "x".repeat(300)]) {
      await expect(t.services.consolePosts.forEdit(staff, id)).rejects.toMatchObject({
        kind: "not_found",
      });
    }
    const post = await insertPost(t.deps.db, { title: "Edit page post" });
    expect(await t.services.consolePosts.forEdit(staff, post.unique_id)).toMatchObject({
      title: "Edit page post",
      is_featured: "false",
    });
  });

  it("edits a discussion's title, text and category", async () => {
    const discussion = await insertPost(t.deps.db, { post_type: "g", title: "Old talk" });
    const forumCategory = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", "discussion")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const response = await update({
      unique_id: discussion.unique_id,
      title: "New talk",
      description: "<p>Hello</p>",
      forum_category_id: forumCategory.id,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().response.path).toBe(`/educator/${discussion.unique_id}/new-talk`);
    expect((await postRow(discussion.unique_id))!.forum_category_id).toBe(forumCategory.id);
  });
});

describe("POST /api/admin/posts/bulk", () => {
  const bulk = (body: Record<string, unknown>, client = moderator.client) =>
    client.post("/api/admin/posts/bulk", body);

  it("features several posts in one call, one audit entry each, and skips those already so", async () => {
    const a = await insertPost(t.deps.db);
    const b = await insertPost(t.deps.db, { post_type: "g" });
    const response = await bulk({ ids: [a.unique_id, b.unique_id], action: "feature" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: "2 posts featured.",
      changed: [a.unique_id, b.unique_id],
      unchanged: [],
    });
    expect((await postRow(a.unique_id))!.is_featured).toBe(true);
    expect((await postRow(b.unique_id))!.is_featured).toBe(true);
    expect(await auditOf(t.deps.db, "d", a.unique_id)).toMatchObject([
      { action: "post.feature", before: { is_featured: false }, after: { is_featured: true } },
    ]);
    expect(await auditOf(t.deps.db, "g", b.unique_id)).toHaveLength(1);

    const again = await bulk({ ids: [a.unique_id], action: "feature" });
    expect(again.json()).toMatchObject({ changed: [], unchanged: [a.unique_id] });
    expect(await auditOf(t.deps.db, "d", a.unique_id)).toHaveLength(1);
  });

  it("changes nothing when one id names no post (404)", async () => {
    const a = await insertPost(t.deps.db);
    const response = await bulk({ ids: [a.unique_id, "missingpost"], action: "hide" });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("No post has the id missingpost. Nothing was changed.");
    expect((await postRow(a.unique_id))!.status).toBe("active");
    expect(await auditOf(t.deps.db, "d", a.unique_id)).toEqual([]);
  });

  it("hides, restores, removes and expires through the console", async () => {
    const db = t.deps.db;
    const a = await insertPost(db);
    const b = await insertPost(db, { status: "pending" });
    const hide = await bulk({ ids: [a.unique_id, b.unique_id], action: "hide", reason: "Spam" });
    expect(hide.statusCode).toBe(200);
    expect((await postRow(a.unique_id))!).toMatchObject({
      status: "hidden",
      moderation_reason: "Spam",
    });
    expect(await auditOf(db, "d", a.unique_id)).toMatchObject([
      { action: "post.hide", reason: "Spam", before: { status: "active" } },
    ]);
    await bulk({ ids: [a.unique_id, b.unique_id], action: "restore" });
    expect((await postRow(a.unique_id))!.status).toBe("active");
    expect((await postRow(b.unique_id))!.status).toBe("active");
    await bulk({ ids: [a.unique_id], action: "remove" });
    expect((await postRow(a.unique_id))!.status).toBe("removed");

    const before = Date.now();
    const expire = await bulk({ ids: [b.unique_id], action: "expire" });
    expect(expire.json().changed).toEqual([b.unique_id]);
    expect((await postRow(b.unique_id))!.expires_at!.getTime()).toBeGreaterThanOrEqual(
      before - 1000,
    );
    expect((await bulk({ ids: [b.unique_id], action: "expire" })).json().unchanged).toEqual([
      b.unique_id,
    ]);

    const talk = await insertPost(db, { post_type: "g" });
    const refused = await bulk({ ids: [b.unique_id, talk.unique_id], action: "expire" });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.ids).toContain(talk.unique_id);
  });

  it("keeps deleting to administrators: a moderator's bulk delete is 403 and deletes nothing", async () => {
    const a = await insertPost(t.deps.db);
    const response = await bulk({ ids: [a.unique_id], action: "delete" });
    expect(response.statusCode).toBe(403);
    expect(await postRow(a.unique_id)).toBeDefined();
    const direct = await moderator.client.post("/api/admin/posts/delete", { ids: [a.unique_id] });
    expect(direct.statusCode).toBe(403);
    expect(await postRow(a.unique_id)).toBeDefined();
  });
});

describe("POST /api/admin/posts/delete", () => {
  it("deletes posts with their comments, likes, views and uploaded image", async () => {
    const db = t.deps.db;
    const image = await storeUploadedImage(t.deps.media, "deals", await pngImage());
    await insertMediaRecord(db, author.id, image);
    const deal = await insertPost(db, { user_id: author.id, image_url: image.url });
    const other = await insertPost(db);
    const commentId = await insertComment(db, { postId: deal.id, userId: author.id });
    await insertComment(db, { postId: deal.id, userId: author.id, parentId: commentId });
    await db
      .insertInto("likes")
      .values([
        { user_id: author.id, post_id: deal.id, reaction: "like" },
        { user_id: moderator.id, post_id: deal.id, reaction: "unlike" },
      ])
      .execute();
    await db
      .insertInto("post_views")
      .values({ post_id: deal.id, visitor_key: "k", day: "2026-01-01" })
      .execute();
    const reporter = await createTestUser(db);
    await db
      .insertInto("reports")
      .values([
        { item_type: "d", item_id: deal.unique_id, reporter_id: reporter, reason: "spam" },
        {
          item_type: "comment",
          item_id: String(commentId),
          reporter_id: reporter,
          reason: "other",
        },
      ])
      .execute();

    const response = await admin.client.post("/api/admin/posts/delete", {
      ids: [deal.unique_id, other.unique_id],
      reason: "Spam ring",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: "2 posts deleted.",
      changed: [deal.unique_id, other.unique_id],
      removed: { comments: 2, likes: 2, views: 1 },
    });

    expect(await postRow(deal.unique_id)).toBeUndefined();
    expect(await postRow(other.unique_id)).toBeUndefined();
    const left = await sql<{ comments: number; likes: number; views: number }>`
      SELECT (SELECT count(*) FROM comments WHERE post_id = ${deal.id}) AS comments,
             (SELECT count(*) FROM likes WHERE post_id = ${deal.id}) AS likes,
             (SELECT count(*) FROM post_views WHERE post_id = ${deal.id}) AS views`.execute(db);
    expect(left.rows[0]).toEqual({ comments: 0, likes: 0, views: 0 });
    expect(fs.existsSync(path.join(t.mediaDir, image.path))).toBe(false);
    expect(
      await db.selectFrom("media").select("id").where("path", "=", image.path).execute(),
    ).toEqual([]);
    const reports = await db
      .selectFrom("reports")
      .select(["status", "resolution", "resolved_by"])
      .where("reporter_id", "=", reporter)
      .execute();
    expect(reports).toEqual([
      { status: "resolved", resolution: "deleted", resolved_by: admin.id },
      { status: "resolved", resolution: "deleted", resolved_by: admin.id },
    ]);
    const [entry] = await auditOf(db, "d", deal.unique_id);
    expect(entry).toMatchObject({
      action: "post.delete",
      actor_id: admin.id,
      reason: "Spam ring",
      before: { title: deal.title, author_id: author.id, comments: 2, likes: 2, views: 1 },
      after: null,
    });
    expect(await auditOf(db, "d", other.unique_id)).toHaveLength(1);
  });

  it("refuses to delete the navigation bar's Educators post (409) and changes nothing", async () => {
    const db = t.deps.db;
    const talk = await insertPost(db, { post_type: "g" });
    const spare = await insertPost(db);
    const { educator_post_unique_id: previous } = await db
      .selectFrom("general_settings")
      .select("educator_post_unique_id")
      .executeTakeFirstOrThrow();
    await db
      .updateTable("general_settings")
      .set({ educator_post_unique_id: talk.unique_id })
      .execute();
    try {
      const response = await admin.client.post("/api/admin/posts/delete", {
        ids: [spare.unique_id, talk.unique_id],
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/Educators post/);
      expect(await postRow(spare.unique_id)).toBeDefined();
    } finally {
      await db.updateTable("general_settings").set({ educator_post_unique_id: previous }).execute();
    }
  });
});

describe("caches", () => {
  it("show a console edit, a feature and a delete on the home lists' next read", async () => {
    const homeRecent = async () =>
      (await t.app.inject({ method: "POST", url: "/api/home", payload: {} })).json().recent_deals
        .recent_arr as { unique_id: string; title: string; is_featured: string }[];
    const newest = (await homeRecent())[0]!;
    const card = async () => (await homeRecent()).find((c) => c.unique_id === newest.unique_id);

    await moderator.client.post("/api/admin/posts/update", {
      unique_id: newest.unique_id,
      title: "Renamed in the console",
    });
    expect(await card()).toMatchObject({ title: "Renamed in the console" });

    await moderator.client.post("/api/admin/posts/bulk", {
      ids: [newest.unique_id],
      action: newest.is_featured ? "unfeature" : "feature",
    });
    expect((await card())!.is_featured).toBe(newest.is_featured ? "" : "Featured");

    await admin.client.post("/api/admin/posts/delete", { ids: [newest.unique_id] });
    expect(await card()).toBeUndefined();
  });
});
