import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ALERT_MESSAGES } from "../../core/member/alerts/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { createTestUser } from "../helpers/users.ts";

// The alerts editor of /user/alerts (docs/decisions/0079) posted without JavaScript: the same
// schema and service as POST /api/alert_save, for the session's member only.

const URL = "/user/alerts";

let t: TestApp;
let storeIds: number[];
beforeAll(async () => {
  t = await createTestApp({ pages: true });
  const stores = await t.deps.db.selectFrom("stores").select("id").orderBy("id").limit(2).execute();
  storeIds = stores.map((s) => s.id);
  expect(storeIds).toHaveLength(2);
});
afterAll(async () => {
  await t?.close();
});

/** A browser without JavaScript, signed in as a new member, who has opened the page. */
async function member() {
  const id = await createTestUser(t.deps.db);
  const browser = new FormBrowser(t.app);
  await browser.signInAs(t.deps.db, id);
  const page = await browser.open(URL);
  return { id, browser, page };
}

function alertsOf(userId: number) {
  return t.deps.db
    .selectFrom("alerts")
    .selectAll()
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

async function storesOf(alertId: number) {
  const { store_ids } = await t.deps.db
    .selectFrom("alerts")
    .select("store_ids")
    .where("id", "=", alertId)
    .executeTakeFirstOrThrow();
  // The driver may read the bigint[] column as text.
  return store_ids.map(Number);
}

describe("The alerts editor, posted without JavaScript", () => {
  it("posts to the page with the token", async () => {
    const { browser, page } = await member();
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: URL,
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.headers["cache-control"]).toMatch(/^private/);
    // Choosing the daily digest cannot reveal its time without JavaScript: it is always there.
    expect(page.body).toMatch(/<noscript>(?:(?!<\/noscript>)[\s\S])*name="digest_hour"/);
  });

  it("creates an alert with every chosen store and shows the message and its feed", async () => {
    const { id, browser } = await member();
    const response = await browser.postForm(URL, [
      ["_csrf", browser.xsrf],
      ["id", ""],
      ["keywords", "stapler"],
      ["store_id", String(storeIds[0])],
      ["store_id", String(storeIds[1])],
      ["max_price", "20"],
      ["only_hot", "on"],
      ["delivery", "daily"],
      ["digest_hour", "6"],
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(ALERT_MESSAGES.saved);
    const saved = await alertsOf(id);
    expect(saved).toHaveLength(1);
    expect(saved[0]).toMatchObject({
      keywords: "stapler",
      only_hot: true,
      delivery: "daily",
      digest_hour: 6,
      paused: false,
    });
    expect(Number(saved[0]!.max_price)).toBe(20);
    expect(await storesOf(saved[0]!.id)).toEqual(storeIds);
    // The new alert's private feed address, given only on creation.
    expect(response.body).toMatch(/id="alert-rss-url"[^>]*value="[^"]*\/alerts\/rss\//);
    // The list shows the new alert and the editor is empty again.
    expect(response.body).toMatch(/Your alerts \((<!-- -->)?1(<!-- -->)?\)/);
    expect(response.body).toMatch(/id="alert-keywords"[^>]*value=""/);
  });

  it("answers field messages with 422, keeps what was posted and stores nothing", async () => {
    const { id, browser } = await member();
    const empty = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      keywords: "",
      delivery: "instant",
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain(ALERT_MESSAGES.empty);

    const bad = await browser.postForm(URL, [
      ["_csrf", browser.xsrf],
      ["keywords", "crayons"],
      ["store_id", String(storeIds[1])],
      ["min_discount", "150"],
      ["delivery", "instant"],
    ]);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(ALERT_MESSAGES.discount);
    expect(bad.body).toMatch(/id="alert-min-discount"[^>]*aria-invalid="true"/);
    expect(bad.body).toMatch(/id="alert-keywords"[^>]*value="crayons"/);
    expect(bad.body).toMatch(new RegExp(`<option value="${storeIds[1]}" selected=""`));

    const unknownStore = await browser.postForm(URL, [
      ["_csrf", browser.xsrf],
      ["keywords", "crayons"],
      ["store_id", "999999"],
      ["delivery", "instant"],
    ]);
    expect(unknownStore.statusCode).toBe(422);
    expect(unknownStore.body).toContain(ALERT_MESSAGES.unknownStore);
    expect(await alertsOf(id)).toEqual([]);
  });

  it("changes the member's own alert by its id", async () => {
    const { id, browser } = await member();
    await browser.postForm(URL, { _csrf: browser.xsrf, keywords: "glue", delivery: "instant" });
    const [created] = await alertsOf(id);
    const response = await browser.postForm(URL, [
      ["_csrf", browser.xsrf],
      ["id", String(created!.id)],
      ["keywords", "glue sticks"],
      ["store_id", String(storeIds[0])],
      ["delivery", "site"],
      ["paused", "on"],
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(ALERT_MESSAGES.saved);
    const after = await alertsOf(id);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({
      id: created!.id,
      keywords: "glue sticks",
      delivery: "site",
      paused: true,
      only_hot: false,
    });
    expect(await storesOf(created!.id)).toEqual([storeIds[0]]);
    // No new feed address on a change.
    expect(response.body).not.toContain('id="alert-rss-url"');
  });

  it("does not let a member change another member's alert by posting its id", async () => {
    const owner = await member();
    await owner.browser.postForm(URL, {
      _csrf: owner.browser.xsrf,
      keywords: "scissors",
      delivery: "instant",
    });
    const [theirs] = await alertsOf(owner.id);
    const other = await member();
    const response = await other.browser.postForm(URL, {
      _csrf: other.browser.xsrf,
      id: String(theirs!.id),
      keywords: "taken over",
      delivery: "site",
    });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain(ALERT_MESSAGES.notFound);
    expect(await alertsOf(owner.id)).toEqual([theirs]);
    expect(await alertsOf(other.id)).toEqual([]);
  });

  it("refuses a post without the token, and a visitor", async () => {
    const { id, browser } = await member();
    const fields = { keywords: "markers", delivery: "instant" };
    expect((await browser.postForm(URL, fields)).statusCode).toBe(403);
    const visitor = new FormBrowser(t.app);
    await visitor.open("/login");
    const refused = await visitor.postForm(URL, { _csrf: visitor.xsrf, ...fields });
    expect([302, 303]).toContain(refused.statusCode);
    expect(String(refused.headers.location)).toMatch(/^\/login\?next=/);
    expect(await alertsOf(id)).toEqual([]);
    const markers = await t.deps.db
      .selectFrom("alerts")
      .select("id")
      .where("keywords", "=", "markers")
      .execute();
    expect(markers).toEqual([]);
  });
});

describe("The alerts page's push speed (docs/decisions/0109-push-alerts.md)", () => {
  const SPEED = /Instant alerts usually arrive within (\d+) seconds/;

  it("states no figure with fewer than 20 alert pushes in 30 days, then their 95th percentile", async () => {
    await t.deps.db.deleteFrom("push_timings").execute();
    // Old pushes do not count.
    const old = new Date(Date.now() - 31 * 86_400_000);
    await t.deps.db
      .insertInto("push_timings")
      .values(Array.from({ length: 40 }, () => ({ seconds: 1, sent_at: old })))
      .execute();
    await t.deps.db
      .insertInto("push_timings")
      .values(Array.from({ length: 19 }, (_, i) => ({ seconds: 0.5 + i / 10 })))
      .execute();
    expect((await member()).page.body).not.toMatch(SPEED);
    await t.deps.db.insertInto("push_timings").values({ seconds: 7.2 }).execute();
    const { page } = await member();
    // 0.5 … 2.3 s and one of 7.2 s: the 95th percentile lies between 2.3 and 7.2, rounded up.
    const seconds = Number(SPEED.exec(page.body)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(3);
    expect(seconds).toBeLessThanOrEqual(8);
  });
});
