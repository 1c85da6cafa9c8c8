import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t?.close();
});

describe("POST /api/cms_page", () => {
  it("answers the privacy policy as cms_page[0].detail", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/cms_page",
      payload: { slug: "privacy-policy" },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("true");
    expect(body.cms_page).toHaveLength(1);
    expect(body.cms_page[0]).toMatchObject({ slug: "privacy-policy", title: "Privacy Policy" });
    expect(body.cms_page[0].detail).toContain("<h3>");
    expect(body.cms_page[0].detail).toMatch(/cookie/i);
  });

  it("answers 404 'No Data Found' for an unknown slug and 422 without one", async () => {
    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/cms_page",
      payload: { slug: "terms-of-nothing" },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ status: "false", message: "No Data Found" });
    for (const payload of [{}, { slug: "" }, { slug: 5 }]) {
      const response = await t.app.inject({ method: "POST", url: "/api/cms_page", payload });
      expect(response.statusCode).toBe(422);
    }
  });
});

describe("GET /api/featured_stores", () => {
  it("lists the featured stores in the owner's order as response.featured_data_arr", async () => {
    // A returning visitor: a first visit sets the XSRF cookie and so is never public (0027).
    const response = await t.app.inject({
      method: "GET",
      url: "/api/featured_stores",
      cookies: { [XSRF_COOKIE]: "returning-visitor-xsrf-token" },
    });
    expect(response.statusCode).toBe(200);
    const stores = response.json().response.featured_data_arr as {
      slug: string;
      image_url: string;
      title: string;
    }[];
    const expected = await t.deps.db
      .selectFrom("featured_stores")
      .innerJoin("stores", "stores.id", "featured_stores.store_id")
      .select(["stores.slug", "stores.title", "stores.image_url"])
      .orderBy("featured_stores.position")
      .execute();
    expect(expected.length).toBeGreaterThan(0);
    expect(stores.map((s) => s.slug)).toEqual(expected.map((s) => s.slug));
    for (const store of stores) {
      expect(store.title).toBeTruthy();
      expect(store.image_url).toMatch(/^\/media\//);
    }
    expect(response.headers["cache-control"]).toMatch(/public/);
  });
});
