import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueAlertMatching } from "../../core/member/alerts/jobs.ts";
import { sendPushMessages } from "../../core/member/push/job.ts";
import { deleteOldPushHistory } from "../../core/member/push/history.ts";
import { queuePushes } from "../../core/member/push/outbox.ts";
import { PUSH_MESSAGES } from "../../core/member/push/schema.ts";
import { createPushService, SPEED_MIN_PUSHES } from "../../core/member/push/service.ts";
import { ValidationError } from "../../core/errors.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertComment, insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startPushService, type FakeBrowser, type PushService } from "../helpers/push-service.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Push alerts (docs/decisions/0109-push-alerts.md): subscribing and its refusals, and the four
 * kinds of push (instant alerts, replies, feed news, moderation) sent by the real job queue to a
 * local push service that checks the VAPID JWT and decrypts each payload as a browser would.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let push: PushService;
let poster: { id: number; client: TestClient };
let moderator: { id: number; client: TestClient };

beforeAll(async () => {
  push = await startPushService();
  t = await createTestApp({ jobs: true, env: { PUSH_ALLOW_LOOPBACK: "on" } });
  poster = await signInWithRole(t, "member", "Deal Poster");
  moderator = await signInWithRole(t, "moderator");
});
afterAll(async () => {
  await t?.close();
  await push?.close();
});

async function api(client: TestClient, url: string, payload: Record<string, unknown> = {}) {
  const response = await client.post(`/api${url}`, payload);
  return { status: response.statusCode, body: response.json() as Json };
}

async function subscribe(client: TestClient, browser: FakeBrowser) {
  const answer = await api(client, "/push_subscribe", browser.toJSON());
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body).toMatchObject({ status: "true", subscribed: true });
}

/** A member with `devices` browsers that have push on. */
async function memberWithDevices(name: string, devices = 1) {
  const m = await signInWithRole(t, "member", name);
  const browsers: FakeBrowser[] = [];
  for (let i = 0; i < devices; i++) {
    const browser = push.browser();
    await subscribe(m.client, browser);
    browsers.push(browser);
  }
  return { ...m, browsers };
}

async function messageCount(userId: number) {
  const row = await t.deps.db
    .selectFrom("push_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A public deal, matched against alerts and followers as publishing does. */
async function publish(title: string, values: Parameters<typeof insertPost>[1] = {}) {
  const post = await insertPost(t.deps.db, {
    user_id: poster.id,
    store_id: 1,
    category_id: 1,
    price: 12.5,
    title,
    ...values,
  });
  await queueAlertMatching(t.jobs, t.deps.db, { postId: post.id, trigger: "publish" });
  await waitForJobs(t.jobs);
  return post;
}

describe("subscribing", () => {
  it("finds the site's VAPID keys made at start, before anyone asked for them", async () => {
    const row = await t.deps.db
      .selectFrom("site_secrets")
      .select("value")
      .where("name", "=", "vapid_keys")
      .executeTakeFirst();
    const keys = JSON.parse(row?.value ?? "{}") as { publicKey?: string; privateKey?: string };
    expect(Buffer.from(keys.publicKey ?? "", "base64url")).toHaveLength(65);
    expect(Buffer.from(keys.privateKey ?? "", "base64url")).toHaveLength(32);
  });

  it("needs a session, and the XSRF token with a cookie session", async () => {
    const browser = push.browser();
    const anonymous = await api(new TestClient(t.app), "/push_subscribe", browser.toJSON());
    expect(anonymous.status).toBe(401);
    const m = await signInWithRole(t, "member", "No token");
    const forged = await m.client.post("/api/push_subscribe", browser.toJSON(), { xsrf: false });
    expect(forged.statusCode).toBe(403);
  });

  it.each([
    ["no keys", (b: FakeBrowser) => ({ endpoint: b.endpoint }), "keys", PUSH_MESSAGES.keys],
    [
      "a short p256dh",
      (b: FakeBrowser) => ({ ...b.toJSON(), keys: { ...b.keys, p256dh: "BAAA" } }),
      "keys.p256dh",
      PUSH_MESSAGES.p256dh,
    ],
    [
      "a long auth",
      (b: FakeBrowser) => ({ ...b.toJSON(), keys: { ...b.keys, auth: "A".repeat(40) } }),
      "keys.auth",
      PUSH_MESSAGES.auth,
    ],
    [
      "an endpoint that is no address",
      (b: FakeBrowser) => ({ ...b.toJSON(), endpoint: "push.example.com/abc" }),
      "endpoint",
      PUSH_MESSAGES.endpoint,
    ],
    [
      "an ftp endpoint",
      (b: FakeBrowser) => ({ ...b.toJSON(), endpoint: "ftp://push.example.com/abc" }),
      "endpoint",
      PUSH_MESSAGES.endpoint,
    ],
  ])("refuses %s with a clear message (422)", async (_what, body, field, message) => {
    const m = await signInWithRole(t, "member", "Bad subscriber");
    const answer = await api(m.client, "/push_subscribe", body(push.browser()));
    expect(answer.status).toBe(422);
    expect(answer.body.errors[field]).toBe(message);
    expect(
      await t.deps.db
        .selectFrom("push_subscriptions")
        .select("id")
        .where("user_id", "=", m.id)
        .execute(),
    ).toEqual([]);
  });

  it.each([
    [
      "a private address",
      "https://10.20.30.40/push/x",
      /private or reserved address \(10\.20\.30\.40\)/,
    ],
    ["a link-local address", "https://[fe80::1]/push/x", /private or reserved/],
    ["plain http on a public address", "http://93.184.215.14/push/x", /must be an https address/],
    [
      "a port other than https's",
      "https://93.184.215.14:25/push/x",
      /port 25 is not an https port/,
    ],
    ["a name that does not resolve", "https://push.invalid/push/x", /does not resolve/],
  ])("refuses %s as an endpoint", async (_what, endpoint, reason) => {
    const m = await signInWithRole(t, "member", "Odd endpoint");
    const answer = await api(m.client, "/push_subscribe", { ...push.browser().toJSON(), endpoint });
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.errors.endpoint).toMatch(reason);
  });

  it("admits a loopback http endpoint only with PUSH_ALLOW_LOOPBACK", async () => {
    const m = await signInWithRole(t, "member", "Loopback");
    const user = { id: m.id } as Parameters<ReturnType<typeof createPushService>["subscribe"]>[0];
    const strict = createPushService({
      db: t.deps.db,
      now: () => new Date(),
      config: { pushAllowLoopback: false },
    });
    const browser = push.browser();
    const refused = await strict.subscribe(user, browser.toJSON()).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ValidationError);
    expect((refused as ValidationError).errors.endpoint).toMatch(
      /private or reserved address \(127\.0\.0\.1\)/,
    );
    // The site under test runs with the setting on.
    await subscribe(m.client, browser);
  });

  it("keeps one row per endpoint, which moves to the member subscribing it last", async () => {
    const first = await signInWithRole(t, "member", "First owner");
    const second = await signInWithRole(t, "member", "Second owner");
    const browser = push.browser();
    await subscribe(first.client, browser);
    await subscribe(second.client, browser);
    const rows = await t.deps.db
      .selectFrom("push_subscriptions")
      .select(["user_id", "device_label"])
      .where("endpoint", "=", browser.endpoint)
      .execute();
    expect(rows).toEqual([{ user_id: second.id, device_label: expect.any(String) }]);
    // The first member can no longer turn another's device off.
    const notTheirs = await api(first.client, "/push_unsubscribe", { endpoint: browser.endpoint });
    expect(notTheirs.body).toMatchObject({
      subscribed: false,
      message: PUSH_MESSAGES.notSubscribed,
    });
    const off = await api(second.client, "/push_unsubscribe", { endpoint: browser.endpoint });
    expect(off.body).toMatchObject({ subscribed: false, message: PUSH_MESSAGES.unsubscribed });
    expect(
      await t.deps.db
        .selectFrom("push_subscriptions")
        .select("id")
        .where("endpoint", "=", browser.endpoint)
        .execute(),
    ).toEqual([]);
  });

  it("gives the VAPID public key, the same on every call, and the member's devices", async () => {
    const m = await memberWithDevices("Key reader");
    const one = await api(m.client, "/push_key");
    const two = await api(m.client, "/push_key");
    expect(one.status).toBe(200);
    expect(Buffer.from(one.body.public_key, "base64url")).toHaveLength(65);
    expect(two.body.public_key).toBe(one.body.public_key);
    expect(one.body.devices).toMatchObject([
      { endpoint: m.browsers[0]!.endpoint, last_used: null },
    ]);
  });
});

describe("what is pushed", () => {
  it("an instant alert's match goes to its member's devices only, decrypting to the payload", async () => {
    const fan = await memberWithDevices("Stapler fan", 2);
    const bystander = await memberWithDevices("Bystander");
    const quiet = await signInWithRole(t, "member", "No devices");
    const alert = await api(fan.client, "/alert_save", {
      id: "",
      keywords: "stapler",
      delivery: "instant",
    });
    expect(alert.status).toBe(200);
    const daily = await api(bystander.client, "/alert_save", {
      id: "",
      keywords: "stapler",
      delivery: "daily",
    });
    expect(daily.status).toBe(200);
    expect(
      (await api(quiet.client, "/alert_save", { id: "", keywords: "stapler", delivery: "instant" }))
        .status,
    ).toBe(200);

    const deal = await publish("Heavy duty stapler");

    const { public_key } = (await api(fan.client, "/push_key")).body;
    for (const browser of fan.browsers) {
      const got = push.to(browser.endpoint);
      expect(got).toHaveLength(1);
      const message = got[0]!;
      expect(message.json).toEqual({
        title: "Your alert “stapler”",
        body: expect.stringContaining("Heavy duty stapler"),
        url: `/post/${deal.unique_id}/${deal.slug}`,
        tag: `deal-${deal.unique_id}`,
      });
      expect(Buffer.byteLength(message.text)).toBeLessThan(1024);
      expect(message.headers).toMatchObject({ urgency: "high", ttl: "3600" });
      expect(message.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      expect(message.vapidKey).toBe(public_key);
      expect(message.claims.aud).toBe(push.origin);
    }
    // A daily alert waits for its digest; a member without devices is sent nothing at all.
    expect(push.to(bystander.browsers[0]!.endpoint)).toEqual([]);
    expect(await messageCount(quiet.id)).toBe(0);
    expect(push.refused).toEqual([]);
    // Each push that left is timed from the deal becoming public.
    const timings = await t.deps.db.selectFrom("push_timings").select("seconds").execute();
    expect(timings.length).toBeGreaterThanOrEqual(2);
    for (const { seconds } of timings) expect(seconds).toBeLessThan(30);
  });

  it("a reply goes to the comment's author, not to the post's author or the replier", async () => {
    const author = await memberWithDevices("Comment author");
    const replier = await memberWithDevices("Replier");
    const postAuthor = await memberWithDevices("Post author");
    const post = await insertPost(t.deps.db, {
      user_id: postAuthor.id,
      title: "Glue sticks 30 pack",
    });
    const commentId = await insertComment(t.deps.db, { postId: post.id, userId: author.id });
    const reply = await api(replier.client, "/product_add_comment", {
      user_id: replier.id,
      post_id: post.id,
      post_type: "d",
      comment_id: commentId,
      comment_text: "Still works for me!",
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    await waitForJobs(t.jobs);
    const got = push.to(author.browsers[0]!.endpoint);
    expect(got.map((m) => m.json)).toEqual([
      {
        title: "Replier replied to your comment",
        body: "On “Glue sticks 30 pack”",
        url: expect.stringMatching(new RegExp(`^/post/${post.unique_id}/.*#comment-\\d+$`)),
        tag: `comment-${commentId}`,
      },
    ]);
    expect(push.to(replier.browsers[0]!.endpoint)).toEqual([]);
    // The post's author is told in-site of a comment, but only replies are pushed.
    expect(push.to(postAuthor.browsers[0]!.endpoint)).toEqual([]);
  });

  it("feed news goes to followers of the deal's store, once even with an alert too", async () => {
    const follower = await memberWithDevices("Store follower");
    const both = await memberWithDevices("Follower with alert");
    for (const m of [follower, both]) {
      expect((await api(m.client, "/follow_toggle", { type: "store", id: 2 })).status).toBe(200);
    }
    expect(
      (
        await api(both.client, "/alert_save", {
          id: "",
          keywords: "whiteboard",
          delivery: "instant",
        })
      ).status,
    ).toBe(200);
    const deal = await publish("Magnetic whiteboard", { store_id: 2, category_id: 2 });
    expect(push.to(follower.browsers[0]!.endpoint).map((m) => m.json)).toEqual([
      {
        title: "New in your feed",
        body: expect.stringContaining("Magnetic whiteboard"),
        url: `/post/${deal.unique_id}/${deal.slug}`,
        tag: "feed",
      },
    ]);
    expect(push.to(follower.browsers[0]!.endpoint)[0]!.headers.urgency).toBe("low");
    expect(push.to(both.browsers[0]!.endpoint).map((m) => (m.json as Json).title)).toEqual([
      "Your alert “whiteboard”",
    ]);
  });

  it("a moderator's decision goes to the post's author", async () => {
    const author = await memberWithDevices("Moderated author");
    const post = await insertPost(t.deps.db, { user_id: author.id, title: "Too good to be true" });
    const removed = await api(moderator.client, "/admin/moderate", {
      item_type: "d",
      item_id: post.unique_id,
      action: "remove",
      reason: "Spam",
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await waitForJobs(t.jobs);
    expect(push.to(author.browsers[0]!.endpoint).map((m) => m.json)).toEqual([
      {
        title: "A moderator's decision",
        body: "A moderator removed your deal “Too good to be true”. Reason: Spam",
        url: `/post/${post.unique_id}/${post.slug}`,
        tag: `moderation-/post/${post.unique_id}/${post.slug}`,
      },
    ]);
  });
});

describe("delivery", () => {
  async function queueReply(userId: number, title: string) {
    await t.deps.db
      .transaction()
      .execute((tx) =>
        queuePushes(t.jobs, tx, [
          { userId, kind: "reply", title, body: "b", url: "/", tag: title },
        ]),
      );
  }

  it.each([404, 410])(
    "a push service answering %i removes that subscription only",
    async (status) => {
      const m = await memberWithDevices(`Gone ${status}`, 2);
      const [gone, kept] = m.browsers as [FakeBrowser, FakeBrowser];
      push.answer(gone.endpoint, status);
      await queueReply(m.id, `gone-${status}`);
      await waitForJobs(t.jobs);
      const left = await t.deps.db
        .selectFrom("push_subscriptions")
        .select("endpoint")
        .where("user_id", "=", m.id)
        .execute();
      expect(left).toEqual([{ endpoint: kept.endpoint }]);
      expect(push.to(kept.endpoint)).toHaveLength(1);
    },
  );

  it("a failing push service is tried again without sending twice to devices reached", async () => {
    const m = await memberWithDevices("Flaky", 2);
    const [fine, flaky] = m.browsers as [FakeBrowser, FakeBrowser];
    push.answer(flaky.endpoint, 500);
    // The job's handler run by hand, as pg-boss runs its attempts (the first fails), on a
    // message written as queuePushes writes it, without the job that would race this test.
    const { id: messageId } = await t.deps.db
      .insertInto("push_messages")
      .values({
        user_id: m.id,
        kind: "reply",
        title: "Retry",
        body: "b",
        url: "/",
        tag: "retry",
        urgency: "normal",
        ttl_seconds: 60,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const handler = sendPushMessages({
      db: t.deps.db,
      now: () => new Date(),
      publicUrl: "http://localhost:3000",
      log: { info: () => {}, warn: () => {} },
      allowLoopback: true,
    });
    await expect(handler({ messageIds: [messageId] })).rejects.toThrow(/1 of 2 sends failed/);
    push.answer(flaky.endpoint, undefined);
    await handler({ messageIds: [messageId] });
    expect(push.to(fine.endpoint)).toHaveLength(1);
    expect(push.to(flaky.endpoint)).toHaveLength(1);
    expect(
      await t.deps.db
        .selectFrom("push_subscriptions")
        .select("id")
        .where("user_id", "=", m.id)
        .execute(),
    ).toHaveLength(2);
  });

  it("sends nothing to an endpoint that now resolves to a private address", async () => {
    const m = await memberWithDevices("Moved host");
    // As if the endpoint's name now answered a private address: written past the subscribe check.
    await t.deps.db
      .insertInto("push_subscriptions")
      .values({
        user_id: m.id,
        endpoint: "https://10.9.8.7/push/moved",
        p256dh: m.browsers[0]!.keys.p256dh,
        auth: m.browsers[0]!.keys.auth,
      })
      .execute();
    const refusedBefore = push.refused.length;
    await queueReply(m.id, "private-check");
    await waitForJobs(t.jobs);
    expect(push.to(m.browsers[0]!.endpoint)).toHaveLength(1);
    const reached = await t.deps.db
      .selectFrom("push_deliveries as d")
      .innerJoin("push_subscriptions as s", "s.id", "d.subscription_id")
      .select("s.endpoint")
      .where("s.user_id", "=", m.id)
      .execute();
    expect(reached).toEqual([{ endpoint: m.browsers[0]!.endpoint }]);
    expect(push.refused.length).toBe(refusedBefore);
  });
});

describe("the speed figure", () => {
  it("is the 95th percentile of alert pushes, and none with too few of them", async () => {
    const speed = () => t.services.push.alertSpeed();
    await t.deps.db.deleteFrom("push_timings").execute();
    expect(await speed()).toEqual({ seconds: null, pushes: 0 });
    const seconds = Array.from({ length: SPEED_MIN_PUSHES - 1 }, (_, i) => i + 1);
    await t.deps.db
      .insertInto("push_timings")
      .values(seconds.map((s) => ({ seconds: s })))
      .execute();
    expect(await speed()).toEqual({ seconds: null, pushes: SPEED_MIN_PUSHES - 1 });
    await t.deps.db.insertInto("push_timings").values({ seconds: 20 }).execute();
    // 1…20 s: the 95th percentile is 19.05 s, published as 20.
    expect(await speed()).toEqual({ seconds: 20, pushes: SPEED_MIN_PUSHES });
  });

  it("and the pushes behind it are swept after 30 days", async () => {
    const m = await signInWithRole(t, "member", "Old pushes");
    const old = new Date(Date.now() - 31 * 86_400_000);
    const recent = new Date(Date.now() - 29 * 86_400_000);
    for (const created_at of [old, recent]) {
      await t.deps.db
        .insertInto("push_messages")
        .values({
          user_id: m.id,
          kind: "feed",
          title: "t",
          body: "b",
          url: "/",
          tag: "feed",
          urgency: "low",
          ttl_seconds: 60,
          created_at,
        })
        .execute();
    }
    await t.deps.db.deleteFrom("push_timings").execute();
    await t.deps.db
      .insertInto("push_timings")
      .values([
        { seconds: 1, sent_at: old },
        { seconds: 2, sent_at: recent },
      ])
      .execute();
    await deleteOldPushHistory(t.deps.db, new Date());
    const left = await t.deps.db
      .selectFrom("push_messages")
      .select("created_at")
      .where("user_id", "=", m.id)
      .execute();
    expect(left).toEqual([{ created_at: recent }]);
    expect(await t.deps.db.selectFrom("push_timings").select("seconds").execute()).toEqual([
      { seconds: 2 },
    ]);
  });
});
