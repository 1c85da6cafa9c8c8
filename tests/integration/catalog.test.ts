import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown) =>
  t.app.inject({ method: "POST", url, payload: payload as Record<string, unknown> });

async function addStores(count: number) {
  await t.deps.db
    .insertInto("stores")
    .values(
      Array.from({ length: count }, (_, i) => ({
        title: `Zz Test Store ${String(i + 1).padStart(2, "0")}`,
        slug: `zz-test-store-${i + 1}`,
        link: `https://store${i + 1}.example/`,
      })),
    )
    .execute();
  t.deps.changes.emit("catalog");
}

describe("GET /api/stores_list and GET /api/category_list", () => {
  it("answer every store in the spec's fields, alphabetically", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/stores_list" });
    expect(response.statusCode).toBe(200);
    const stores = response.json().response.selected_data;
    const inDb = await t.deps.db.selectFrom("stores").select(["id", "title"]).execute();
    expect(stores).toHaveLength(inDb.length);
    for (const store of stores) {
      expect(Object.keys(store).sort()).toEqual(
        ["id", "image_url", "link", "slug", "store_id", "title"].sort(),
      );
      expect(store.store_id).toBe(store.id);
    }
    const titles = stores.map((s: { title: string }) => s.title);
    expect(titles).toEqual(
      [...titles].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
    );
  });

  it("answer every category in the spec's fields", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/category_list" });
    expect(response.statusCode).toBe(200);
    const categories = response.json().response.selected_data;
    expect(categories.length).toBe(8);
    for (const category of categories) {
      expect(Object.keys(category).sort()).toEqual(
        ["category_id", "id", "image_url", "slug", "title"].sort(),
      );
      expect(category.category_id).toBe(category.id);
    }
  });

  it("carry Cache-Control and an ETag, and answer 304 when unchanged", async () => {
    // A returning visitor: a first visit sets the XSRF cookie and so is never public (0027).
    const cookies = { [XSRF_COOKIE]: "returning-visitor-xsrf-token" };
    for (const url of ["/api/stores_list", "/api/category_list"]) {
      const first = await t.app.inject({ method: "GET", url, cookies });
      expect(first.headers["cache-control"]).toMatch(/public, max-age=\d+/);
      const etag = first.headers.etag as string;
      expect(etag).toBeTruthy();
      const again = await t.app.inject({
        method: "GET",
        url,
        cookies,
        headers: { "if-none-match": etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe("");
      const other = await t.app.inject({
        method: "GET",
        url,
        cookies,
        headers: { "if-none-match": 'W/"x"' },
      });
      expect(other.statusCode).toBe(200);
    }
  });
});

describe("POST /api/category_list", () => {
  it("pages categories by 20 with the total", async () => {
    const body = (await post("/api/category_list", { page: 1 })).json();
    expect(body.status).toBe("true");
    expect(body.response.selected_data).toHaveLength(8);
    expect(body.response.deal_data_pagination).toMatchObject({
      total: 8,
      per_page: 20,
      current_page: 1,
      last_page: 1,
    });
  });

  it("treats a missing page as page 1 and refuses a bad one", async () => {
    const missing = await post("/api/category_list", {});
    expect(missing.statusCode).toBe(200);
    expect(missing.json().response.deal_data_pagination.current_page).toBe(1);
    for (const page of ["two", 0, -1, 1.5]) {
      const bad = await post("/api/category_list", { page });
      expect(bad.statusCode).toBe(422);
      expect(bad.json()).toMatchObject({ status: false, errors: { page: expect.any(String) } });
    }
  });
});

describe("POST /api/stores_list", () => {
  it("pages stores by 20: pages = ceil(total / 20), the last page holds the rest", async () => {
    const before = (await post("/api/stores_list", { page: 1 })).json().response;
    expect(before.deal_data_pagination).toMatchObject({ total: 12, per_page: 20, last_page: 1 });

    await addStores(30); // 42 stores: pages of 20, 20 and 2
    const first = (await post("/api/stores_list", { page: "1" })).json().response;
    expect(first.deal_data_pagination).toMatchObject({ total: 42, current_page: 1, last_page: 3 });
    expect(first.selected_data).toHaveLength(20);
    const second = (await post("/api/stores_list", { page: 2 })).json().response;
    const third = (await post("/api/stores_list", { page: 3 })).json().response;
    expect(second.selected_data).toHaveLength(20);
    expect(third.selected_data).toHaveLength(2);
    const ids = [...first.selected_data, ...second.selected_data, ...third.selected_data].map(
      (s: { id: number }) => s.id,
    );
    expect(new Set(ids).size).toBe(42);

    const beyond = (await post("/api/stores_list", { page: 4 })).json();
    expect(beyond.status).toBe("true");
    expect(beyond.response.selected_data).toEqual([]);
  });
});

describe("the /store and /category pages", () => {
  it("/store lists store cards linking to /store/{slug}, 20 a page, with a pager", async () => {
    const response = await t.app.inject({ method: "GET", url: "/store" });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(html).toContain("<title>Stores |");
    expect(html).toContain('href="/store/amazon"');
    expect(html.match(/class="catalog-card"/g)).toHaveLength(20);
    expect(html).toContain('href="/store?page=2"');
    expect(html).toMatch(/aria-current="page"[^>]*>1</);

    const last = await t.app.inject({ method: "GET", url: "/store?page=3" });
    expect(last.statusCode).toBe(200);
    expect(last.body.match(/class="catalog-card"/g)).toHaveLength(2);
    expect(last.body).toContain('rel="canonical" href="http://localhost:3000/store?page=3"');
  });

  it("/store reads a bad ?page as page 1 and a page past the end as 404", async () => {
    const bad = await t.app.inject({ method: "GET", url: "/store?page=abc" });
    expect(bad.statusCode).toBe(200);
    expect(bad.body.match(/class="catalog-card"/g)).toHaveLength(20);
    const past = await t.app.inject({ method: "GET", url: "/store?page=9" });
    expect(past.statusCode).toBe(404);
  });

  it("/category lists category cards linking to /category/{slug}", async () => {
    const response = await t.app.inject({ method: "GET", url: "/category" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('href="/category/school-supplies"');
    expect(response.body.match(/class="catalog-card"/g)).toHaveLength(8);
    expect(response.body).not.toContain('class="pager"');
  });
});
