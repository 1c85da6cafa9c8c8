import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendMailJob } from "../../core/mail/queue.ts";
import { linkCheckJob } from "../../core/posts/freshness/link-check-job.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, signedInStaff } from "../helpers/console.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * The console's Mail page (core/mail/console, server/api/admin-mail.ts, /admin/mail): the mail
 * queue by state from pg-boss's job table, the daily counts, the undeliverable addresses paged,
 * and their clear (audited), through the JSON calls and as a form posted without JavaScript.
 * Administrators only.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The app's clock, held still so that "the last 30 days" are known days. */
const NOW = new Date();
const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (daysAgo: number) =>
  new Date(NOW.getTime() - daysAgo * DAY_MS).toISOString().slice(0, 10);

let t: TestApp;
let admin: TestClient;
let moderator: TestClient;
let member: TestClient;
let adminForms: FormBrowser;
let moderatorForms: FormBrowser;

beforeAll(async () => {
  t = await createTestApp({ pages: true, now: () => NOW });
  const db = t.deps.db;
  ({ client: admin } = await signedInStaff(t.app, db, "admin"));
  ({ client: moderator } = await signedInStaff(t.app, db, "moderator"));
  member = new TestClient(t.app);
  await member.signInAs(db, await createTestUser(db, { name: "Mail Member" }));
  const formsAs = async (role: "admin" | "moderator") => {
    const browser = new FormBrowser(t.app);
    await browser.signInAs(db, (await signedInStaff(t.app, db, role)).id);
    return browser;
  };
  adminForms = await formsAs("admin");
  moderatorForms = await formsAs("moderator");
});
afterAll(async () => {
  await t?.close();
});

/** Lists `address` as undeliverable, refused `minutesAgo` before the app's clock. */
async function listUndeliverable(
  address: string,
  minutesAgo = 0,
  reason = "550 5.1.1 No such user",
) {
  await t.deps.db
    .insertInto("undeliverable_addresses")
    .values({ address, reason, failed_at: new Date(NOW.getTime() - minutesAgo * 60_000) })
    .execute();
}

const listed = async () =>
  (await t.deps.db.selectFrom("undeliverable_addresses").select("address").execute()).map(
    (row) => row.address,
  );

async function clearList() {
  await t.deps.db.deleteFrom("undeliverable_addresses").execute();
}

describe("GET /api/admin/mail", () => {
  it("counts the mail queue's jobs by state, and only the mail queue's", async () => {
    const jobTable = sql.table(`${t.jobs.schema}.job`);
    await sql`DELETE FROM ${jobTable} WHERE name = ${sendMailJob.name}`.execute(t.deps.db);
    const mail = (n: number) => ({
      to: `queued-${n}@example.com`,
      subject: "Queued",
      text: "Hello.",
      html: "<p>Hello.</p>",
    });
    // Seven mails through the real queue (waiting), then four of them moved on as pg-boss does:
    // two to be retried, one being sent, one given up.
    for (let n = 0; n < 7; n++) await t.jobs.send(sendMailJob, mail(n));
    await t.jobs.send(linkCheckJob, { post_id: 1 });
    const setState = (state: string, to: string[]) =>
      sql`UPDATE ${jobTable} SET state = ${state}
          WHERE name = ${sendMailJob.name} AND data->>'to' IN (${sql.join(to)})`.execute(t.deps.db);
    await setState("retry", ["queued-0@example.com", "queued-1@example.com"]);
    await setState("active", ["queued-2@example.com"]);
    await setState("failed", ["queued-3@example.com"]);

    const response = await admin.get("/api/admin/mail");
    expect(response.statusCode).toBe(200);
    expect(response.json().queue).toEqual({ waiting: 3, retrying: 2, sending: 1, failed: 1 });
  });

  it("gives sent, failed and suppressed per day for 30 days, newest first, quiet days as 0", async () => {
    await t.deps.db
      .insertInto("mail_daily_counts")
      .values([
        { day: dayOf(0), sent: 12, failed: 1, suppressed: 2 },
        { day: dayOf(3), sent: 5, failed: 0, suppressed: 1 },
        { day: dayOf(29), sent: 7, failed: 2, suppressed: 0 },
        // Older than the page shows.
        { day: dayOf(30), sent: 99, failed: 99, suppressed: 99 },
      ])
      .execute();
    const body: Json = (await admin.get("/api/admin/mail")).json();
    expect(body.daily).toHaveLength(30);
    expect(body.daily.map((row: Json) => row.day)).toEqual(
      Array.from({ length: 30 }, (_, n) => dayOf(n)),
    );
    expect(body.daily[0]).toEqual({ day: dayOf(0), sent: 12, failed: 1, suppressed: 2 });
    expect(body.daily[3]).toEqual({ day: dayOf(3), sent: 5, failed: 0, suppressed: 1 });
    expect(body.daily[29]).toEqual({ day: dayOf(29), sent: 7, failed: 2, suppressed: 0 });
    expect(body.daily[1]).toEqual({ day: dayOf(1), sent: 0, failed: 0, suppressed: 0 });
  });

  it("counts the undeliverable addresses", async () => {
    await clearList();
    await listUndeliverable("counted-1@example.com");
    await listUndeliverable("counted-2@example.com", 5);
    expect((await admin.get("/api/admin/mail")).json().undeliverable_total).toBe(2);
  });
});

describe("GET /api/admin/mail/undeliverable", () => {
  it("pages the addresses 20 at a time, the latest failure first, with reason and time", async () => {
    await clearList();
    for (let n = 0; n < 25; n++) {
      await listUndeliverable(
        `paged-${String(n).padStart(2, "0")}@example.com`,
        n,
        `550 user ${n}`,
      );
    }
    const first: Json = (await admin.get("/api/admin/mail/undeliverable")).json();
    expect(first.pagination).toEqual({ total: 25, per_page: 20, current_page: 1, last_page: 2 });
    expect(first.addresses).toHaveLength(20);
    expect(first.addresses[0]).toEqual({
      address: "paged-00@example.com",
      reason: "550 user 0",
      failed_at: NOW.toISOString(),
    });
    expect(first.addresses[19].address).toBe("paged-19@example.com");

    const second: Json = (await admin.get("/api/admin/mail/undeliverable?page=2")).json();
    expect(second.pagination.current_page).toBe(2);
    expect(second.addresses.map((row: Json) => row.address)).toEqual(
      [20, 21, 22, 23, 24].map((n) => `paged-${n}@example.com`),
    );
  });

  it("refuses a page that is not a number", async () => {
    const response = await admin.get("/api/admin/mail/undeliverable?page=first");
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.page).toBe("page must be a number.");
  });
});

describe("POST /api/admin/mail/undeliverable/clear", () => {
  it("takes the address off the list and writes who cleared it, with the address, to the audit log", async () => {
    await clearList();
    await listUndeliverable("bounced@example.com", 10, "550 5.1.1 Mailbox unavailable");
    await listUndeliverable("stays@example.com");
    // As typed: the list keeps addresses in lower case.
    const response = await admin.post("/api/admin/mail/undeliverable/clear", {
      address: "  Bounced@Example.COM ",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      message: "bounced@example.com is cleared: mail goes to it again.",
      address: "bounced@example.com",
    });
    expect(await listed()).toEqual(["stays@example.com"]);

    const [entry, ...more] = await auditOf(
      t.deps.db,
      "undeliverable_address",
      "bounced@example.com",
    );
    expect(more).toEqual([]);
    expect(entry).toMatchObject({
      action: "mail.undeliverable_clear",
      actor_name: "Test admin",
      before: {
        address: "bounced@example.com",
        reason: "550 5.1.1 Mailbox unavailable",
        failed_at: new Date(NOW.getTime() - 10 * 60_000).toISOString(),
      },
      after: null,
    });
  });

  it("answers 404 for an address that is not listed, and writes nothing", async () => {
    const response = await admin.post("/api/admin/mail/undeliverable/clear", {
      address: "never-listed@example.com",
    });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      status: false,
      message: "never-listed@example.com is not on the undeliverable list.",
    });
    expect(await auditOf(t.deps.db, "undeliverable_address", "never-listed@example.com")).toEqual(
      [],
    );
  });

  it.each([
    [{}, "Please give the email address to clear, such as name@example.com."],
    [{ address: "" }, "Please give the email address to clear, such as name@example.com."],
    [
      { address: "no-at-sign" },
      "Please give the email address to clear, such as name@example.com.",
    ],
    [
      { address: "two words@example.com" },
      "Please give the email address to clear, such as name@example.com.",
    ],
    [{ address: 42 }, "This field must be text."],
    [
      { address: `${"a".repeat(250)}@example.com` },
      "An email address can be at most 254 characters.",
    ],
  ])("refuses %j with 422 and says why", async (body, message) => {
    const response = await admin.post("/api/admin/mail/undeliverable/clear", body);
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ status: false, errors: { address: message } });
  });
});

describe("who may use the Mail page", () => {
  it("is the administrators': moderators and members get 403, visitors 401", async () => {
    await clearList();
    await listUndeliverable("guarded@example.com");
    for (const client of [moderator, member]) {
      expect((await client.get("/api/admin/mail")).statusCode).toBe(403);
      expect((await client.get("/api/admin/mail/undeliverable")).statusCode).toBe(403);
      const clear = await client.post("/api/admin/mail/undeliverable/clear", {
        address: "guarded@example.com",
      });
      expect(clear.statusCode).toBe(403);
      expect(clear.json()).toEqual({
        status: false,
        message: "Only an administrator can do that.",
      });
    }
    const visitor = new TestClient(t.app);
    expect((await visitor.get("/api/admin/mail")).statusCode).toBe(401);
    expect(await listed()).toEqual(["guarded@example.com"]);

    expect((await moderator.get("/admin/mail")).statusCode).toBe(403);
    const nav = await moderator.get("/admin");
    expect(nav.body).not.toContain('href="/admin/mail"');
    expect((await admin.get("/admin")).body).toContain('href="/admin/mail"');
  });
});

describe("the /admin/mail page", () => {
  it("shows the queue, the daily counts and the undeliverable addresses", async () => {
    await clearList();
    await listUndeliverable("shown@example.com", 0, "550 5.7.1 Rejected by policy");
    const page = await admin.get("/admin/mail");
    expect(page.statusCode).toBe(200);
    for (const text of [
      '<h2 id="mail-queue-heading">Queue</h2>',
      "Sent and failed, last 30 days",
      "Undeliverable addresses",
      "shown@example.com",
      "550 5.7.1 Rejected by policy",
    ]) {
      expect(page.body).toContain(text);
    }
    // Before the scripts run, Clear is a link to the question.
    expect(page.body).toContain('href="/admin/mail?clear=shown%40example.com"');
  });

  it("asks before a clear without JavaScript, then clears by the posted form", async () => {
    await clearList();
    await listUndeliverable("noscript@example.com");
    const url = "/admin/mail?clear=noscript%40example.com";
    const question = await adminForms.open(url);
    expect(question.body).toContain("Clear noscript@example.com?");
    expect(forms(question.body)).toContainEqual({
      method: "post",
      action: url,
      hidden: false,
      csrf: adminForms.xsrf,
    });

    expect((await moderatorForms.get(url)).statusCode).toBe(403);
    const forbidden = await moderatorForms.postForm(url, {
      _csrf: moderatorForms.xsrf,
      intent: "clear",
      address: "noscript@example.com",
    });
    expect(forbidden.statusCode).toBe(403);
    expect(await listed()).toEqual(["noscript@example.com"]);

    const bad = await adminForms.postForm(url, {
      _csrf: adminForms.xsrf,
      intent: "clear",
      address: "",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("Please give the email address to clear, such as name@example.com.");

    const cleared = await adminForms.postForm(url, {
      _csrf: adminForms.xsrf,
      intent: "clear",
      address: "noscript@example.com",
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.body).toContain("noscript@example.com is cleared: mail goes to it again.");
    // The question is gone with the address.
    expect(cleared.body).not.toContain("Clear noscript@example.com?");
    expect(await listed()).toEqual([]);
    expect(await auditOf(t.deps.db, "undeliverable_address", "noscript@example.com")).toHaveLength(
      1,
    );

    const again = await adminForms.postForm(url, {
      _csrf: adminForms.xsrf,
      intent: "clear",
      address: "noscript@example.com",
    });
    expect(again.statusCode).toBe(404);
    expect(again.body).toContain("noscript@example.com is not on the undeliverable list.");
  });
});
