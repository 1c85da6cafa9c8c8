import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendWeeklyDigests, weeklyDigestJob } from "../../core/member/digest/job.ts";
import { findEmailPreferences } from "../../core/member/notifications/preferences.ts";
import { DIGEST_SCHEDULE_MESSAGES } from "../../core/settings/digest-schedule.ts";
import type { NewPost } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import type { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, smtpMailer, type SmtpCapture } from "../helpers/smtp.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * The weekly digest (docs/decisions/0087-weekly-digest.md): who gets it and with what,
 * once per week however often the job runs, nothing when nothing is new, one-click unsubscribe,
 * and the owner's day and hour. The clock is fixed and moved by hand, in 2025 so that no demo
 * post falls in the digests' week; the job queue and the SMTP server are real.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const HOUR = 3_600_000;
/** Monday 2 June 2025, 07:00 UTC: the first send, once the owner has chosen Monday at 07:00. */
const W1 = new Date("2025-06-02T07:00:00.000Z");
const at = (hours: number) => new Date(W1.getTime() + hours * HOUR);
let clock = at(-48);

let t: TestApp;
let smtp: SmtpCapture;
let admin: { id: number; client: TestClient };
let poster: number;

interface Member {
  id: number;
  client: TestClient;
  email: string;
}
let follower: Member; // follows store A
let categoryFan: Member; // follows category A
let quietFan: Member; // follows store C
let everything: Member; // follows nothing: the whole site
let optedOut: Member; // follows store A, never opted in
const unsent: string[] = []; // unconfirmed, suspended and deleted members who opted in

let storeA: number;
let storeB: number;
let storeC: number;
let categoryA: number;
const deals: Record<string, { id: number; unique_id: string; slug: string; title: string }> = {};

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    pages: true,
    jobs: true,
    now: () => clock,
    mailer: smtpMailer(smtp),
  });
  admin = await signInWithRole(t, "admin", "Digest Admin");
  poster = await createTestUser(t.deps.db, { name: "Digest Poster" });
  const db = t.deps.db;
  const store = async (title: string) =>
    (
      await db
        .insertInto("stores")
        .values({ title, slug: title.toLowerCase().replace(/\W+/g, "-") })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  storeA = await store("Digest Store A");
  storeB = await store("Digest Store B");
  storeC = await store("Digest Store C");
  categoryA = (
    await db
      .insertInto("categories")
      .values({ title: "Digest Category A", slug: "digest-category-a" })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;

  const deal = async (key: string, hoursBefore: number, values: Partial<NewPost>) => {
    const created = at(-hoursBefore);
    deals[key] = await insertPost(db, {
      user_id: poster,
      title: `Digest deal ${key}`,
      price: 12.5,
      currency: "USD",
      created_at: created,
      updated_at: created,
      ...values,
    });
  };
  await deal("a1", 48, { store_id: storeA, likes_count: 5 });
  await deal("a2", 1, { store_id: storeA, likes_count: 8 });
  await deal("aCold", 2, { store_id: storeA, unlikes_count: 3 });
  await deal("aExpired", 3, { store_id: storeA, likes_count: 20, expired: true });
  await deal("aEnded", 3, { store_id: storeA, likes_count: 21, expires_at: at(-1) });
  await deal("aHidden", 3, { store_id: storeA, likes_count: 30, status: "hidden" });
  await deal("aOld", 8 * 24, { store_id: storeA, likes_count: 40 });
  await deal("aLater", -1, { store_id: storeA, likes_count: 50 });
  await deal("b1", 48, { store_id: storeB, likes_count: 1000 });
  await deal("cat1", 72, { store_id: storeB, category_id: categoryA, likes_count: 2 });
  await deal("c1", 1, { store_id: storeC, likes_count: 1 });

  const member = async (name: string, follows: { store?: number; category?: number }) => {
    const m = await signInWithRole(t, "member", name);
    const row = await db
      .selectFrom("users")
      .select("email")
      .where("id", "=", m.id)
      .executeTakeFirstOrThrow();
    if (follows.store) {
      expect(
        (await api(m.client, "/follow_toggle", { type: "store", id: follows.store })).status,
      ).toBe(200);
    }
    if (follows.category) {
      const followed = await api(m.client, "/follow_toggle", {
        type: "category",
        id: follows.category,
      });
      expect(followed.status).toBe(200);
    }
    return { ...m, email: row.email };
  };
  follower = await member("Store Follower", { store: storeA });
  categoryFan = await member("Category Fan", { category: categoryA });
  quietFan = await member("Quiet Fan", { store: storeC });
  everything = await member("Whole Site Fan", {});
  optedOut = await member("Opted Out", { store: storeA });
  for (const m of [follower, categoryFan, quietFan, everything]) {
    const saved = await api(m.client, "/email_preferences_save", { weekly_digest: true });
    expect(saved.status).toBe(200);
  }
  for (const state of ["unconfirmed", "suspended", "deleted"] as const) {
    const id = await createTestUser(db, {
      name: `Digest ${state}`,
      confirmed: state !== "unconfirmed",
    });
    if (state === "suspended") {
      await db
        .updateTable("users")
        .set({ suspended_at: at(-100) })
        .where("id", "=", id)
        .execute();
    }
    if (state === "deleted") {
      await db
        .updateTable("users")
        .set({ deleted_at: at(-100) })
        .where("id", "=", id)
        .execute();
    }
    await db.insertInto("store_follows").values({ user_id: id, store_id: storeA }).execute();
    await db
      .insertInto("email_preferences")
      .values({ user_id: id, kind: "weekly_digest", enabled: true })
      .execute();
    const row = await db
      .selectFrom("users")
      .select("email")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    unsent.push(row.email);
  }
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function api(client: TestClient, url: string, payload?: Record<string, unknown>) {
  const response = payload
    ? await client.post(`/api${url}`, payload)
    : await client.get(`/api${url}`);
  return { status: response.statusCode, body: response.json() as Json };
}

/**
 * Waits for every job, then again: the queue is read kind by kind, mail first, so one pass can
 * end after the digest job finished but before it saw the mail jobs that job queued.
 */
async function settle() {
  await waitForJobs(t.jobs);
  await waitForJobs(t.jobs);
}

/** The hourly job, as its cron adds it, run to the end with the mails it queued. */
async function runDigestJob() {
  await t.jobs.send(weeklyDigestJob, {});
  await settle();
}

const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));

/** A header of a raw captured message (folded lines unfolded). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const line = head
    .split(/\r?\n/)
    .find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

const dealUrl = (key: string) =>
  `${t.config.publicUrl}/post/${deals[key]!.unique_id}/${deals[key]!.slug}`;

describe("the owner's schedule (console Settings)", () => {
  it("refuses a bad day or hour with messages (422), and anyone but an administrator (403)", async () => {
    const bad = await api(admin.client, "/admin/settings/digest", {
      digest_weekday: 7,
      digest_hour: "noon",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      digest_weekday: DIGEST_SCHEDULE_MESSAGES.weekday,
      digest_hour: DIGEST_SCHEDULE_MESSAGES.hour,
    });
    const missing = await api(admin.client, "/admin/settings/digest", { digest_weekday: 1 });
    expect(missing.status).toBe(422);
    expect(missing.body.errors.digest_hour).toBe(DIGEST_SCHEDULE_MESSAGES.hour);
    const moderator = await signInWithRole(t, "moderator", "Digest Moderator");
    const refused = await api(moderator.client, "/admin/settings/digest", {
      digest_weekday: 1,
      digest_hour: 7,
    });
    expect(refused.status).toBe(403);
    expect((await api(admin.client, "/admin/settings/digest")).body.response.schedule).toEqual({
      digest_weekday: 5,
      digest_hour: 9,
      description: "Friday at 09:00 UTC",
    });
  });

  it("saves Monday at 07:00 UTC, with its audit entry", async () => {
    const saved = await api(admin.client, "/admin/settings/digest", {
      digest_weekday: "1",
      digest_hour: "7",
    });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("The weekly digest now goes out on Monday at 07:00 UTC.");
    // Members are told when it comes.
    const kinds = (await api(follower.client, "/email_preferences", {})).body.response
      .kinds as Json[];
    expect(kinds.find((k) => k.kind === "weekly_digest")).toMatchObject({
      label: "Weekly digest",
      enabled: true,
      default_enabled: false,
    });
    expect(kinds.find((k) => k.kind === "weekly_digest")!.description).toMatch(
      /^Every Monday at 07:00 UTC, the past week's hottest deals/,
    );
    const audit = await auditOf(t.deps.db, "setting", "weekly_digest");
    expect(audit.at(-1)).toMatchObject({
      action: "settings.digest",
      actor_id: admin.id,
      before: { digest_weekday: 5, digest_hour: 9 },
      after: { digest_weekday: 1, digest_hour: 7 },
    });
  });
});

describe("the first week", () => {
  it("sends nothing before the owner's hour", async () => {
    clock = at(-1);
    await runDigestJob();
    expect(smtp.messages).toHaveLength(0);
  });

  it("sends each member one digest even when two runs race", async () => {
    clock = W1;
    const run = sendWeeklyDigests({
      db: t.deps.db,
      mail: t.deps.mail,
      now: () => clock,
      publicUrl: t.config.publicUrl,
      log: { info: () => {} },
    });
    await Promise.all([run(), run()]);
    await settle();
    for (const m of [follower, categoryFan, quietFan, everything]) {
      expect(mailsTo(m.email), m.email).toHaveLength(1);
    }
    expect(mailsTo(optedOut.email)).toHaveLength(0);
    for (const email of unsent) expect(mailsTo(email), email).toHaveLength(0);
  });

  it("lists the followed store's hottest public live deals of the week, hottest first", async () => {
    const [mail] = mailsTo(follower.email);
    expect(mail!.subject).toMatch(/^Your weekly digest: 2 hot deals on /);
    const a2 = mail!.text.indexOf("Digest deal a2 · $12.50 · Digest Store A");
    const a1 = mail!.text.indexOf("Digest deal a1 · $12.50 · Digest Store A");
    expect(a2).toBeGreaterThan(-1);
    expect(a1).toBeGreaterThan(a2);
    for (const left of ["aCold", "aExpired", "aEnded", "aHidden", "aOld", "aLater", "b1"]) {
      expect(mail!.text).not.toContain(`Digest deal ${left} `);
    }
    expect(mail!.links).toEqual(expect.arrayContaining([dealUrl("a2"), dealUrl("a1")]));
    expect(mail!.links).toContain(`${t.config.publicUrl}/user/settings/email`);
    expect(mail!.html).toContain("Digest deal a2</a> · $12.50 · Digest Store A");
    const row = await t.deps.db
      .selectFrom("weekly_digests")
      .selectAll()
      .where("user_id", "=", follower.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ week: "2025-06-02", mailed: true });
    expect(row.post_ids.map(Number)).toEqual([deals.a2!.id, deals.a1!.id]);
  });

  it("lists a followed category's deals, and the whole site's to one who follows nothing", async () => {
    const [byCategory] = mailsTo(categoryFan.email);
    expect(byCategory!.text).toContain("Digest deal cat1");
    expect(byCategory!.text).not.toContain("Digest deal b1");
    const [site] = mailsTo(everything.email);
    expect(site!.text).toContain("You follow no store or category yet");
    expect(site!.text).toMatch(/\n1\. Digest deal b1 · \$12\.50 · Digest Store B\r?\n/);
    expect(site!.text).toContain("Digest deal a2");
  });

  it("carries one-click unsubscribe headers and link", async () => {
    const [mail] = mailsTo(follower.email);
    expect(header(mail!.raw, "List-Unsubscribe")).toMatch(
      new RegExp(`^<${t.config.publicUrl}/unsubscribe\\?token=[^>]+>$`),
    );
    expect(header(mail!.raw, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    expect(mail!.text).toContain('"Weekly digest" is on in your email settings');
  });

  it("sends nothing more when the job runs again that week", async () => {
    const before = smtp.messages.length;
    clock = at(1);
    await runDigestJob();
    clock = at(20);
    await runDigestJob();
    expect(smtp.messages.length).toBe(before);
  });
});

describe("a later week", () => {
  it("follows the owner's new day: nothing at the old time, the digest at the new one", async () => {
    const saved = await api(admin.client, "/admin/settings/digest", {
      digest_weekday: 0,
      digest_hour: 7,
    });
    expect(saved.status).toBe(200);
    const before = smtp.messages.length;
    // Sunday 8 June, 06:00: not yet.
    clock = at(6 * 24 - 1);
    await runDigestJob();
    expect(smtp.messages.length).toBe(before);
    // A new deal for the store's followers, posted on Saturday.
    await insertPost(t.deps.db, {
      user_id: poster,
      title: "Digest deal a3",
      store_id: storeA,
      likes_count: 3,
      created_at: at(5 * 24),
      updated_at: at(5 * 24),
    });
    clock = at(6 * 24);
    await runDigestJob();
    const mails = mailsTo(follower.email);
    expect(mails).toHaveLength(2);
    // a2 is still of the past 7 days; a1 is not.
    expect(mails[1]!.text).toContain("Digest deal a3");
    expect(mails[1]!.text).toContain("Digest deal a2");
    expect(mails[1]!.text).not.toContain("Digest deal a1");
  });

  it("sends no mail to a member with nothing new since their last digest", async () => {
    // Store C's only deal (c1) was in last week's digest and is still of the past 7 days.
    expect(mailsTo(quietFan.email)).toHaveLength(1);
    const row = await t.deps.db
      .selectFrom("weekly_digests")
      .selectAll()
      .where("user_id", "=", quietFan.id)
      .where("week", "=", "2025-06-08")
      .executeTakeFirstOrThrow();
    expect(row.mailed).toBe(false);
  });

  it("sends nothing on the old day once the owner moved it", async () => {
    const before = smtp.messages.length;
    await insertPost(t.deps.db, {
      user_id: poster,
      title: "Digest deal c2",
      store_id: storeC,
      likes_count: 3,
      created_at: at(6 * 24 + 1),
      updated_at: at(6 * 24 + 1),
    });
    clock = at(7 * 24); // Monday 9 June, 07:00
    await runDigestJob();
    expect(smtp.messages.length).toBe(before);
  });

  it("turns the digest off from the mail's one-click link, and sends none after", async () => {
    const [mail] = mailsTo(follower.email);
    const link = header(mail!.raw, "List-Unsubscribe")!.slice(1, -1);
    const response = await t.app.inject({
      method: "POST",
      url: new URL(link).pathname + new URL(link).search,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(response.statusCode).toBe(200);
    expect((await findEmailPreferences(t.deps.db, follower.id)).weekly_digest).toBe(false);
    await insertPost(t.deps.db, {
      user_id: poster,
      title: "Digest deal a4",
      store_id: storeA,
      likes_count: 3,
      created_at: at(12 * 24),
      updated_at: at(12 * 24),
    });
    clock = at(13 * 24); // Sunday 15 June, 07:00
    await runDigestJob();
    expect(mailsTo(follower.email)).toHaveLength(2);
    // The others still get theirs: Store C's new deal for the quiet fan.
    expect(mailsTo(quietFan.email)).toHaveLength(2);
  });
});
