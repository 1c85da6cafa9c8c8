import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import { trendingDays } from "../../core/cards/repository.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
});
afterAll(async () => {
  await t?.close();
});

describe("the site's settings calls", () => {
  it("GET /api/general_settings answers the spec's shape", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/general_settings" });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.general_setting).toMatchObject({
      Website_Keywords: expect.any(String),
      Website_Description: expect.any(String),
    });
    expect(body.general_setting.Website_Description.length).toBeGreaterThan(20);
    expect(body.site_setting[0].Website_Logo).toMatch(/^\/media\//);
    expect(body.footer_setting[0]).toMatchObject({
      Playstore_URL: expect.stringMatching(/^https:\/\//),
      App_Store_URL: expect.stringMatching(/^https:\/\//),
      play_store_image: expect.any(String),
      app_store_image: expect.any(String),
      Copyright_Text: expect.any(String),
    });
  });

  it("GET /api/social answers a list of social_url and social_image", async () => {
    const body = (await t.app.inject({ method: "GET", url: "/api/social" })).json();
    expect(body.data.length).toBeGreaterThan(0);
    for (const link of body.data) {
      expect(link.social_url).toMatch(/^https:\/\//);
      expect(link.social_image).toMatch(/^icon-/);
    }
  });
});

describe("POST /api/home", () => {
  it("answers the wishlist, trending deals and at least 15 recent deals", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/home",
      payload: { user_id: "" },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.teachers_wishlist.length).toBe(12);
    expect(body.teachers_wishlist[0]).toEqual({
      id: expect.any(Number),
      first_name: expect.any(String),
      last_name: expect.any(String),
      school_location: expect.any(String),
      amazon_wishlist: expect.stringMatching(/^https:\/\/www\.amazon\.com\//),
    });
    expect(body.trending_deals.deals_arr.length).toBeGreaterThan(0);
    expect(body.recent_deals.recent_arr.length).toBe(15);
    const card = body.recent_deals.recent_arr[0];
    for (const field of [
      "unique_id",
      "slug",
      "image_url",
      "store_id",
      "store_title",
      "title",
      "price",
      "discount",
      "rating",
      "views",
      "user_id",
      "user_name",
      "user_image",
      "created_at",
      "product_id",
      "grab_deal_link",
      "coupon_id",
    ]) {
      expect(card, field).toHaveProperty(field);
    }
    const dates = body.recent_deals.recent_arr.map((d: { created_at: string }) => d.created_at);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("trending lists the window's hottest deals by temperature first, and leaves expired deals out", async () => {
    const now = new Date();
    const body = (await t.app.inject({ method: "POST", url: "/api/home" })).json();
    const cards: { id: number; is_expired: boolean; temperature: number }[] =
      body.trending_deals.deals_arr;
    expect(cards.length).toBeGreaterThan(0);
    expect(cards.every((d) => !d.is_expired)).toBe(true);
    const rows = await t.deps.db
      .selectFrom("posts")
      .select(["id", "hot_score", "created_at"])
      .where(
        "id",
        "in",
        cards.map((d) => d.id),
      )
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const window = new Set(trendingDays(now));
    // Deals of the window come first, by temperature then hot score; older ones fill by hot score.
    const rank = (card: (typeof cards)[number]) => {
      const row = byId.get(card.id)!;
      const inWindow = window.has(row.created_at.toISOString().slice(0, 10));
      return [inWindow ? 1 : 0, inWindow ? card.temperature : 0, row.hot_score] as const;
    };
    const sorted = [...cards].sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return y[0] - x[0] || y[1] - x[1] || y[2] - x[2] || b.id - a.id;
    });
    expect(cards.map((d) => d.id)).toEqual(sorted.map((d) => d.id));
  });
});

describe("the JSON error convention", () => {
  it("answers 404 JSON for an unknown call", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/no_such_call" });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ status: false, message: expect.any(String) });
  });

  it("answers 400 for malformed JSON", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/home",
      headers: { "content-type": "application/json" },
      payload: '{"user_id": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().status).toBe(false);
  });

  it("answers 413 for a body over the limit", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/home",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ user_id: "x".repeat(2 * 1024 * 1024) }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().status).toBe(false);
  });

  it("serves an OpenAPI description at /api/docs", async () => {
    const body = (await t.app.inject({ method: "GET", url: "/api/docs" })).json();
    expect(body.openapi).toMatch(/^3\./);
    expect(body.paths["/api/home"].post).toBeTruthy();
    expect(body.paths["/api/general_settings"].get).toBeTruthy();
  });
});

describe("cookies and CSRF", () => {
  it("sets no cookie on a first visit; a form's XSRF-TOKEN cookie is readable by the site's scripts", async () => {
    for (const url of ["/", "/api/social"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["set-cookie"], url).toBeUndefined();
    }
    const form = await t.app.inject({ method: "GET", url: "/login" });
    const cookie = form.cookies.find((c) => c.name === XSRF_COOKIE);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_.-]{16,}$/);
    expect(cookie?.httpOnly).toBeFalsy();
    expect(cookie?.sameSite).toBe("Lax");
  });

  it("refuses a cookie-authenticated POST without the XSRF header", async () => {
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, 1);
    const refused = await client.post("/api/home", {}, { xsrf: false });
    expect(refused.statusCode).toBe(403);
    const accepted = await client.post("/api/home", {});
    expect(accepted.statusCode).toBe(200);
  });

  it("lets bearer-token calls through without the XSRF header", async () => {
    const client = new TestClient(t.app);
    const token = await client.signInAs(t.deps.db, 1);
    const response = await t.app.inject({
      method: "POST",
      url: "/api/home",
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(response.statusCode).toBe(200);
  });

  it("clears a session cookie that names no live session", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/api/social",
      cookies: { [SESSION_COOKIE]: "stale" },
    });
    const cleared = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(cleared?.value).toBe("");
  });
});

describe("pages", () => {
  it("renders the home page with its recent deals in the first HTML", async () => {
    const home = (await t.app.inject({ method: "POST", url: "/api/home" })).json();
    const response = await t.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/text\/html/);
    const html = response.body;
    for (const deal of home.recent_deals.recent_arr.slice(0, 5)) {
      expect(html).toContain(escapeHtml(deal.title));
    }
    expect(html).toContain("may earn a commission");
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);
    expect(html).toContain('rel="canonical" href="http://localhost:3000/"');
  });

  it("answers unknown paths with the 404 page and status", async () => {
    const response = await t.app.inject({ method: "GET", url: "/definitely/not/here" });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain("Page Not Found");
    expect(response.body).toContain("Go To Home");
  });
});

function escapeHtml(text: string) {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}
