import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertComment, insertPost, signedInStaff } from "../helpers/console.ts";
import type { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

let t: TestApp;
let moderator: { id: number; client: TestClient };
let admin: { id: number; client: TestClient };
let writer: number;

beforeAll(async () => {
  t = await createTestApp();
  moderator = await signedInStaff(t.app, t.deps.db, "moderator");
  admin = await signedInStaff(t.app, t.deps.db, "admin");
  writer = await createTestUser(t.deps.db, { name: "Winnie Commentwriter" });
});
afterAll(async () => {
  await t?.close();
});

/** The post's stored count and the count of what the public sees, which must agree. */
async function counts(postId: number) {
  const { rows } = await sql<{ stored: number; visible: number }>`
    SELECT comments_count AS stored,
           (SELECT count(*)::int FROM comments
             WHERE post_id = ${postId} AND deleted_at IS NULL AND status = 'active') AS visible
    FROM posts WHERE id = ${postId}`.execute(t.deps.db);
  return rows[0]!;
}

function commentRow(id: number) {
  return t.deps.db.selectFrom("comments").selectAll().where("id", "=", id).executeTakeFirst();
}

describe("GET /api/admin/comments", () => {
  it("searches by text, author and post, filters by state, newest first", async () => {
    const db = t.deps.db;
    const post = await insertPost(db, { title: "Glue sticks in bulk" });
    const first = await insertComment(db, {
      postId: post.id,
      userId: writer,
      body: "<p>Stock up on <b>glitter</b> glue</p>",
    });
    const second = await insertComment(db, { postId: post.id, userId: writer, parentId: first });
    await db.updateTable("comments").set({ status: "hidden" }).where("id", "=", second).execute();

    const get = (query: string) => moderator.client.get(`/api/admin/comments?${query}`);
    const byText = (await get("q=GLITTER")).json().response;
    expect(byText.comments.map((c: { id: number }) => c.id)).toEqual([first]);
    expect(byText.comments[0]).toMatchObject({
      text: "Stock up on glitter glue",
      status: "active",
      replies: 1,
      author: { id: writer, name: "Winnie Commentwriter" },
      post: { unique_id: post.unique_id, title: "Glue sticks in bulk", path: expect.any(String) },
    });
    const byPost = (await get(`post=${post.unique_id}`)).json().response;
    expect(byPost.comments.map((c: { id: number }) => c.id)).toEqual([second, first]);
    expect((await get("post=glue%20STICKS")).json().response.pagination.total).toBe(2);
    expect((await get(`author=${writer}`)).json().response.pagination.total).toBe(2);
    expect(
      (await get("author=commentwriter&status=hidden")).json().response.comments,
    ).toMatchObject([{ id: second, status: "hidden", parent_id: first }]);
    const all = (await get("")).json().response;
    expect(all.comments.length).toBeLessThanOrEqual(20);
    expect(all.pagination.total).toBeGreaterThanOrEqual(2);
    expect((await get("status=nope")).statusCode).toBe(422);
  });
});

describe("POST /api/admin/comments/bulk", () => {
  it("hides and restores comments with exact counts and an audit entry each", async () => {
    const db = t.deps.db;
    const post = await insertPost(db);
    const a = await insertComment(db, { postId: post.id, userId: writer });
    const b = await insertComment(db, { postId: post.id, userId: writer });
    const hide = await moderator.client.post("/api/admin/comments/bulk", {
      ids: [a, String(b)],
      action: "hide",
      reason: "Off topic",
    });
    expect(hide.statusCode).toBe(200);
    expect(hide.json()).toMatchObject({ message: "2 comments hidden.", changed: [a, b] });
    expect(await counts(post.id)).toEqual({ stored: 0, visible: 0 });
    expect(await auditOf(db, "comment", a)).toMatchObject([
      { action: "comment.hide", reason: "Off topic", actor_id: moderator.id },
    ]);

    const restore = await moderator.client.post("/api/admin/comments/bulk", {
      ids: [a],
      action: "restore",
    });
    expect(restore.json().changed).toEqual([a]);
    expect(await counts(post.id)).toEqual({ stored: 1, visible: 1 });
  });

  it("changes nothing when one id names no comment (404)", async () => {
    const db = t.deps.db;
    const post = await insertPost(db);
    const a = await insertComment(db, { postId: post.id, userId: writer });
    const response = await moderator.client.post("/api/admin/comments/bulk", {
      ids: [a, 987654321],
      action: "remove",
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe("No comment has the id 987654321. Nothing was changed.");
    expect((await commentRow(a))!.status).toBe("active");
    expect(await counts(post.id)).toEqual({ stored: 1, visible: 1 });
  });
});

describe("POST /api/admin/comments/delete", () => {
  it("keeps a deleted comment with replies as a placeholder, and prunes it with its last reply", async () => {
    const db = t.deps.db;
    const post = await insertPost(db);
    const parent = await insertComment(db, {
      postId: post.id,
      userId: writer,
      body: "<p>Rude words</p>",
    });
    const reply = await insertComment(db, { postId: post.id, userId: admin.id, parentId: parent });
    const leaf = await insertComment(db, { postId: post.id, userId: writer });
    expect(await counts(post.id)).toEqual({ stored: 3, visible: 3 });

    const response = await admin.client.post("/api/admin/comments/delete", {
      ids: [parent, leaf],
      reason: "Abuse",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: "2 comments deleted.",
      changed: [parent, leaf],
      placeholders: [parent],
    });
    expect(await commentRow(leaf)).toBeUndefined();
    expect(await commentRow(parent)).toMatchObject({ body: "", user_id: null });
    expect(await commentRow(reply)).toBeDefined();
    expect(await counts(post.id)).toEqual({ stored: 1, visible: 1 });

    // The thread reads "This comment was deleted." above the reply.
    const details = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: post.unique_id, type: "d" },
    });
    const [placeholder] = details.json().response.comments;
    expect(placeholder).toMatchObject({ id: parent, is_deleted: true, user_id: null });
    expect(placeholder.comments_replies.map((c: { id: number }) => c.id)).toEqual([reply]);

    // The audit keeps who and where, not the words.
    const [entry] = await auditOf(db, "comment", parent);
    expect(entry).toMatchObject({
      action: "comment.delete",
      actor_id: admin.id,
      reason: "Abuse",
      before: { post: post.unique_id, author_id: writer, replies: 1 },
      after: { kept_as_placeholder: true },
    });
    expect(JSON.stringify(entry)).not.toContain("Rude");

    await admin.client.post("/api/admin/comments/delete", { ids: [reply] });
    expect(await commentRow(reply)).toBeUndefined();
    expect(await commentRow(parent)).toBeUndefined();
    expect(await counts(post.id)).toEqual({ stored: 0, visible: 0 });
  });

  it("deletes a whole thread named together, leaving nothing", async () => {
    const db = t.deps.db;
    const post = await insertPost(db);
    const top = await insertComment(db, { postId: post.id, userId: writer });
    const mid = await insertComment(db, { postId: post.id, userId: writer, parentId: top });
    const low = await insertComment(db, { postId: post.id, userId: writer, parentId: mid });
    const response = await admin.client.post("/api/admin/comments/delete", {
      ids: [top, mid, low],
    });
    expect(response.json().placeholders).toEqual([]);
    for (const id of [top, mid, low]) expect(await commentRow(id)).toBeUndefined();
    expect(await counts(post.id)).toEqual({ stored: 0, visible: 0 });
  });

  it("is for administrators: a moderator gets 403 and nothing is deleted", async () => {
    const post = await insertPost(t.deps.db);
    const id = await insertComment(t.deps.db, { postId: post.id, userId: writer });
    const response = await moderator.client.post("/api/admin/comments/delete", { ids: [id] });
    expect(response.statusCode).toBe(403);
    expect(await commentRow(id)).toBeDefined();
  });
});

describe("GET /api/admin/dashboard", () => {
  it("counts the last 24 hours and 7 days, the queues, and 30 days of posts and sign-ups", async () => {
    const db = t.deps.db;
    const get = async () => (await moderator.client.get("/api/admin/dashboard")).json().response;
    const before = await get();
    expect(before.daily).toHaveLength(30);
    expect(before.daily[29].day).toBe(new Date().toISOString().slice(0, 10));

    const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000);
    const user = await createTestUser(db);
    await insertPost(db, { status: "pending" });
    await insertPost(db, { post_type: "g", created_at: threeDaysAgo });
    const hidden = await insertPost(db, { status: "hidden" });
    const comment = await insertComment(db, { postId: hidden.id, userId: user });
    await db.updateTable("comments").set({ status: "hidden" }).where("id", "=", comment).execute();
    await db
      .insertInto("reports")
      .values([
        { item_type: "d", item_id: hidden.unique_id, reporter_id: user, reason: "spam" },
        { item_type: "d", item_id: hidden.unique_id, reporter_id: writer, reason: "other" },
      ])
      .execute();
    await db
      .insertInto("contact_messages")
      .values({
        name: "Pat",
        category: "inquiry",
        subject: "Hi",
        email: "p@example.com",
        mobile: "1",
      })
      .execute();

    const after = await get();
    const diff = (path: (d: typeof before) => number) => path(after) - path(before);
    expect(diff((d) => d.recent.users.last_24h)).toBe(1);
    expect(diff((d) => d.recent.deals.last_24h)).toBe(2);
    expect(diff((d) => d.recent.deals.last_7d)).toBe(2);
    expect(diff((d) => d.recent.discussions.last_24h)).toBe(0);
    expect(diff((d) => d.recent.discussions.last_7d)).toBe(1);
    expect(diff((d) => d.recent.comments.last_24h)).toBe(1);
    expect(diff((d) => d.recent.reports.last_7d)).toBe(2);
    expect(diff((d) => d.recent.contact_messages.last_24h)).toBe(1);
    expect(diff((d) => d.queues.open_reports)).toBe(2);
    expect(diff((d) => d.queues.reported_items)).toBe(1);
    expect(diff((d) => d.queues.held_posts)).toBe(1);
    expect(diff((d) => d.queues.hidden_posts)).toBe(1);
    expect(diff((d) => d.queues.hidden_comments)).toBe(1);
    expect(diff((d) => d.queues.open_messages)).toBe(1);
    expect(diff((d) => d.daily[29].posts)).toBe(2);
    expect(diff((d) => d.daily[29].signups)).toBe(1);
    expect(diff((d) => d.daily[26].posts)).toBe(1);
  });
});

describe("GET /api/admin/audit", () => {
  it("shows the newest entries first, filtered by actor, action and item, with a diff and links", async () => {
    const db = t.deps.db;
    const deal = await insertPost(db, { title: "Audited deal" });
    await moderator.client.post("/api/admin/posts/update", {
      unique_id: deal.unique_id,
      title: "Audited deal, edited",
      reason: "Typo",
    });
    await admin.client.post("/api/admin/posts/bulk", { ids: [deal.unique_id], action: "feature" });

    const get = (query: string) => moderator.client.get(`/api/admin/audit?${query}`);
    const newest = (await get("")).json().response;
    expect(newest.entries[0]).toMatchObject({ action: "post.feature", actor_id: admin.id });
    const ids = newest.entries.map((e: { id: number }) => e.id);
    expect([...ids].sort((a: number, b: number) => b - a)).toEqual(ids);

    const item = (await get(`item_type=d&item_id=${deal.unique_id}`)).json().response;
    expect(item.entries.map((e: { action: string }) => e.action)).toEqual([
      "post.feature",
      "post.update",
    ]);
    const edit = item.entries[1];
    expect(edit).toMatchObject({
      actor_id: moderator.id,
      reason: "Typo",
      item_label: "Audited deal, edited",
      item_link: `/post/${deal.unique_id}/audited-deal-edited`,
    });
    expect(edit.changes).toEqual(
      expect.arrayContaining([
        { field: "title", before: "Audited deal", after: "Audited deal, edited" },
        { field: "slug", before: "audited-deal", after: "audited-deal-edited" },
      ]),
    );

    const byActor = (await get(`actor=${moderator.id}&item_id=${deal.unique_id}`)).json().response;
    expect(byActor.entries.map((e: { action: string }) => e.action)).toEqual(["post.update"]);
    const byArea = (await get(`action=post&item_id=${deal.unique_id}`)).json().response;
    expect(byArea.pagination.total).toBe(2);
    const byAction = (await get(`action=post.feature&item_id=${deal.unique_id}`)).json().response;
    expect(byAction.pagination.total).toBe(1);
    expect((await get("page=abc")).statusCode).toBe(422);
  });

  it("is append-only: the table refuses UPDATE and DELETE, whoever asks", async () => {
    const db = t.deps.db;
    await db
      .insertInto("audit_log")
      .values({ actor_id: admin.id, actor_name: "x", action: "test.append" })
      .execute();
    await expect(
      db
        .updateTable("audit_log")
        .set({ reason: "rewritten" })
        .where("action", "=", "test.append")
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(
      db.deleteFrom("audit_log").where("action", "=", "test.append").execute(),
    ).rejects.toThrow(/append-only/);
    await expect(sql`DELETE FROM audit_log`.execute(db)).rejects.toThrow(/append-only/);
    const kept = await db
      .selectFrom("audit_log")
      .select("reason")
      .where("action", "=", "test.append")
      .execute();
    expect(kept).toEqual([{ reason: "" }]);
  });
});
