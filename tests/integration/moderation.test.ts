import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Reports, auto-hide, the moderators' queue and decisions, holding new members' posts, and the
 * notifications that tell reporters and authors (record 0031).
 */

let t: TestApp;
let moderator: TestClient;
let moderatorId: number;

async function member(options: { confirmed?: boolean; name?: string } = {}) {
  const id = await createTestUser(t.deps.db, options);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

/**
 * An active post of the demo data that no other test of this file uses and nobody has reported,
 * with its author.
 */
const usedPosts = new Set<number>();
async function freshPost(type: "d" | "g" = "d") {
  const row = await t.deps.db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug", "title", "user_id", "post_type"])
    .where("status", "=", "active")
    .where("post_type", "=", type)
    .where("user_id", "is not", null)
    .where("id", "not in", [0, ...usedPosts])
    .where("unique_id", "not in", (eb) => eb.selectFrom("reports").select("item_id"))
    .orderBy("id")
    .executeTakeFirstOrThrow();
  usedPosts.add(row.id);
  return row;
}

function report(client: TestClient, body: Record<string, unknown>) {
  return client.post("/api/report", { reason: "spam", note: "", ...body });
}

function moderate(client: TestClient, body: Record<string, unknown>) {
  return client.post("/api/admin/moderate", { reason: "", ...body });
}

async function postStatus(id: number) {
  const row = await t.deps.db
    .selectFrom("posts")
    .select(["status", "moderation_reason", "comments_count"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return row;
}

function notificationsOf(userId: number) {
  return t.deps.db
    .selectFrom("notifications")
    .select(["kind", "message", "link", "read_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

async function setSettings(values: {
  report_hide_threshold?: number;
  hold_new_user_posts?: boolean;
  hold_new_user_days?: number;
}) {
  await t.deps.db.updateTable("general_settings").set(values).where("id", "=", 1).execute();
}

function productDetails(client: TestClient, uniqueId: string, type: "d" | "g" = "d") {
  return client.post("/api/product_details", { unique_id: uniqueId, type, user_id: "" });
}

beforeAll(async () => {
  t = await createTestApp();
  moderatorId = await createTestUser(t.deps.db, { name: "Morgan Moderator" });
  await t.deps.db
    .updateTable("users")
    .set({ role: "moderator" })
    .where("id", "=", moderatorId)
    .execute();
  moderator = new TestClient(t.app);
  await moderator.signInAs(t.deps.db, moderatorId);
});
afterAll(async () => {
  await t?.close();
});

describe("POST /api/report", () => {
  it("answers 201 with a message, and 409 when the same member reports it again while open", async () => {
    const post = await freshPost();
    const { id, client } = await member();
    const first = await report(client, { item_type: "d", item_id: post.unique_id, note: "Gone." });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      status: "true",
      message: "Thank you. Your report has been sent to the moderators.",
    });
    const again = await report(client, { item_type: "d", item_id: post.unique_id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already reported this/);
    const rows = await t.deps.db
      .selectFrom("reports")
      .selectAll()
      .where("reporter_id", "=", id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      item_type: "d",
      item_id: post.unique_id,
      reason: "spam",
      note: "Gone.",
      status: "open",
    });
  });

  it("keeps one open report when the same member sends two at the same moment", async () => {
    const post = await freshPost();
    const { id, client } = await member();
    const answers = await Promise.all([
      report(client, { item_type: "d", item_id: post.unique_id }),
      report(client, { item_type: "d", item_id: post.unique_id }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 409]);
    const rows = await t.deps.db
      .selectFrom("reports")
      .select("id")
      .where("reporter_id", "=", id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("answers 401 to a visitor, 404 for a missing or hidden item, and refuses one's own things", async () => {
    const post = await freshPost();
    const visitor = new TestClient(t.app);
    expect((await report(visitor, { item_type: "d", item_id: post.unique_id })).statusCode).toBe(
      401,
    );

    const { client } = await member();
    for (const body of [
      { item_type: "d", item_id: "no-such-post" },
      { item_type: "g", item_id: post.unique_id }, // a deal is not a discussion
      { item_type: "comment", item_id: 99999999 },
      { item_type: "comment", item_id: "abc" },
      { item_type: "user", item_id: 99999999 },
    ]) {
      const answer = await report(client, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(404);
      expect(answer.json().message).toBe("That item does not exist or is no longer shown.");
    }

    await t.deps.db
      .updateTable("posts")
      .set({ status: "hidden" })
      .where("id", "=", post.id)
      .execute();
    expect((await report(client, { item_type: "d", item_id: post.unique_id })).statusCode).toBe(
      404,
    );
    await t.deps.db
      .updateTable("posts")
      .set({ status: "active" })
      .where("id", "=", post.id)
      .execute();

    const author = new TestClient(t.app);
    await author.signInAs(t.deps.db, post.user_id!);
    const own = await report(author, { item_type: "d", item_id: post.unique_id });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe("You cannot report your own posts, comments or profile.");
    const self = await report(author, { item_type: "user", item_id: post.user_id });
    expect(self.statusCode).toBe(403);
  });

  it("checks the reason and the note, and wants a confirmed address", async () => {
    const post = await freshPost();
    const { client } = await member();
    const bad = await report(client, { item_type: "d", item_id: post.unique_id, reason: "boring" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.reason).toBe("Please choose a reason for your report.");
    const long = await report(client, {
      item_type: "d",
      item_id: post.unique_id,
      note: "x".repeat(501),
    });
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.note).toBe("The note can be at most 500 characters.");
    const type = await report(client, { item_type: "store", item_id: 1 });
    expect(type.statusCode).toBe(422);

    const unconfirmed = await member({ confirmed: false });
    const answer = await report(unconfirmed.client, { item_type: "d", item_id: post.unique_id });
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toMatch(/confirm your email address before reporting/);
    const rows = await t.deps.db
      .selectFrom("reports")
      .select("id")
      .where("item_id", "=", post.unique_id)
      .execute();
    expect(rows).toHaveLength(0);
  });
});

describe("report → auto-hide → restore", () => {
  it("hides a deal reported by three different members, and a moderator's restore tells everyone", async () => {
    await setSettings({ report_hide_threshold: 3 });
    const post = await freshPost();
    const reporters = [await member(), await member(), await member()];

    for (const [i, reporter] of reporters.slice(0, 2).entries()) {
      const answer = await report(reporter.client, {
        item_type: "d",
        item_id: post.unique_id,
        reason: i === 0 ? "spam" : "expired",
      });
      expect(answer.statusCode).toBe(201);
      expect((await postStatus(post.id)).status).toBe("active");
    }
    // The same member twice does not count twice.
    expect(
      (await report(reporters[0]!.client, { item_type: "d", item_id: post.unique_id })).statusCode,
    ).toBe(409);
    expect((await postStatus(post.id)).status).toBe("active");

    expect(
      (await report(reporters[2]!.client, { item_type: "d", item_id: post.unique_id })).statusCode,
    ).toBe(201);
    expect(await postStatus(post.id)).toMatchObject({
      status: "hidden",
      moderation_reason: "Hidden automatically: reported by 3 members.",
    });

    // The site itself did it: the audit log names no actor.
    const audit = await t.deps.db
      .selectFrom("audit_log")
      .selectAll()
      .where("item_type", "=", "d")
      .where("item_id", "=", post.unique_id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      actor_id: null,
      actor_name: "System",
      action: "post.hide",
      before: { status: "active" },
      after: { status: "hidden" },
    });
    // Gone for the public, and the author is told.
    expect((await productDetails(new TestClient(t.app), post.unique_id)).statusCode).toBe(404);
    expect((await productDetails(reporters[0]!.client, post.unique_id)).statusCode).toBe(404);
    const authorNotes = await notificationsOf(post.user_id!);
    expect(authorNotes.at(-1)).toMatchObject({ kind: "moderation" });
    expect(authorNotes.at(-1)!.message).toContain(`“${post.title}” is hidden until a moderator`);
    // A moderator sees it with its state.
    const seen = await productDetails(moderator, post.unique_id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().response.moderation).toEqual({
      status: "hidden",
      label: "Hidden pending review",
      reason: "Hidden automatically: reported by 3 members.",
    });

    // The queue shows it first among items with three reports, with its reasons.
    const queue = (await moderator.get("/api/admin/reports")).json().response;
    const entry = queue.items.find((i: { item_id: string }) => i.item_id === post.unique_id);
    expect(entry).toMatchObject({
      item_type: "d",
      title: post.title,
      item_status: "hidden",
      reports: 3,
      link: `/post/${post.unique_id}/${post.slug}`,
    });
    expect(entry.reasons).toEqual([
      { reason: "spam", count: 2 },
      { reason: "expired", count: 1 },
    ]);

    const restored = await moderate(moderator, {
      item_type: "d",
      item_id: post.unique_id,
      action: "restore",
    });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().response).toEqual({
      item_type: "d",
      item_id: post.unique_id,
      status: "active",
    });
    expect(await postStatus(post.id)).toMatchObject({ status: "active", moderation_reason: "" });
    expect((await productDetails(new TestClient(t.app), post.unique_id)).statusCode).toBe(200);

    const reports = await t.deps.db
      .selectFrom("reports")
      .selectAll()
      .where("item_id", "=", post.unique_id)
      .execute();
    expect(reports).toHaveLength(3);
    for (const row of reports) {
      expect(row).toMatchObject({
        status: "resolved",
        resolution: "kept",
        resolved_by: moderatorId,
      });
      expect(row.resolved_at).toBeInstanceOf(Date);
    }
    for (const reporter of reporters) {
      const notes = await notificationsOf(reporter.id);
      expect(notes).toEqual([
        {
          kind: "report_resolved",
          message: `Thanks for your report of “${post.title}”: a moderator reviewed it and left it up.`,
          link: `/post/${post.unique_id}/${post.slug}`,
          read_at: null,
        },
      ]);
    }
    expect((await notificationsOf(post.user_id!)).at(-1)!.message).toBe(
      `A moderator restored your deal “${post.title}”; it is public again.`,
    );
    // Off the queue, and a member may report it again.
    const after = (await moderator.get("/api/admin/reports")).json().response;
    expect(after.items.map((i: { item_id: string }) => i.item_id)).not.toContain(post.unique_id);
    expect(
      (await report(reporters[0]!.client, { item_type: "d", item_id: post.unique_id })).statusCode,
    ).toBe(201);
  });

  it("hides a comment past the threshold, out of the post's count, and a removal tells the reporters and the author", async () => {
    await setSettings({ report_hide_threshold: 2 });
    const post = await freshPost("g");
    const author = await member({ name: "Chris Commenter" });
    const posted = await author.client.post("/api/product_add_comment", {
      user_id: author.id,
      post_id: post.id,
      post_type: "g",
      comment_id: "",
      comment_text: "Buy cheap watches at example.com",
    });
    expect(posted.statusCode).toBe(201);
    const commentId: number = posted.json().comment.id;
    const countBefore = (await postStatus(post.id)).comments_count;

    const [a, b] = [await member(), await member()];
    expect(
      (await report(a.client, { item_type: "comment", item_id: commentId, note: "Spam link" }))
        .statusCode,
    ).toBe(201);
    expect(
      (await report(b.client, { item_type: "comment", item_id: String(commentId) })).statusCode,
    ).toBe(201);
    const comment = await t.deps.db
      .selectFrom("comments")
      .select("status")
      .where("id", "=", commentId)
      .executeTakeFirstOrThrow();
    expect(comment.status).toBe("hidden");
    expect((await postStatus(post.id)).comments_count).toBe(countBefore - 1);
    // A hidden comment cannot be answered or reported again.
    expect(
      (
        await a.client.post("/api/product_add_comment", {
          user_id: a.id,
          post_id: post.id,
          post_type: "g",
          comment_id: commentId,
          comment_text: "Reply",
        })
      ).statusCode,
    ).toBe(404);

    const queue = (await moderator.get("/api/admin/reports")).json().response;
    const entry = queue.items.find((i: { item_id: string }) => i.item_id === String(commentId));
    expect(entry).toMatchObject({
      item_type: "comment",
      title: `Comment on “${post.title}”`,
      excerpt: "Buy cheap watches at example.com",
      item_status: "hidden",
      reports: 2,
      author: { id: author.id, name: "Chris Commenter" },
    });
    expect(entry.notes).toMatchObject([{ note: "Spam link", reason: "spam" }]);
    expect(entry.link).toBe(`/educator/${post.unique_id}/${post.slug}#comment-${commentId}`);

    const removed = await moderate(moderator, {
      item_type: "comment",
      item_id: commentId,
      action: "remove",
      reason: "Advertising",
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().response.status).toBe("removed");
    expect((await postStatus(post.id)).comments_count).toBe(countBefore - 1);
    for (const reporter of [a, b]) {
      const [note] = await notificationsOf(reporter.id);
      expect(note).toMatchObject({ kind: "report_resolved", link: "" });
      expect(note!.message).toMatch(/^Thanks for your report of the comment “Buy cheap watches/);
      expect(note!.message).toMatch(/: a moderator removed it\.$/);
    }
    const authorNotes = await notificationsOf(author.id);
    expect(authorNotes.at(-1)).toMatchObject({
      kind: "moderation",
      message: `A moderator removed your comment on “${post.title}”. Reason: Advertising`,
    });
    const resolved = await t.deps.db
      .selectFrom("reports")
      .select(["status", "resolution"])
      .where("item_type", "=", "comment")
      .where("item_id", "=", String(commentId))
      .execute();
    expect(resolved).toEqual([
      { status: "resolved", resolution: "removed" },
      { status: "resolved", resolution: "removed" },
    ]);
    await setSettings({ report_hide_threshold: 3 });
  });

  it("never hides a member automatically; restore dismisses the reports and hide points to suspension", async () => {
    const target = await member({ name: "Reported Rita" });
    const reporters = [await member(), await member(), await member(), await member()];
    for (const reporter of reporters) {
      expect(
        (
          await report(reporter.client, {
            item_type: "user",
            item_id: target.id,
            reason: "offensive",
          })
        ).statusCode,
      ).toBe(201);
    }
    const profile = await new TestClient(t.app).post("/api/user_profile", {
      loggedin_user_id: "",
      user_id: target.id,
      page: 1,
    });
    expect(profile.statusCode).toBe(200);

    const queue = (await moderator.get("/api/admin/reports")).json().response;
    const entry = queue.items.find(
      (i: { item_type: string; item_id: string }) =>
        i.item_type === "user" && i.item_id === String(target.id),
    );
    expect(entry).toMatchObject({
      title: "Reported Rita",
      item_status: "active",
      reports: 4,
      link: `/profile/${target.id}`,
      reasons: [{ reason: "offensive", count: 4 }],
    });
    // Most reported first.
    expect(queue.items[0].reports).toBeGreaterThanOrEqual(4);

    const hide = await moderate(moderator, {
      item_type: "user",
      item_id: target.id,
      action: "hide",
    });
    expect(hide.statusCode).toBe(422);
    expect(hide.json().errors.action).toMatch(/suspending them/);

    const dismissed = await moderate(moderator, {
      item_type: "user",
      item_id: target.id,
      action: "restore",
    });
    expect(dismissed.statusCode).toBe(200);
    const rows = await t.deps.db
      .selectFrom("reports")
      .select(["status", "resolution"])
      .where("item_type", "=", "user")
      .where("item_id", "=", String(target.id))
      .execute();
    expect(rows.every((r) => r.status === "resolved" && r.resolution === "no action")).toBe(true);
    const [note] = await notificationsOf(reporters[0]!.id);
    expect(note!.message).toBe(
      "Thanks for your report of the profile of “Reported Rita”: a moderator reviewed it and left it up.",
    );
  });

  it("lets a moderator hide and remove a post, telling its author with the reason", async () => {
    const post = await freshPost();
    const hidden = await moderate(moderator, {
      item_type: "d",
      item_id: post.unique_id,
      action: "hide",
      reason: "Checking the price",
    });
    expect(hidden.statusCode).toBe(200);
    expect((await notificationsOf(post.user_id!)).at(-1)!.message).toBe(
      `A moderator hid your deal “${post.title}” until it is reviewed. Reason: Checking the price`,
    );
    const removed = await moderate(moderator, {
      item_type: "d",
      item_id: post.unique_id,
      action: "remove",
      reason: "Wrong price",
    });
    expect(removed.statusCode).toBe(200);
    expect(await postStatus(post.id)).toMatchObject({
      status: "removed",
      moderation_reason: "Wrong price",
    });
    const author = new TestClient(t.app);
    await author.signInAs(t.deps.db, post.user_id!);
    const seen = await productDetails(author, post.unique_id);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().response.moderation.label).toBe("Removed by a moderator: Wrong price");

    const audit = await t.deps.db
      .selectFrom("audit_log")
      .select(["action", "actor_id", "reason"])
      .where("item_id", "=", post.unique_id)
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "post.hide", actor_id: moderatorId, reason: "Checking the price" },
      { action: "post.remove", actor_id: moderatorId, reason: "Wrong price" },
    ]);
    // Put back for the rest of the file.
    await moderate(moderator, { item_type: "d", item_id: post.unique_id, action: "restore" });
  });

  it("refuses members and unknown items", async () => {
    const { client } = await member();
    const post = await freshPost();
    expect(
      (await moderate(client, { item_type: "d", item_id: post.unique_id, action: "hide" }))
        .statusCode,
    ).toBe(403);
    expect((await client.get("/api/admin/reports")).statusCode).toBe(403);
    expect(
      (await moderate(moderator, { item_type: "d", item_id: "nope", action: "hide" })).statusCode,
    ).toBe(404);
    expect(
      (await moderate(moderator, { item_type: "comment", item_id: 99999999, action: "hide" }))
        .statusCode,
    ).toBe(404);
    const bad = await moderate(moderator, {
      item_type: "d",
      item_id: post.unique_id,
      action: "ban",
    });
    expect(bad.statusCode).toBe(422);
    expect(await postStatus(post.id)).toMatchObject({ status: "active" });
  });
});

describe("holding new members' posts", () => {
  const DAY = 24 * 60 * 60 * 1000;

  async function submitDiscussion(client: TestClient, userId: number, title: string) {
    const forumCategory = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", "discussion")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    return client.post("/api/save_discussion", {
      user_id: userId,
      forum_category_id: forumCategory.id,
      title,
      detail: "<p>What do you think?</p>",
    });
  }

  async function statusOf(uniqueId: string) {
    const row = await t.deps.db
      .selectFrom("posts")
      .select("status")
      .where("unique_id", "=", uniqueId)
      .executeTakeFirstOrThrow();
    return row.status;
  }

  it("publishes at once while the setting is off", async () => {
    await setSettings({ hold_new_user_posts: false });
    const newcomer = await member();
    const answer = await submitDiscussion(newcomer.client, newcomer.id, "Held off topic");
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).not.toHaveProperty("review_message");
    expect(await statusOf(answer.json().response.unique_id)).toBe("active");
  });

  it("holds a new member's posts until one is approved, and approval publishes at once", async () => {
    await setSettings({ hold_new_user_posts: true, hold_new_user_days: 7 });
    const newcomer = await member({ name: "Nina Newcomer" });
    const first = await submitDiscussion(newcomer.client, newcomer.id, "My first question");
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      status: "true",
      message: "Discussion has been Submitted.",
      review_message:
        "Your post is waiting for review. A moderator will look at it soon; until then only you can see it.",
    });
    const held = first.json().response;
    expect(await statusOf(held.unique_id)).toBe("pending");

    // Nobody else sees it; the author sees it with its state.
    const other = await member();
    expect((await productDetails(other.client, held.unique_id, "g")).statusCode).toBe(404);
    const own = await productDetails(newcomer.client, held.unique_id, "g");
    expect(own.statusCode).toBe(200);
    expect(own.json().response.moderation).toEqual({
      status: "pending",
      label: "Waiting for review",
      reason: "",
    });
    const educatorPage = async () =>
      (await t.app.inject({ method: "GET", url: "/api/forums" })).json();
    const forumsBefore = await educatorPage();

    // A second post while the first waits is held too.
    const second = await submitDiscussion(newcomer.client, newcomer.id, "My second question");
    expect(await statusOf(second.json().response.unique_id)).toBe("pending");

    // The queue lists both, oldest first.
    const queue = (await moderator.get("/api/admin/reports")).json().response;
    const mine = queue.held_posts.filter(
      (p: { author: { id: number } | null }) => p.author?.id === newcomer.id,
    );
    expect(mine.map((p: { title: string }) => p.title)).toEqual([
      "My first question",
      "My second question",
    ]);
    expect(queue.held_total).toBeGreaterThanOrEqual(2);

    const approved = await moderate(moderator, {
      item_type: "g",
      item_id: held.unique_id,
      action: "restore",
    });
    expect(approved.statusCode).toBe(200);
    expect(await statusOf(held.unique_id)).toBe("active");
    expect((await productDetails(other.client, held.unique_id, "g")).statusCode).toBe(200);
    const forumsAfter = await educatorPage();
    const discussions = (f: { froum_list: { type: string; posts: number }[] }) =>
      f.froum_list.find((forum) => forum.type === "g")!.posts;
    expect(discussions(forumsAfter)).toBe(discussions(forumsBefore) + 1);
    expect((await notificationsOf(newcomer.id)).at(-1)).toMatchObject({
      kind: "moderation",
      message: "Your discussion “My first question” was approved and is now public.",
    });

    // With a post approved, the next one is published at once.
    const third = await submitDiscussion(newcomer.client, newcomer.id, "My third question");
    expect(third.json()).not.toHaveProperty("review_message");
    expect(await statusOf(third.json().response.unique_id)).toBe("active");

    // The second one, removed from the queue, stays out of sight.
    expect(
      (
        await moderate(moderator, {
          item_type: "g",
          item_id: second.json().response.unique_id,
          action: "remove",
          reason: "Duplicate",
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await productDetails(other.client, second.json().response.unique_id, "g")).statusCode,
    ).toBe(404);
  });

  it("does not hold the posts of a member older than the setting's days", async () => {
    await setSettings({ hold_new_user_posts: true, hold_new_user_days: 7 });
    const old = await member();
    await t.deps.db
      .updateTable("users")
      .set({ created_at: new Date(Date.now() - 8 * DAY) })
      .where("id", "=", old.id)
      .execute();
    const answer = await submitDiscussion(old.client, old.id, "Old hand's question");
    expect(await statusOf(answer.json().response.unique_id)).toBe("active");
    await setSettings({ hold_new_user_posts: false });
  });
});

describe("notifications", () => {
  it("lists a member's own notifications, counts the unread, and marks them read", async () => {
    const { id, client } = await member();
    const other = await member();
    await t.deps.db
      .insertInto("notifications")
      .values([
        { user_id: id, kind: "moderation", message: "First", link: "/post/a/b" },
        { user_id: id, kind: "report_resolved", message: "Second", link: "" },
        { user_id: other.id, kind: "moderation", message: "Not yours", link: "" },
      ])
      .execute();
    const listed = await client.get("/api/notifications");
    expect(listed.statusCode).toBe(200);
    const body = listed.json().response;
    expect(body.unread).toBe(2);
    expect(body.notifications.map((n: { message: string }) => n.message)).toEqual([
      "Second",
      "First",
    ]);
    expect(body.pagination).toEqual({ total: 2, per_page: 20, current_page: 1, last_page: 1 });

    const otherId = (
      await t.deps.db
        .selectFrom("notifications")
        .select("id")
        .where("user_id", "=", other.id)
        .executeTakeFirstOrThrow()
    ).id;
    expect((await client.post("/api/notifications_read", { id: otherId })).statusCode).toBe(404);

    const firstId = body.notifications[1].id;
    const one = await client.post("/api/notifications_read", { id: firstId });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual({
      status: "true",
      message: "The notification is marked as read.",
      unread: 1,
    });
    const all = await client.post("/api/notifications_read", {});
    expect(all.json()).toMatchObject({
      message: "All notifications are marked as read.",
      unread: 0,
    });
    expect((await other.client.get("/api/notifications")).json().response.unread).toBe(1);
    expect((await new TestClient(t.app).get("/api/notifications")).statusCode).toBe(401);
  });
});
