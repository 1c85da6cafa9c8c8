import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
});
afterAll(async () => {
  await t?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(url: string, payload: unknown) {
  const response = await t.app.inject({
    method: "POST",
    url,
    payload: payload as Record<string, unknown>,
  });
  return { status: response.statusCode, body: response.json() as Json };
}

/** The home lists' deals: live ones (record 0037 leaves expired deals out), newest first. */
async function newestFirst(where: { store_id?: number; category_id?: number } = {}) {
  let query = t.deps.db
    .selectFrom("posts")
    .select("unique_id")
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .where("expired", "=", false)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
  if (where.store_id) query = query.where("store_id", "=", where.store_id);
  if (where.category_id) query = query.where("category_id", "=", where.category_id);
  return (await query.execute()).map((r) => r.unique_id);
}

describe("POST /api/recent_deal_pagination", () => {
  it("pages Recent Deals by 15, newest first, with current_page and last_page", async () => {
    const all = await newestFirst();
    const lastPage = Math.ceil(all.length / 15);
    const seen: string[] = [];
    for (let page = 1; page <= lastPage; page++) {
      const { status, body } = await post("/api/recent_deal_pagination", { page });
      expect(status).toBe(200);
      expect(body.recent_deals_pagination).toMatchObject({
        current_page: page,
        last_page: lastPage,
      });
      seen.push(...body.recent_deals.map((d: Json) => d.unique_id));
    }
    expect(seen).toEqual(all);
    const beyond = await post("/api/recent_deal_pagination", { page: lastPage + 1 });
    expect(beyond.body.recent_deals).toEqual([]);
  });

  it("refuses a page that is not a positive whole number", async () => {
    for (const page of [0, "x", 2.5]) {
      const { status, body } = await post("/api/recent_deal_pagination", { page });
      expect(status).toBe(422);
      expect(body.errors.page).toBeTruthy();
    }
  });
});

describe("POST /api/category_store_filter_home", () => {
  it("answers one merchant's recent and trending deals, with the pagination", async () => {
    const { status, body } = await post("/api/category_store_filter_home", {
      store_id: 1,
      category_id: "",
      page: 1,
    });
    expect(status).toBe(200);
    const expected = await newestFirst({ store_id: 1 });
    expect(body.recent_deals_data.map((d: Json) => d.unique_id)).toEqual(expected.slice(0, 15));
    expect(body.pagination).toMatchObject({
      current_page: 1,
      last_page: Math.max(1, Math.ceil(expected.length / 15)),
    });
    expect(body.trending_deals_arr.length).toBeGreaterThan(0);
    for (const deal of body.trending_deals_arr) {
      expect(deal.store_id).toBe(1);
      expect(deal.is_expired).toBe(false);
    }
  });

  it("answers one category's deals, and both together narrow to both", async () => {
    const byCategory = (
      await post("/api/category_store_filter_home", { category_id: "3", page: 1 })
    ).body;
    expect(byCategory.recent_deals_data.map((d: Json) => d.unique_id)).toEqual(
      (await newestFirst({ category_id: 3 })).slice(0, 15),
    );
    const both = (await post("/api/category_store_filter_home", { store_id: 2, category_id: 3 }))
      .body;
    expect(both.recent_deals_data.map((d: Json) => d.unique_id)).toEqual(
      (await newestFirst({ store_id: 2, category_id: 3 })).slice(0, 15),
    );
    for (const deal of both.trending_deals_arr) {
      expect(deal).toMatchObject({ store_id: 2, category_id: 3 });
    }
  });

  it("answers the unfiltered lists when neither is chosen, and empty lists for an unknown one", async () => {
    const home = (await post("/api/home", {})).body;
    const neither = (
      await post("/api/category_store_filter_home", { store_id: "", category_id: "" })
    ).body;
    expect(neither.recent_deals_data.map((d: Json) => d.unique_id)).toEqual(
      home.recent_deals.recent_arr.map((d: Json) => d.unique_id),
    );
    expect(neither.trending_deals_arr.map((d: Json) => d.unique_id)).toEqual(
      home.trending_deals.deals_arr.map((d: Json) => d.unique_id),
    );
    const unknown = await post("/api/category_store_filter_home", { store_id: 99999 });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toMatchObject({
      recent_deals_data: [],
      trending_deals_arr: [],
      pagination: { current_page: 1, last_page: 1 },
    });
  });

  it("refuses ids that are not numbers", async () => {
    const { status, body } = await post("/api/category_store_filter_home", { store_id: "abc" });
    expect(status).toBe(422);
    expect(body.errors.store_id).toBeTruthy();
  });
});

describe("the home page", () => {
  it("server-renders recent deals, the Wishlist names, the filters and LOAD MORE", async () => {
    const response = await t.app.inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const home = (await post("/api/home", {})).body;
    for (const deal of home.recent_deals.recent_arr.slice(0, 15)) {
      expect(html).toContain(`href="/post/${deal.unique_id}/${deal.slug}"`);
    }
    for (const entry of home.teachers_wishlist) {
      expect(html).toContain(entry.first_name);
      expect(html).toContain(`href="${entry.amazon_wishlist}"`);
    }
    expect(html).toContain('<label for="home-merchant">By Merchant</label>');
    expect(html).toContain('<label for="home-category">By Category</label>');
    // The selects' options come from GET /api/stores_list and /api/category_list in the browser
    // (app/lib/home-filter-choices.ts): the page carries "All …" alone.
    expect(html).toContain('<option value="" selected="">All merchants</option></select>');
    expect(html).toContain('<option value="" selected="">All categories</option></select>');
    expect(html).not.toContain(">Amazon</option>");
    expect(html).toContain("LOAD MORE");
    expect(html).toContain('target="_blank"');
  });

  it("names the chosen merchant and category in a filtered page's selects, and no other", async () => {
    const stores = (await t.app.inject({ method: "GET", url: "/api/stores_list" })).json().response
      .selected_data as { id: number; title: string }[];
    const categories = (await t.app.inject({ method: "GET", url: "/api/category_list" })).json()
      .response.selected_data as { id: number; title: string }[];
    const store = stores.find((s) => s.title === "Staples")!;
    const category = categories.find((c) => /^[\w ]+$/.test(c.title))!;
    const response = await t.app.inject({
      method: "GET",
      url: `/?store=${store.id}&category=${category.id}`,
    });
    expect(response.statusCode).toBe(200);
    const select = (id: string) =>
      new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`).exec(response.body)![1]!;
    expect(select("home-merchant")).toBe(
      `<option value="">All merchants</option><option value="${store.id}" selected="">Staples</option>`,
    );
    expect(select("home-category")).toBe(
      `<option value="">All categories</option><option value="${category.id}" selected="">${category.title}</option>`,
    );
    expect(response.body).not.toContain(">Amazon</option>");
  });
});
