import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alertDigestJob, alertInstantJob, alertMatchJob } from "../../core/member/alerts/jobs.ts";
import { ALERT_MESSAGES as M } from "../../core/member/alerts/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import type { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";

/**
 * Keyword alerts (record 0045): matching (stemming, typos, filters, paused, deleted members, only
 * hot, held posts), instant mails and their 10-minute spacing, digests, site-only, preview, RSS,
 * and every refusal. The clock is fixed and moved by hand; the job queue and the SMTP server are
 * real.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const T0 = new Date("2026-11-23T07:30:00.000Z");
let clock = T0;
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let t: TestApp;
let smtp: SmtpCapture;
let poster: { id: number; client: TestClient };
let moderator: { id: number; client: TestClient };

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    jobs: true,
    now: () => clock,
    mailer: smtpMailer(smtp),
  });
  poster = await signInWithRole(t, "member", "Deal Poster");
  moderator = await signInWithRole(t, "moderator");
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function member(name: string) {
  const m = await signInWithRole(t, "member", name);
  const row = await t.deps.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", m.id)
    .executeTakeFirstOrThrow();
  return { ...m, email: row.email };
}

async function api(client: TestClient, url: string, payload: Record<string, unknown>) {
  const response = await client.post(`/api${url}`, payload);
  return { status: response.statusCode, body: response.json() as Json };
}

async function saveAlert(client: TestClient, fields: Record<string, unknown>) {
  const saved = await api(client, "/alert_save", { id: "", delivery: "site", ...fields });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return saved.body as { alert: Json; rss_url: string };
}

/** A public deal, matched against the alerts as publishing does (through the queue). */
async function publish(values: Parameters<typeof insertPost>[1] = {}) {
  const post = await insertPost(t.deps.db, {
    user_id: poster.id,
    store_id: 1,
    category_id: 1,
    price: 10,
    created_at: clock,
    updated_at: clock,
    ...values,
  });
  await t.jobs.send(alertMatchJob, { postId: post.id, trigger: "publish" });
  await waitForJobs(t.jobs);
  return post;
}

async function matchedPosts(alertId: number): Promise<number[]> {
  const rows = await t.deps.db
    .selectFrom("alert_matches")
    .select("post_id")
    .where("alert_id", "=", alertId)
    .orderBy("post_id")
    .execute();
  return rows.map((r) => Number(r.post_id));
}

describe("matching", () => {
  it("matches plurals and typos with the search's rules, all keywords required", async () => {
    const m = await member("Crayon fan");
    // A crayon deal exists, so "crayns" is corrected to a known word.
    await publish({ title: "Crayola Crayons 24 pack" });
    const plural = await saveAlert(m.client, { keywords: "crayon" });
    const typo = await saveAlert(m.client, { keywords: "crayns" });
    const both = await saveAlert(m.client, { keywords: "crayons glitter" });
    const deal = await publish({ title: "Jumbo Crayons for little hands" });
    expect(await matchedPosts(plural.alert.id)).toEqual([deal.id]);
    expect(await matchedPosts(typo.alert.id)).toEqual([deal.id]);
    expect(await matchedPosts(both.alert.id)).toEqual([]);
    const notes = await t.deps.db
      .selectFrom("notifications")
      .select(["kind", "message", "link"])
      .where("user_id", "=", m.id)
      .execute();
    expect(notes).toHaveLength(2);
    expect(notes[0]).toMatchObject({ kind: "alert_match" });
    expect(notes[0]!.message).toContain("Jumbo Crayons for little hands");
  });

  it("applies stores, category, maximum price and minimum discount", async () => {
    const m = await member("Filter fan");
    const a = await saveAlert(m.client, {
      keywords: "stapler",
      store_id: [2],
      category_id: 1,
      max_price: 20,
      min_discount: 30,
    });
    const good = await publish({ title: "Heavy stapler", store_id: 2, price: 20, discount: 30 });
    await publish({ title: "Heavy stapler store1", store_id: 1, price: 10, discount: 50 });
    await publish({ title: "Heavy stapler pricey", store_id: 2, price: 20.01, discount: 50 });
    await publish({ title: "Heavy stapler low", store_id: 2, price: 5, discount: 29 });
    await publish({
      title: "Heavy stapler cat",
      store_id: 2,
      category_id: 2,
      price: 5,
      discount: 50,
    });
    expect(await matchedPosts(a.alert.id)).toEqual([good.id]);
  });

  it("ignores paused alerts, deleted members and the poster's own deals", async () => {
    const paused = await member("Paused");
    const gone = await member("Gone");
    const p = await saveAlert(paused.client, { keywords: "whiteboard", paused: true });
    const g = await saveAlert(gone.client, { keywords: "whiteboard" });
    const own = await saveAlert(poster.client, { keywords: "whiteboard" });
    await t.deps.db
      .updateTable("users")
      .set({ deleted_at: clock })
      .where("id", "=", gone.id)
      .execute();
    await publish({ title: "Magnetic whiteboard" });
    expect(await matchedPosts(p.alert.id)).toEqual([]);
    expect(await matchedPosts(g.alert.id)).toEqual([]);
    expect(await matchedPosts(own.alert.id)).toEqual([]);
  });

  // The spec's clients may leave post_type out: the deal's own type decides, not the client's.
  it.each([
    ["names the deal's type", { post_type: "d" }],
    ["names no type", {}],
  ])(
    "only hot: no match at publication, a match when a vote that %s makes the deal hot",
    async (_, typed) => {
      const m = await member("Hot fan");
      const voter = await member("Voter");
      const a = await saveAlert(m.client, { keywords: "projector", only_hot: true });
      const deal = await publish({ title: "Classroom projector" });
      expect(await matchedPosts(a.alert.id)).toEqual([]);
      await t.deps.db
        .updateTable("posts")
        .set({ likes_count: 9 })
        .where("id", "=", deal.id)
        .execute();
      const vote = await api(voter.client, "/product_like_unlike", {
        post_id: deal.id,
        ...typed,
        btn_type: "like",
      });
      expect(vote.status).toBe(200);
      await waitForJobs(t.jobs);
      expect(await matchedPosts(a.alert.id)).toEqual([deal.id]);
    },
  );

  it("matches a held deal when it is approved, not before", async () => {
    const m = await member("Held fan");
    const a = await saveAlert(m.client, { keywords: "laminator" });
    const held = await insertPost(t.deps.db, {
      user_id: poster.id,
      store_id: 1,
      title: "Office laminator",
      status: "pending",
      created_at: clock,
      updated_at: clock,
    });
    await t.jobs.send(alertMatchJob, { postId: held.id, trigger: "publish" });
    await waitForJobs(t.jobs);
    expect(await matchedPosts(a.alert.id)).toEqual([]);
    const approved = await api(moderator.client, "/admin/moderate", {
      item_type: "d",
      item_id: held.unique_id,
      action: "restore",
      reason: "",
    });
    expect(approved.status).toBe(200);
    await waitForJobs(t.jobs);
    expect(await matchedPosts(a.alert.id)).toEqual([held.id]);
  });
});

describe("followers' feed news", () => {
  it("tells followers of the store, category and poster once, in one notification kept fresh", async () => {
    const byStore = await member("Store follower");
    const byCategory = await member("Category follower");
    const byPoster = await member("Poster follower");
    const bystander = await member("Follows nothing");
    expect((await api(byStore.client, "/follow_toggle", { type: "store", id: 2 })).status).toBe(
      200,
    );
    expect(
      (await api(byCategory.client, "/follow_toggle", { type: "category", id: 2 })).status,
    ).toBe(200);
    await t.deps.db
      .insertInto("follows")
      .values({ follower_id: byPoster.id, followee_id: poster.id })
      .execute();
    // Follows the store and the poster: still one notification.
    expect((await api(byPoster.client, "/follow_toggle", { type: "store", id: 2 })).status).toBe(
      200,
    );

    const news = async (userId: number) =>
      t.deps.db
        .selectFrom("notifications")
        .select(["message", "link", "read_at"])
        .where("user_id", "=", userId)
        .where("kind", "=", "followed_deal")
        .execute();

    await publish({ title: "Glue sticks 30 pack", store_id: 2, category_id: 3 });
    expect(await news(byStore.id)).toEqual([
      { message: "New in your feed: Glue sticks 30 pack", link: "/user/feed", read_at: null },
    ]);
    expect(await news(byCategory.id)).toEqual([]);
    expect(await news(byPoster.id)).toHaveLength(1);
    expect(await news(bystander.id)).toEqual([]);
    expect(await news(poster.id)).toEqual([]);

    await publish({ title: "Dry erase markers", store_id: 5, category_id: 2 });
    const [fresh] = await news(byStore.id);
    expect(fresh!.message).toBe("New in your feed: Glue sticks 30 pack");
    expect(await news(byCategory.id)).toHaveLength(1);
    const poster2 = await news(byPoster.id);
    expect(poster2).toHaveLength(1);
    expect(poster2[0]!.message).toBe("New deals in your feed, the latest: Dry erase markers");

    // The bell counts it; read, the next deal starts a new one.
    const listed = await api(byPoster.client, "/notifications", { page: 1 });
    expect(listed.body.response.unread).toBeGreaterThanOrEqual(1);
    expect((await api(byPoster.client, "/notifications_read", {})).status).toBe(200);
    await publish({ title: "Laminating pouches", store_id: 2, category_id: 3 });
    expect((await news(byPoster.id)).filter((n) => n.read_at === null)).toHaveLength(1);
  });
});

describe("delivery", () => {
  it("instant: one mail now, later matches wait 10 minutes and go together", async () => {
    const m = await member("Instant fan");
    await saveAlert(m.client, { keywords: "scissors", delivery: "instant" });
    clock = at(0);
    await publish({ title: "Safety scissors", price: 3.5 });
    const first = await smtp.waitForMessage(m.email);
    expect(first.subject).toContain("scissors");
    expect(first.text).toContain("Safety scissors");
    expect(first.text).toContain("$3.50");
    expect(first.text).toContain("http://localhost:3000/user/alerts");
    clock = at(5);
    await publish({ title: "Left handed scissors" });
    await t.jobs.send(alertInstantJob, {});
    await waitForJobs(t.jobs);
    expect(smtp.messages.filter((x) => x.to.includes(m.email))).toHaveLength(1);
    clock = at(10);
    await t.jobs.send(alertInstantJob, {});
    await waitForJobs(t.jobs);
    const second = await smtp.waitForMessage(m.email, { timeoutMs: 10_000 });
    expect(second.text).toContain("Left handed scissors");
    expect(second.text).not.toContain("Safety scissors");
    clock = T0;
  });

  it("a deal posted through the site reaches an instant alert's SMTP inbox within 60 s", async () => {
    const m = await member("Real mail fan");
    await saveAlert(m.client, { keywords: "tambourine", delivery: "instant" });
    const dealCategory = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", "deal")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const started = Date.now();
    const form = await multipartBody({
      deal_category: dealCategory.id,
      store_id: 1,
      category_id: 1,
      title: "Music class tambourine set",
      deal_description: "<p>Six tambourines.</p>",
      price: "24.00",
      discount: "10",
      expiry: "2999-12-31",
      deal_image: "",
    });
    const posted = await poster.client.request({ method: "POST", url: "/api/save_deal", ...form });
    expect(posted.statusCode, posted.body).toBeLessThan(300);
    const mail = await smtp.waitForMessage(m.email, { timeoutMs: 60_000 });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(mail.text).toContain("Music class tambourine set");
    expect(mail.text).toContain("$24.00");
  });

  it("daily: the digest goes at the member's hour (UTC), site-only sends no mail", async () => {
    const m = await member("Digest fan");
    const s = await member("Site fan");
    await saveAlert(m.client, { keywords: "globe", delivery: "daily", digest_hour: 9 });
    await saveAlert(s.client, { keywords: "globe", delivery: "site" });
    clock = at(0);
    await publish({ title: "Desk globe" });
    clock = new Date("2026-11-23T08:00:00.000Z");
    await t.jobs.send(alertDigestJob, {});
    await waitForJobs(t.jobs);
    expect(smtp.messages.some((x) => x.to.includes(m.email))).toBe(false);
    clock = new Date("2026-11-23T09:00:00.000Z");
    await t.jobs.send(alertDigestJob, {});
    await waitForJobs(t.jobs);
    const digest = await smtp.waitForMessage(m.email, { timeoutMs: 10_000 });
    expect(digest.subject).toContain("daily alert digest");
    expect(digest.text).toContain("Desk globe");
    expect(smtp.messages.some((x) => x.to.includes(s.email))).toBe(false);
    const notes = await t.deps.db
      .selectFrom("notifications")
      .select("kind")
      .where("user_id", "=", s.id)
      .execute();
    expect(notes).toEqual([{ kind: "alert_match" }]);
    clock = T0;
  });
});

describe("preview, feed and the calls", () => {
  it("previews the last 30 days' matches", async () => {
    const m = await member("Preview fan");
    const recent = await publish({ title: "Quillbright sharpener electric" });
    await publish({ title: "Quillbright sharpener old", created_at: at(-31 * 24 * 60) });
    const preview = await api(m.client, "/alert_preview", { keywords: "quillbrights sharpeners" });
    expect(preview.status).toBe(200);
    expect(preview.body.total).toBe(1);
    expect(preview.body.deal_data.map((d: Json) => d.unique_id)).toEqual([recent.unique_id]);
  });

  it("serves the private feed and revokes its address", async () => {
    const m = await member("Feed fan");
    const saved = await saveAlert(m.client, { keywords: "easel" });
    await publish({ title: "Wooden easel" });
    const path = new URL(saved.rss_url).pathname;
    const feed = await t.app.inject({ method: "GET", url: path });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers["content-type"]).toContain("application/rss+xml");
    expect(feed.body).toContain("<title>Wooden easel</title>");
    const revoked = await api(m.client, "/alert_rss_revoke", { id: saved.alert.id });
    expect(revoked.status).toBe(200);
    expect((await t.app.inject({ method: "GET", url: path })).statusCode).toBe(404);
    const fresh = await t.app.inject({
      method: "GET",
      url: new URL(revoked.body.rss_url).pathname,
    });
    expect(fresh.statusCode).toBe(200);
    const unknown = await t.app.inject({ method: "GET", url: `/alerts/rss/${"x".repeat(43)}` });
    expect(unknown.statusCode).toBe(404);
  });

  it("lists, changes and deletes one's own alerts; another's are 404", async () => {
    const m = await member("Owner");
    const other = await member("Other");
    const saved = await saveAlert(m.client, { keywords: "glue" });
    const list = await api(m.client, "/alerts", {});
    expect(list.body.alerts.map((a: Json) => a.keywords)).toEqual(["glue"]);
    const changed = await api(m.client, "/alert_save", {
      id: saved.alert.id,
      keywords: "glue sticks",
      delivery: "daily",
    });
    expect(changed.body.alert).toMatchObject({ keywords: "glue sticks", delivery: "daily" });
    const stolen = await api(other.client, "/alert_save", {
      id: saved.alert.id,
      keywords: "x1",
      delivery: "site",
    });
    expect(stolen.status).toBe(404);
    expect((await api(other.client, "/alert_delete", { id: saved.alert.id })).status).toBe(404);
    expect((await api(other.client, "/alert_rss_revoke", { id: saved.alert.id })).status).toBe(404);
    expect((await api(m.client, "/alert_delete", { id: saved.alert.id })).status).toBe(200);
    expect((await api(m.client, "/alerts", {})).body.alerts).toEqual([]);
  });

  it("refuses every bad input with a clear message", async () => {
    const m = await member("Bad input");
    const cases: [Record<string, unknown>, string, string][] = [
      [{ keywords: "" }, "keywords", M.empty],
      [{ keywords: "a".repeat(201) }, "keywords", M.keywordsTooLong],
      [{ keywords: "the and of" }, "keywords", M.noSearchableWord],
      [{ keywords: "-pens" }, "keywords", M.noSearchableWord],
      [{ keywords: "pens", store_id: [999999] }, "store_id", M.unknownStore],
      [{ keywords: "pens", category_id: 999999 }, "category_id", M.unknownCategory],
      [{ keywords: "pens", max_price: -1 }, "max_price", M.price],
      [{ keywords: "pens", min_discount: 101 }, "min_discount", M.discount],
      [{ keywords: "pens", min_discount: -1 }, "min_discount", M.discount],
      [{ keywords: "pens", delivery: "weekly" }, "delivery", M.delivery],
    ];
    for (const [fields, field, message] of cases) {
      const answer = await api(m.client, "/alert_save", { id: "", delivery: "site", ...fields });
      expect(answer.status, JSON.stringify(fields)).toBe(422);
      expect(answer.body.errors[field]).toBe(message);
    }
    const anonymous = await t.app.inject({ method: "POST", url: "/api/alerts", payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });

  it("allows at most 100 alerts per member", async () => {
    const m = await member("Collector");
    await t.deps.db
      .insertInto("alerts")
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          user_id: m.id,
          keywords: "",
          delivery: "site" as const,
          max_price: i + 1,
          rss_token_hash: `seed-${m.id}-${i}`,
        })),
      )
      .execute();
    const refused = await api(m.client, "/alert_save", {
      id: "",
      keywords: "pens",
      delivery: "site",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.id).toBe(M.tooMany);
    const other = await member("Another collector");
    await saveAlert(other.client, { keywords: "pens" });
  });
});
