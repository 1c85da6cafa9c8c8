import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import type { PostStatus } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { multipartBody } from "../helpers/multipart.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * Honest links (record 0039): GET /go/{unique_id} counts the click in per-day counters and
 * redirects, product_details says whether a link is an affiliate link and gives its clean link, the
 * console sets a store's affiliate template, and store pages count the clicks of the last 30 days.
 */

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/126.0 Safari/537.36";
const CRAWLER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

let t: TestApp;
let clock = new Date("2026-03-10T12:00:00Z");
let admin: TestClient;
let member: TestClient;
let storeCount = 0;

beforeAll(async () => {
  t = await createTestApp({ seed: "none", now: () => clock });
  ({ client: admin } = await signInWithRole(t, "admin", "Ada Admin"));
  ({ client: member } = await signInWithRole(t, "member"));
});

afterAll(async () => {
  await t?.close();
});

async function store(affiliateTemplate = "") {
  storeCount += 1;
  return t.deps.db
    .insertInto("stores")
    .values({
      title: `Links Store ${storeCount}`,
      slug: `links-store-${storeCount}`,
      link: "https://shop.example/",
      affiliate_template: affiliateTemplate,
    })
    .returning(["id", "slug"])
    .executeTakeFirstOrThrow();
}

async function deal(link: string, storeId: number | null, status: PostStatus = "active") {
  return insertPost(t.deps.db, { link, store_id: storeId, status });
}

function go(uniqueId: string, headers: Record<string, string> = { "user-agent": BROWSER }) {
  return t.app.inject({ method: "GET", url: `/go/${uniqueId}`, headers });
}

async function postClicks(postId: number) {
  const rows = await t.deps.db
    .selectFrom("post_link_clicks")
    .select(["day", "clicks"])
    .where("post_id", "=", postId)
    .execute();
  return rows.map((row) => ({ day: String(row.day).slice(0, 10), clicks: Number(row.clicks) }));
}

async function storeClicksRows(storeId: number) {
  const rows = await t.deps.db
    .selectFrom("store_link_clicks")
    .select(["day", "clicks"])
    .where("store_id", "=", storeId)
    .execute();
  return rows.map((row) => ({ day: String(row.day).slice(0, 10), clicks: Number(row.clicks) }));
}

async function productDetails(uniqueId: string) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/product_details",
    payload: { unique_id: uniqueId },
  });
  expect(response.statusCode).toBe(200);
  return response.json().response.product_details as Record<string, unknown>;
}

describe("GET /go/{unique_id}", () => {
  it("counts the click in the day's counters and answers 302 to the stored link", async () => {
    clock = new Date("2026-03-10T12:00:00Z");
    const shop = await store();
    const post = await deal("https://shop.example/item?color=red", shop.id);

    const first = await go(post.unique_id);
    expect(first.statusCode).toBe(302);
    expect(first.headers.location).toBe("https://shop.example/item?color=red");
    expect(first.headers["cache-control"]).toBe("no-store");
    expect(first.headers["x-robots-tag"]).toMatch(/noindex/);
    expect(first.headers["referrer-policy"]).toBe("origin");
    expect(await postClicks(post.id)).toEqual([{ day: "2026-03-10", clicks: 1 }]);
    expect(await storeClicksRows(shop.id)).toEqual([{ day: "2026-03-10", clicks: 1 }]);

    await go(post.unique_id);
    clock = new Date("2026-03-11T00:30:00Z");
    await go(post.unique_id);
    expect(await postClicks(post.id)).toEqual(
      expect.arrayContaining([
        { day: "2026-03-10", clicks: 2 },
        { day: "2026-03-11", clicks: 1 },
      ]),
    );
    expect((await storeClicksRows(shop.id)).reduce((sum, row) => sum + row.clicks, 0)).toBe(3);
  });

  it("keeps nothing personal: no cookie is set, and the counters hold only post, day and count", async () => {
    const post = await deal("https://shop.example/nocookie", null);
    // A signed-in answer elsewhere is given an XSRF cookie when it lacks one; /go gives none.
    const sessionOnly = { [SESSION_COOKIE]: member.cookies.get(SESSION_COOKIE)! };
    expect(
      (await t.app.inject({ method: "GET", url: "/robots.txt", cookies: sessionOnly })).headers[
        "set-cookie"
      ],
    ).toBeDefined();
    const anonymous = await go(post.unique_id);
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers["set-cookie"]).toBeUndefined();

    // A signed-in member's click is counted the same way, and sets or clears no cookie either.
    const signedIn = await member.request({
      method: "GET",
      url: `/go/${post.unique_id}`,
      headers: { "user-agent": BROWSER },
    });
    expect(signedIn.statusCode).toBe(302);
    expect(signedIn.headers["set-cookie"]).toBeUndefined();
    // An ended session's cookie is not cleared here either (pages do that).
    const stale = await t.app.inject({
      method: "GET",
      url: `/go/${post.unique_id}`,
      headers: { "user-agent": BROWSER },
      cookies: { [SESSION_COOKIE]: "no-such-session", [XSRF_COOKIE]: "x".repeat(20) },
    });
    expect(stale.statusCode).toBe(302);
    expect(stale.headers["set-cookie"]).toBeUndefined();

    expect(await postClicks(post.id)).toEqual([
      { day: clock.toISOString().slice(0, 10), clicks: 3 },
    ]);
    const columns = await t.deps.db
      .selectFrom("information_schema.columns" as never)
      .select("column_name" as never)
      .where("table_name" as never, "in", ["post_link_clicks", "store_link_clicks"] as never)
      .execute();
    expect(new Set(columns.map((c) => (c as { column_name: string }).column_name))).toEqual(
      new Set(["post_id", "store_id", "day", "clicks"]),
    );
  });

  it("redirects crawlers, HEAD requests and prefetches without counting them", async () => {
    const post = await deal("https://shop.example/quiet", null);
    expect((await go(post.unique_id, { "user-agent": CRAWLER })).statusCode).toBe(302);
    expect((await go(post.unique_id, {})).statusCode).toBe(302);
    expect(
      (await go(post.unique_id, { "user-agent": BROWSER, "sec-purpose": "prefetch" })).statusCode,
    ).toBe(302);
    const head = await t.app.inject({
      method: "HEAD",
      url: `/go/${post.unique_id}`,
      headers: { "user-agent": BROWSER },
    });
    expect(head.statusCode).toBe(302);
    expect(await postClicks(post.id)).toEqual([]);
  });

  it("counts and follows a top-level navigation, with fetch metadata or without", async () => {
    const shop = await store();
    const post = await deal("https://shop.example/navigated", shop.id);
    const clicked = {
      "user-agent": BROWSER,
      "sec-fetch-mode": "navigate",
      "sec-fetch-site": "same-origin",
      "sec-fetch-dest": "document",
      "sec-fetch-user": "?1",
    };
    const navigations: Record<string, string>[] = [
      clicked,
      { "user-agent": BROWSER, "sec-fetch-mode": "navigate" },
      { "user-agent": BROWSER },
    ];
    for (const headers of navigations) {
      const response = await go(post.unique_id, headers);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe("https://shop.example/navigated");
    }
    expect(await postClicks(post.id)).toEqual([
      { day: clock.toISOString().slice(0, 10), clicks: 3 },
    ]);
    expect(await t.services.links.storeClicks(shop.id)).toBe(3);
  });

  it("neither counts nor redirects an image, a script's request or a frame: 403", async () => {
    const shop = await store();
    const post = await deal("https://shop.example/not-for-images", shop.id);
    // What a browser sends for <img src="/go/…"> in a description, fetch(), <link>, <iframe>.
    const requests: Record<string, string>[] = [
      { "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image", "sec-fetch-site": "same-origin" },
      { "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image", "sec-fetch-site": "cross-site" },
      { "sec-fetch-mode": "cors", "sec-fetch-dest": "empty" },
      { "sec-fetch-mode": "same-origin", "sec-fetch-dest": "empty" },
      { "sec-fetch-mode": "no-cors", "sec-fetch-dest": "script" },
      { "sec-fetch-mode": "navigate", "sec-fetch-dest": "iframe" },
      { "sec-fetch-dest": "image" },
      { "sec-fetch-mode": "NO-CORS" },
    ];
    for (const metadata of requests) {
      const response = await go(post.unique_id, { "user-agent": BROWSER, ...metadata });
      expect(response.statusCode, JSON.stringify(metadata)).toBe(403);
      expect(response.headers.location).toBeUndefined();
      expect(response.body).not.toContain("shop.example");
      expect(response.headers["cache-control"]).toBe("no-store");
      expect(response.headers["set-cookie"]).toBeUndefined();
    }
    // Ten such images on a page viewed by anyone add nothing to the store's clicks.
    for (let i = 0; i < 10; i++) {
      await go(post.unique_id, {
        "user-agent": BROWSER,
        "sec-fetch-mode": "no-cors",
        "sec-fetch-dest": "image",
      });
    }
    expect(await postClicks(post.id)).toEqual([]);
    expect(await t.services.links.storeClicks(shop.id)).toBe(0);
    // An unknown deal answers the same to an image: nothing is looked up.
    expect((await go("no-such-deal", { "sec-fetch-mode": "no-cors" })).statusCode).toBe(403);
  });

  it("answers 404 for unknown, held, hidden and removed deals, and counts nothing", async () => {
    for (const id of ["no-such-deal", "x".repeat(60), "%00", "..%2F..%2Fetc"]) {
      const response = await go(id);
      expect(response.statusCode, id).toBe(404);
      expect(response.headers.location, id).toBeUndefined();
      expect(response.headers["content-type"]).toMatch(/text\/html/);
      expect(response.body).toContain("Deal not found");
      expect(response.headers["cache-control"]).toBe("no-store");
    }
    for (const status of ["pending", "hidden", "removed"] as const) {
      const post = await deal("https://shop.example/held", null, status);
      const response = await go(post.unique_id);
      expect(response.statusCode, status).toBe(404);
      expect(response.headers.location).toBeUndefined();
      expect(await postClicks(post.id)).toEqual([]);
    }
  });

  it("answers 404 for a deal with no link, and never redirects to anything but http(s)", async () => {
    const shop = await store("https://partner.example/?u={url}");
    for (const link of [
      "",
      "javascript:alert(document.cookie)",
      "JavaScript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "//evil.example/",
      "ftp://files.example/deal",
    ]) {
      for (const storeId of [null, shop.id]) {
        const post = await deal(link, storeId);
        const response = await go(post.unique_id);
        expect(response.statusCode, link).toBe(404);
        expect(response.headers.location, link).toBeUndefined();
        expect(await postClicks(post.id)).toEqual([]);
        const details = await productDetails(post.unique_id);
        expect(details.go_url).toBe("");
        expect(details.clean_link).toBe("");
        expect(details.is_affiliate).toBe(false);
      }
    }
  });

  it("sends a store's deals through its affiliate template, with the link URL-encoded", async () => {
    const shop = await store("https://partner.example/track?id=9&u={url}");
    const post = await deal("https://shop.example/item?a=1&b=2", shop.id);
    const response = await go(post.unique_id);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(
      "https://partner.example/track?id=9&u=https%3A%2F%2Fshop.example%2Fitem%3Fa%3D1%26b%3D2",
    );
    const details = await productDetails(post.unique_id);
    expect(details).toMatchObject({
      grab_deal_link: "https://shop.example/item?a=1&b=2",
      go_url: `/go/${post.unique_id}`,
      is_affiliate: true,
      clean_link: "https://shop.example/item?a=1&b=2",
    });
  });
});

describe("product_details: go_url, is_affiliate, clean_link", () => {
  it("marks a link with an affiliate parameter and cleans tracking and affiliate parameters", async () => {
    const post = await deal(
      "https://www.amazon.example/dp/B0TEST?tag=chalk-20&utm_source=news&psc=1&fbclid=abc",
      null,
    );
    const details = await productDetails(post.unique_id);
    expect(details).toMatchObject({
      grab_deal_link:
        "https://www.amazon.example/dp/B0TEST?tag=chalk-20&utm_source=news&psc=1&fbclid=abc",
      go_url: `/go/${post.unique_id}`,
      is_affiliate: true,
      clean_link: "https://www.amazon.example/dp/B0TEST?psc=1",
    });
  });

  it("does not call a plain link an affiliate link, even with campaign tracking", async () => {
    const post = await deal("https://shop.example/item?utm_campaign=spring&color=red", null);
    expect(await productDetails(post.unique_id)).toMatchObject({
      is_affiliate: false,
      clean_link: "https://shop.example/item?color=red",
      go_url: `/go/${post.unique_id}`,
    });
  });
});

describe("the console's store form: affiliate template", () => {
  async function send(client: TestClient, url: string, fields: Record<string, string | number>) {
    const form = await multipartBody(fields);
    return client.request({ method: "POST", url: `/api${url}`, ...form });
  }

  it("refuses a template that is not an http(s) address with {url}", async () => {
    for (const template of [
      "https://partner.example/?u=",
      "partner.example/?u={url}",
      "javascript:alert(1)//{url}",
      "ftp://partner.example/{url}",
      "https://{url}/",
      "https://user:pw@partner.example/?u={url}",
      `https://partner.example/?u={url}&pad=${"x".repeat(500)}`,
    ]) {
      const response = await send(admin, "/admin/stores/create", {
        title: "Template Store",
        affiliate_template: template,
      });
      expect(response.statusCode, template).toBe(422);
      const body = response.json();
      expect(body.status).toBe(false);
      expect(body.errors.affiliate_template, template).toMatch(/\{url\}|at most 500/);
    }
    expect(
      await t.deps.db
        .selectFrom("stores")
        .select("id")
        .where("title", "=", "Template Store")
        .execute(),
    ).toEqual([]);
  });

  it("saves, shows, edits and clears a store's template; members may not", async () => {
    const created = await send(admin, "/admin/stores/create", {
      title: "Partner Shop",
      link: "https://partner-shop.example/",
      affiliate_template: "  https://partner.example/out?u={url}  ",
    });
    expect(created.statusCode).toBe(201);
    const item = created.json().item;
    expect(item.affiliate_template).toBe("https://partner.example/out?u={url}");

    const post = await deal("https://partner-shop.example/item", item.id);
    expect((await go(post.unique_id)).headers.location).toBe(
      "https://partner.example/out?u=https%3A%2F%2Fpartner-shop.example%2Fitem",
    );

    const listed = (await admin.request({ method: "GET", url: "/api/admin/stores?search=Partner" }))
      .json()
      .items.find((row: { id: number }) => row.id === item.id);
    expect(listed.affiliate_template).toBe("https://partner.example/out?u={url}");

    const cleared = await send(admin, "/admin/stores/update", {
      id: item.id,
      title: "Partner Shop",
      link: "https://partner-shop.example/",
      affiliate_template: "",
    });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().item.affiliate_template).toBe("");
    // The audit log keeps who changed where the store's clicks are sent.
    const audit = await t.deps.db
      .selectFrom("audit_log")
      .select(["before", "after"])
      .where("action", "=", "store.update")
      .where("item_id", "=", String(item.id))
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.before).toMatchObject({
      affiliate_template: "https://partner.example/out?u={url}",
    });
    expect(audit.after).toMatchObject({ affiliate_template: "" });
    expect((await go(post.unique_id)).headers.location).toBe("https://partner-shop.example/item");
    expect((await productDetails(post.unique_id)).is_affiliate).toBe(false);

    const refused = await send(member, "/admin/stores/update", {
      id: item.id,
      title: "Partner Shop",
      affiliate_template: "https://attacker.example/?u={url}",
    });
    expect(refused.statusCode).toBe(403);
    const row = await t.deps.db
      .selectFrom("stores")
      .select("affiliate_template")
      .where("id", "=", item.id)
      .executeTakeFirstOrThrow();
    expect(row.affiliate_template).toBe("");
  });
});

describe("a store's clicks in the last 30 days", () => {
  it("sums today and the 29 days before it, from the per-store day counters", async () => {
    const shop = await store();
    const other = await store();
    await t.deps.db
      .insertInto("store_link_clicks")
      .values([
        { store_id: shop.id, day: "2026-05-31", clicks: 4 }, // today
        { store_id: shop.id, day: "2026-05-02", clicks: 3 }, // 29 days before: counted
        { store_id: shop.id, day: "2026-05-01", clicks: 100 }, // 30 days before: not counted
        { store_id: shop.id, day: "2026-06-01", clicks: 50 }, // tomorrow: not counted
        { store_id: other.id, day: "2026-05-31", clicks: 1000 },
      ])
      .execute();
    clock = new Date("2026-05-31T23:59:00Z");
    expect(await t.services.links.storeClicks(shop.id)).toBe(7);

    // The next day the window moves: tomorrow's 50 count, and the 3 of May 2 drop out.
    clock = new Date("2026-06-01T00:01:00Z");
    expect(await t.services.links.storeClicks(shop.id)).toBe(54);
    expect(await t.services.links.storeClicks((await store()).id)).toBe(0);
  });

  it("counts clicks through /go on every deal of the store", async () => {
    clock = new Date("2026-07-15T09:00:00Z");
    const shop = await store();
    const first = await deal("https://shop.example/one", shop.id);
    const second = await deal("https://shop.example/two?tag=partner-20", shop.id);
    await go(first.unique_id);
    await go(second.unique_id);
    await go(second.unique_id);
    await go(second.unique_id, { "user-agent": CRAWLER });
    expect(await t.services.links.storeClicks(shop.id)).toBe(3);
  });
});
