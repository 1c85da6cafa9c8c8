import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notificationMailJob } from "../../core/member/notifications/mail-job.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";

/**
 * Notifications (record 0044): each kind made by the real API actions, likes collapsed per post,
 * paging, mark read, mail preferences, the notification mail job (real SMTP, RFC 8058 headers,
 * one mail per kind per 10 minutes on a clock the tests move) and one-click unsubscribe.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Member = { id: number; client: TestClient };

const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
let clock = T0;
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

let t: TestApp;
let smtp: SmtpCapture;
let ann: Member;
let bob: Member;
let cat: Member;
let dan: Member;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    pages: true,
    jobs: true,
    now: () => clock,
    mailer: smtpMailer(smtp),
  });
  ann = await signInWithRole(t, "member", "Ann Poster");
  bob = await signInWithRole(t, "member", "Bob Reader");
  cat = await signInWithRole(t, "member", "Cat Reader");
  dan = await signInWithRole(t, "member", "Dan Reader");
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function api(client: TestClient, url: string, payload: Record<string, unknown> = {}) {
  const response = await client.post(`/api${url}`, payload);
  return { status: response.statusCode, body: response.json() as Json };
}

async function notificationsOf(userId: number) {
  return t.deps.db
    .selectFrom("notifications")
    .select(["id", "kind", "message", "link", "read_at", "mailed_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

async function deal(title: string, userId = ann.id) {
  return insertPost(t.deps.db, { user_id: userId, store_id: 1, category_id: 1, title });
}

const comment = (who: Member, postId: number, text: string, parent: number | "" = "") =>
  api(who.client, "/product_add_comment", {
    user_id: who.id,
    post_id: postId,
    post_type: "d",
    comment_id: parent,
    comment_text: text,
  });

const like = (who: Member, postId: number, btn: "like" | "unlike" = "like") =>
  api(who.client, "/product_like_unlike", {
    user_id: who.id,
    post_id: postId,
    post_type: "d",
    btn_type: btn,
  });

async function clearNotifications(userId: number) {
  await t.deps.db.deleteFrom("notifications").where("user_id", "=", userId).execute();
}

/** Runs the notification mail job through the queue, as its minute cron does, and waits for it. */
async function runMailJob() {
  await t.jobs.send(notificationMailJob, {});
  await waitForJobs(t.jobs);
}

/** A header of a raw captured message (folded lines unfolded). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

async function emailOf(userId: number) {
  const row = await t.deps.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  return row.email;
}

describe("notifications made by members' actions", () => {
  it("tells the post's author of a comment and the comment's author of a reply, never oneself", async () => {
    const post = await deal("Crayons 24-pack for $1");
    expect((await comment(bob, post.id, "Great find!")).status).toBe(201);
    const bobComment = await t.deps.db
      .selectFrom("comments")
      .select("id")
      .where("post_id", "=", post.id)
      .where("user_id", "=", bob.id)
      .executeTakeFirstOrThrow();
    // Ann (the author) replies to Bob: Bob hears of a reply; Ann is not told of her own reply.
    expect((await comment(ann, post.id, "Thanks Bob!", bobComment.id)).status).toBe(201);
    // Cat replies to Bob: Bob hears of the reply, Ann of a comment on her deal.
    expect((await comment(cat, post.id, "Agreed", bobComment.id)).status).toBe(201);

    const annN = await notificationsOf(ann.id);
    expect(annN.map((n) => [n.kind, n.message])).toEqual([
      ["post_comment", "Bob Reader commented on your deal “Crayons 24-pack for $1”."],
      ["post_comment", "Cat Reader commented on your deal “Crayons 24-pack for $1”."],
    ]);
    expect(annN[0]!.link).toMatch(
      new RegExp(`^/post/${post.unique_id}/${post.slug}#comment-\\d+$`),
    );
    const bobN = await notificationsOf(bob.id);
    expect(bobN.map((n) => [n.kind, n.message])).toEqual([
      ["comment_reply", "Ann Poster replied to your comment on “Crayons 24-pack for $1”."],
      ["comment_reply", "Cat Reader replied to your comment on “Crayons 24-pack for $1”."],
    ]);
    expect(await notificationsOf(cat.id)).toEqual([]);
  });

  it("collapses likes into one unread notification per post; unlikes and own likes say nothing", async () => {
    await clearNotifications(ann.id);
    const post = await deal("Glue sticks, 30 for $4");
    await like(ann, post.id); // her own deal
    expect(await notificationsOf(ann.id)).toEqual([]);
    await like(bob, post.id, "unlike");
    expect(await notificationsOf(ann.id)).toEqual([]);

    await like(bob, post.id);
    await like(cat, post.id);
    await like(dan, post.id);
    let rows = await notificationsOf(ann.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.kind).toBe("post_like");
    expect(rows[0]!.message).toBe(
      "Dan Reader and 2 others liked your deal “Glue sticks, 30 for $4”.",
    );
    expect(rows[0]!.link).toBe(`/post/${post.unique_id}/${post.slug}`);

    // Taking a like back and giving it again is no news.
    await like(bob, post.id);
    await like(bob, post.id);
    rows = await notificationsOf(ann.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.message).toContain("Dan Reader and 2 others");

    // Once read, the next like starts a new notification.
    await api(ann.client, "/notifications_read", { id: rows[0]!.id });
    const other = await signInWithRole(t, "member", "Eve Reader");
    await like(other, post.id);
    rows = await notificationsOf(ann.id);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.message).toBe("Eve Reader liked your deal “Glue sticks, 30 for $4”.");
    expect(rows[1]!.read_at).toBeNull();
  });

  it("tells of a new follower once, and not of an unfollow", async () => {
    await clearNotifications(ann.id);
    const follow = (status: string) =>
      api(bob.client, "/profile_follow", {
        loggedin_user_id: bob.id,
        user_id: ann.id,
        status,
      });
    expect((await follow("Follow")).status).toBe(200);
    await follow("Follow");
    await follow("UN FOLLOW");
    await follow("Follow");
    const rows = await notificationsOf(ann.id);
    expect(rows.map((n) => [n.kind, n.message, n.link])).toEqual([
      ["new_follower", "Bob Reader started following you.", `/profile/${bob.id}`],
    ]);
  });
});

describe("POST /api/notifications and /api/notifications_read", () => {
  it("pages the list with the unread count, and marks one or all read", async () => {
    await clearNotifications(dan.id);
    await t.deps.db
      .insertInto("notifications")
      .values(
        Array.from({ length: 23 }, (_, i) => ({
          user_id: dan.id,
          kind: "post_comment",
          message: `Comment ${i}`,
          link: "/",
          mailed_at: new Date(),
        })),
      )
      .execute();
    const first = await api(dan.client, "/notifications", { page: 1 });
    expect(first.status).toBe(200);
    expect(first.body.response.notifications).toHaveLength(20);
    expect(first.body.response.unread).toBe(23);
    expect(first.body.response.pagination).toMatchObject({ total: 23, last_page: 2 });
    const second = await api(dan.client, "/notifications", { page: 2 });
    expect(second.body.response.notifications).toHaveLength(3);

    const one = first.body.response.notifications[0].id as number;
    const marked = await api(dan.client, "/notifications_read", { id: one });
    expect(marked).toMatchObject({ status: 200, body: { unread: 22 } });
    const all = await api(dan.client, "/notifications_read", { id: "" });
    expect(all).toMatchObject({ status: 200, body: { unread: 0 } });
  });

  it("refuses someone else's notification (404) and a visitor (401)", async () => {
    const [theirs] = await notificationsOf(ann.id);
    expect(theirs).toBeDefined();
    const refused = await api(dan.client, "/notifications_read", { id: theirs!.id });
    expect(refused.status).toBe(404);
    expect((await notificationsOf(ann.id))[0]!.read_at).toBeNull();
    const visitor = new TestClient(t.app);
    expect((await api(visitor, "/notifications", { page: 1 })).status).toBe(401);
    expect((await api(visitor, "/notifications_read", {})).status).toBe(401);
    expect((await api(visitor, "/email_preferences")).status).toBe(401);
  });
});

describe("mail preferences", () => {
  it("answers every kind with its default, saves changes, and refuses unknown kinds (422)", async () => {
    const member = await signInWithRole(t, "member", "Pref Member");
    const before = await api(member.client, "/email_preferences");
    expect(before.status).toBe(200);
    const enabled = (body: Json) =>
      Object.fromEntries(
        (body.response.kinds as Json[]).map((k) => [k.kind as string, k.enabled as boolean]),
      );
    expect(enabled(before.body)).toEqual({
      comment_reply: true,
      post_comment: true,
      post_like: false,
      new_follower: true,
      moderation: true,
      alert: true,
      weekly_digest: false,
    });
    const saved = await api(member.client, "/email_preferences_save", {
      post_like: true,
      alert: "false",
    });
    expect(saved.status).toBe(200);
    expect(enabled(saved.body)).toMatchObject({ post_like: true, alert: false, moderation: true });
    expect(enabled((await api(member.client, "/email_preferences")).body)).toMatchObject({
      post_like: true,
      alert: false,
    });

    const unknown = await api(member.client, "/email_preferences_save", { newsletter: true });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.newsletter).toMatch(/no kind of mail called “newsletter”/);
    const notBoolean = await api(member.client, "/email_preferences_save", { post_like: "maybe" });
    expect(notBoolean.status).toBe(422);
    expect(notBoolean.body.errors.post_like).toBeTruthy();
    expect((await api(member.client, "/email_preferences_save", {})).status).toBe(422);
  });
});

describe("notification mails", () => {
  let reader: Member;
  let readerEmail: string;
  let post: Awaited<ReturnType<typeof deal>>;

  beforeAll(async () => {
    clock = T0;
    reader = await signInWithRole(t, "member", "Mail Reader");
    readerEmail = await emailOf(reader.id);
    post = await deal("Mailed deal: markers", reader.id);
  });

  it("mails a new comment with both List-Unsubscribe headers and a visible link", async () => {
    await comment(bob, post.id, "First comment");
    await runMailJob();
    const mail = await smtp.waitForMessage(readerEmail, { timeoutMs: 10_000 });
    expect(mail.subject).toBe("Bob Reader commented on your deal “Mailed deal: markers”.");
    expect(header(mail.raw, "List-Unsubscribe")).toMatch(
      /^<http:\/\/localhost:3000\/unsubscribe\?token=[^>]+>$/,
    );
    expect(header(mail.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = mail.links.find((l) => l.includes("/unsubscribe?token="));
    expect(unsubscribe).toBeDefined();
    expect(mail.text).toContain(unsubscribe);
    expect(mail.html).toContain("Unsubscribe from these mails");
    const rows = await notificationsOf(reader.id);
    expect(rows.every((n) => n.mailed_at !== null)).toBe(true);
  });

  it("sends at most one mail per kind in 10 minutes, batching later news into the next", async () => {
    clock = minutes(1);
    await comment(cat, post.id, "Second comment");
    clock = minutes(2);
    await comment(dan, post.id, "Third comment");
    await runMailJob();
    // Inside the window: nothing is sent, both wait.
    expect((await notificationsOf(reader.id)).filter((n) => n.mailed_at === null)).toHaveLength(2);

    clock = minutes(11);
    await runMailJob();
    const mail = await smtp.waitForMessage(readerEmail, { timeoutMs: 10_000 });
    expect(mail.subject).toMatch(/^2 new notifications/);
    expect(mail.text).toContain("Cat Reader commented");
    expect(mail.text).toContain("Dan Reader commented");
    expect((await notificationsOf(reader.id)).every((n) => n.mailed_at !== null)).toBe(true);
  });

  it("never mails a notification already read, nor a kind switched off", async () => {
    clock = minutes(30);
    await comment(bob, post.id, "Read before the mail");
    await api(reader.client, "/notifications_read", {});
    await api(reader.client, "/email_preferences_save", { new_follower: false });
    await api(bob.client, "/profile_follow", {
      loggedin_user_id: bob.id,
      user_id: reader.id,
      status: "Follow",
    });
    const before = smtp.messages.length;
    await runMailJob();
    expect(smtp.messages.length).toBe(before);
    const follow = (await notificationsOf(reader.id)).find((n) => n.kind === "new_follower");
    expect(follow?.mailed_at).not.toBeNull(); // dealt with: it will not be mailed later either
  });
});

describe("one-click unsubscribe", () => {
  let member: Member;
  let token: string;

  beforeAll(async () => {
    clock = minutes(60);
    member = await signInWithRole(t, "member", "Unsubscriber");
    const post = await deal("Unsubscribe deal", member.id);
    await comment(bob, post.id, "Hello");
    await runMailJob();
    const mail = await smtp.waitForMessage(await emailOf(member.id), { timeoutMs: 10_000 });
    const link = header(mail.raw, "List-Unsubscribe")!.slice(1, -1);
    token = new URL(link).searchParams.get("token")!;
    expect(token).toBeTruthy();
  });

  const postComment = async () =>
    ((await api(member.client, "/email_preferences")).body.response.kinds as Json[]).find(
      (k) => k.kind === "post_comment",
    )!.enabled as boolean;

  it("shows what the link switches off, without signing in", async () => {
    const page = await new TestClient(t.app).get(`/unsubscribe?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Stop receiving “Comments on my posts” mails?");
    expect(await postComment()).toBe(true);
  });

  it("switches the kind off on a one-click POST with no cookie and no XSRF token", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: `/unsubscribe?token=${token}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("You are unsubscribed");
    expect(await postComment()).toBe(false);
  });

  it("refuses a malformed or tampered token with a clear page (400), changing nothing", async () => {
    await api(member.client, "/email_preferences_save", { post_comment: true });
    const [userId, kind, mac] = token.split(".");
    const tampered = [
      `${Number(userId) + 1}.${kind}.${mac}`,
      `${userId}.post_like.${mac}`,
      `${userId}.${kind}.${mac!.slice(0, -1)}${mac!.endsWith("A") ? "B" : "A"}`,
      "garbage",
      "",
    ];
    for (const bad of tampered) {
      const page = await t.app.inject({ method: "GET", url: `/unsubscribe?token=${bad}` });
      expect(page.statusCode, bad).toBe(400);
      expect(page.body).toContain("This unsubscribe link is not valid");
      const post = await t.app.inject({
        method: "POST",
        url: `/unsubscribe?token=${bad}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: "List-Unsubscribe=One-Click",
      });
      expect(post.statusCode, bad).toBe(400);
    }
    expect(await postComment()).toBe(true);
  });

  it("keeps the XSRF check on every other POST", async () => {
    const withoutToken = await member.client.post(
      "/api/email_preferences_save",
      { post_comment: false },
      { xsrf: false },
    );
    expect(withoutToken.statusCode).toBe(403);
    const page = await t.app.inject({
      method: "POST",
      url: "/unsubscribe-not",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(page.statusCode).toBe(403);
    expect(await postComment()).toBe(true);
  });
});
