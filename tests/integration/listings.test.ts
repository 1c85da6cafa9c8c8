import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANCHOR_STRIDE } from "../../core/cards/paging.ts";
import { dealExpiryJob } from "../../core/posts/expiry/sweep.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobs } from "../helpers/jobs.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true, jobs: true });
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

const categoryPage = (payload: unknown) => post("/api/category_page", payload);
const filter = (payload: unknown) => post("/api/filter", payload);

const DEAL_CARD_FIELDS = [
  "unique_id",
  "slug",
  "image_url",
  "store_id",
  "store_title",
  "merchant_title",
  "title",
  "price",
  "discount",
  "rating",
  "views",
  "user_id",
  "user_name",
  "user_by",
  "user_image",
  "created_at",
  "product_id",
  "grab_deal_link",
  "coupon_id",
];

async function storeBySlug(slug: string) {
  return t.deps.db
    .selectFrom("stores")
    .select(["id", "title"])
    .where("slug", "=", slug)
    .executeTakeFirstOrThrow();
}

/**
 * What the database says a newest-first list holds, by plain OFFSET: live deals before expired
 * ones (record 0037); the calls list expired deals unless asked to hide them.
 */
async function expectedIds(
  where: { store_id?: number; category_id?: number; post_type?: "d" | "g" },
  offset: number,
  limit: number,
) {
  let query = t.deps.db
    .selectFrom("posts")
    .select("unique_id")
    .where("status", "=", "active")
    .orderBy("expired")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc");
  if (where.store_id) query = query.where("store_id", "=", where.store_id);
  if (where.category_id) query = query.where("category_id", "=", where.category_id);
  if (where.post_type) query = query.where("post_type", "=", where.post_type);
  return (await query.offset(offset).limit(limit).execute()).map((r) => r.unique_id);
}

describe("POST /api/category_page, type store and category", () => {
  it("lists a store's deals, 15 a page, newest first, with the store and slider bounds", async () => {
    const amazon = await storeBySlug("amazon");
    const { status, body } = await categoryPage({ slug: "amazon", type: "store", page: 1 });
    expect(status).toBe(200);
    expect(body.status).toBe("true");
    const { deal_data, deal_data_pagination, selected, price_filter, discount_filter } =
      body.response;
    const total = (await expectedIds({ store_id: amazon.id }, 0, 1000)).length;
    expect(total).toBeGreaterThan(0);
    expect(deal_data_pagination).toMatchObject({
      total,
      per_page: 15,
      current_page: 1,
      last_page: Math.ceil(total / 15),
    });
    expect(deal_data.map((d: Json) => d.unique_id)).toEqual(
      await expectedIds({ store_id: amazon.id }, 0, 15),
    );
    for (const deal of deal_data) {
      expect(deal.store_id).toBe(amazon.id);
      for (const field of DEAL_CARD_FIELDS) expect(deal).toHaveProperty(field);
    }
    expect(selected[0]).toMatchObject({ store_id: amazon.id, slug: "amazon", title: "Amazon" });

    const bounds = await t.deps.db
      .selectFrom("posts")
      .select([
        sql<number>`min(price)`.as("minPrice"),
        sql<number>`max(price)`.as("maxPrice"),
        sql<number>`min(discount)`.as("minDiscount"),
        sql<number>`max(discount)`.as("maxDiscount"),
      ])
      .where("store_id", "=", amazon.id)
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    expect(price_filter[0]).toEqual({
      min_price: Number(bounds.minPrice),
      max_price: Number(bounds.maxPrice),
    });
    expect(discount_filter[0]).toEqual({
      min_discount: Number(bounds.minDiscount),
      max_discount: Number(bounds.maxDiscount),
    });
  });

  it("lists a category's deals with the stores they come from for the checklist", async () => {
    const category = await t.deps.db
      .selectFrom("categories")
      .select(["id"])
      .where("slug", "=", "school-supplies")
      .executeTakeFirstOrThrow();
    const { body } = await categoryPage({ slug: "school-supplies", type: "category" });
    const expected = await expectedIds({ category_id: category.id }, 0, 1000);
    expect(body.response.deal_data_pagination.total).toBe(expected.length);
    expect(body.response.deal_data.map((d: Json) => d.unique_id)).toEqual(expected.slice(0, 15));
    expect(body.response.selected[0]).toMatchObject({ category_id: category.id });
    const checklist = body.response.store_filter as Json[];
    expect(checklist.length).toBeGreaterThan(0);
    expect(checklist.reduce((sum, s) => sum + s.deal_count, 0)).toBe(expected.length);
  });

  it("answers 'No Data Found' with status 'false' and 404 for an unknown slug", async () => {
    for (const payload of [
      { slug: "no-such-store", type: "store", page: 1 },
      { slug: "no-such-category", type: "category", page: 1 },
      { slug: "teachers-lounge", type: "g", page: 1 },
    ]) {
      const { status, body } = await categoryPage(payload);
      expect(status).toBe(404);
      expect(body).toEqual({ status: "false", message: "No Data Found" });
    }
  });

  it("refuses a bad type, a missing slug or a bad page with 422", async () => {
    for (const payload of [
      { slug: "amazon", type: "shop", page: 1 },
      { type: "store", page: 1 },
      { slug: "amazon", type: "store", page: "first" },
    ]) {
      const { status, body } = await categoryPage(payload);
      expect(status).toBe(422);
      expect(body.status).toBe(false);
      expect(Object.keys(body.errors).length).toBeGreaterThan(0);
    }
  });
});

describe("POST /api/category_page, type d (new deals) and g (educators)", () => {
  it("pages every deal by 15: pages = ceil(total / 15), the last page holds the rest", async () => {
    const total = (await expectedIds({ post_type: "d" }, 0, 100_000)).length;
    const first = (await categoryPage({ type: "d", slug: "", page: 1 })).body.response;
    expect(first.deal_data_pagination).toMatchObject({
      total,
      per_page: 15,
      last_page: Math.ceil(total / 15),
    });
    const lastPage = Math.ceil(total / 15);
    const last = (await categoryPage({ type: "d", page: lastPage })).body.response;
    expect(last.deal_data).toHaveLength(total - (lastPage - 1) * 15);
    const beyond = (await categoryPage({ type: "d", page: lastPage + 1 })).body;
    expect(beyond.status).toBe("true");
    expect(beyond.response.deal_data).toEqual([]);
  });

  it("lists educator forum posts by 12 with the forum post fields", async () => {
    const total = (await expectedIds({ post_type: "g" }, 0, 1000)).length;
    const { body } = await categoryPage({ slug: "educators", type: "g", page: 1 });
    expect(body.response.deal_data_pagination).toMatchObject({
      total,
      per_page: 12,
      last_page: Math.ceil(total / 12),
    });
    expect(body.response.deal_data).toHaveLength(Math.min(12, total));
    for (const row of body.response.deal_data) {
      expect(row).toMatchObject({
        unique_id: expect.any(String),
        slug: expect.any(String),
        title: expect.any(String),
        image_url: expect.any(String),
        created_at: expect.any(String),
        is_featured: expect.any(String),
        rating: expect.any(Number),
        views: expect.any(Number),
        user_name: expect.any(String),
      });
      expect(row).not.toHaveProperty("price");
    }
    const second = (await categoryPage({ slug: "educators", type: "g", page: 2 })).body;
    expect(second.response.deal_data).toHaveLength(total - 12);
    expect((await t.services.listings.educatorPage(2)).items.map((p) => p.unique_id)).toEqual(
      second.response.deal_data.map((p: Json) => p.unique_id),
    );
  });

  it("keeps deep pages exact across keyset anchors (ties on created_at included)", async () => {
    // 1,300 more deals, three to a minute: enough for two anchors of ANCHOR_STRIDE keys.
    await sql`
      INSERT INTO posts (unique_id, slug, post_type, kind, title, store_id, category_id, price,
                         discount, user_id, created_at)
      SELECT 'bulk' || g, 'bulk-deal-' || g, 'd', 'deal', 'Bulk classroom deal ' || g,
             1 + g % 12, 1 + g % 8, 5 + g % 40, g % 90, 1,
             now() - interval '400 days' - ((g / 3) || ' minutes')::interval
      FROM generate_series(1, 1300) AS g`.execute(t.deps.db);
    t.deps.changes.emit("posts");
    expect(ANCHOR_STRIDE).toBeLessThan(1300);

    const total = (await expectedIds({ post_type: "d" }, 0, 100_000)).length;
    const lastPage = Math.ceil(total / 15);
    const anchorPage = Math.floor(ANCHOR_STRIDE / 15) + 1;
    for (const page of [
      anchorPage - 1,
      anchorPage,
      anchorPage + 1,
      2 * anchorPage,
      lastPage - 1,
      lastPage,
      anchorPage,
    ]) {
      const { body } = await categoryPage({ type: "d", page });
      expect(body.response.deal_data.map((d: Json) => d.unique_id)).toEqual(
        await expectedIds({ post_type: "d" }, (page - 1) * 15, 15),
      );
    }
    // A store's list pages the same way.
    const store = await storeBySlug("target");
    const storeTotal = (await expectedIds({ store_id: store.id }, 0, 100_000)).length;
    const storeLast = Math.ceil(storeTotal / 15);
    for (const page of [1, storeLast - 1, storeLast]) {
      const { body } = await categoryPage({ slug: "target", type: "store", page });
      expect(body.response.deal_data.map((d: Json) => d.unique_id)).toEqual(
        await expectedIds({ store_id: store.id }, (page - 1) * 15, 15),
      );
    }
  });
});

describe("POST /api/filter", () => {
  it("narrows new deals to stores (a list in any form) and a price range, resetting bounds never", async () => {
    const unfiltered = (await categoryPage({ type: "d", page: 1 })).body.response;
    for (const storeIds of ["1,2", [1, 2], ["1", "2"]]) {
      const { status, body } = await filter({
        filter_type: "newdeals",
        store_id: storeIds,
        category_id: "",
        page: 1,
        min_price: 5,
        max_price: 50,
        min_discount: "",
        max_discount: "",
        search_title: "",
      });
      expect(status).toBe(200);
      expect(body.status).toBe("true");
      const expected = await t.deps.db
        .selectFrom("posts")
        .select("unique_id")
        .where("status", "=", "active")
        .where("post_type", "=", "d")
        .where("store_id", "in", [1, 2])
        .where("price", ">=", 5)
        .where("price", "<=", 50)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .execute();
      expect(body.response.deal_data_pagination.total).toBe(expected.length);
      expect(body.response.deal_data.map((d: Json) => d.unique_id)).toEqual(
        expected.slice(0, 15).map((r) => r.unique_id),
      );
      for (const deal of body.response.deal_data) {
        expect([1, 2]).toContain(deal.store_id);
        expect(deal.price).toBeGreaterThanOrEqual(5);
        expect(deal.price).toBeLessThanOrEqual(50);
      }
      // The sliders keep the whole listing's ends, in the response and beside it.
      expect(body.response.price_filter).toEqual(unfiltered.price_filter);
      expect(body.price_filter).toEqual(unfiltered.price_filter);
      expect(body.discount_filter).toEqual(unfiltered.discount_filter);
    }
  });

  it("narrows a store's deals by discount; a single store id may be a number", async () => {
    const { body } = await filter({ filter_type: "store", store_id: 1, min_discount: 30, page: 1 });
    expect(body.response.selected[0]).toMatchObject({ store_id: 1 });
    expect(body.response.deal_data.length).toBeGreaterThan(0);
    for (const deal of body.response.deal_data) {
      expect(deal.store_id).toBe(1);
      expect(deal.discount).toBeGreaterThanOrEqual(30);
    }
  });

  it("narrows a category's deals to checked stores, and pages the result", async () => {
    const { body } = await filter({
      filter_type: "category",
      category_id: 1,
      store_id: "1,2,3,4,5,6,7,8,9,10,11,12",
      page: 1,
    });
    const total = body.response.deal_data_pagination.total;
    const all = await t.deps.db
      .selectFrom("posts")
      .select(sql<number>`count(*)`.as("n"))
      .where("status", "=", "active")
      .where("category_id", "=", 1)
      .executeTakeFirstOrThrow();
    expect(total).toBe(Number(all.n));
    const lastPage = Math.ceil(total / 15);
    expect(body.response.deal_data_pagination.last_page).toBe(lastPage);
    const last = (
      await filter({
        filter_type: "category",
        category_id: 1,
        store_id: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
        page: lastPage,
      })
    ).body;
    expect(last.response.deal_data).toHaveLength(total - (lastPage - 1) * 15);
  });

  it("infers filter_type when it is absent", async () => {
    const byCategory = (await filter({ category_id: 2 })).body.response;
    expect(byCategory.selected[0]).toMatchObject({ category_id: 2 });
    const byStore = (await filter({ store_id: 3 })).body.response;
    expect(byStore.selected[0]).toMatchObject({ store_id: 3 });
    const bySearch = (await filter({ search_title: "crayons" })).body.response;
    expect(bySearch.deal_data.length).toBeGreaterThan(0);
  });

  it("answers an empty page, not an error, when nothing matches", async () => {
    const { status, body } = await filter({ filter_type: "newdeals", min_price: 999999 });
    expect(status).toBe(200);
    expect(body.response.deal_data).toEqual([]);
    expect(body.response.deal_data_pagination.total).toBe(0);
  });

  it("refuses what cannot be a filter with 422 and names the field", async () => {
    const cases: [Json, string][] = [
      [{ filter_type: "newdeals", min_price: 50, max_price: 5 }, "min_price"],
      [{ filter_type: "newdeals", min_discount: 80, max_discount: 20 }, "min_discount"],
      [{ filter_type: "newdeals", max_discount: 101 }, "max_discount"],
      [{ filter_type: "newdeals", min_price: "cheap" }, "min_price"],
      [{ filter_type: "search", search_title: "   " }, "search_title"],
      [{ filter_type: "store" }, "store_id"],
      [{ filter_type: "category" }, "category_id"],
      [{ filter_type: "everything" }, "filter_type"],
      [{ filter_type: "newdeals", store_id: "1,abc" }, "store_id.1"],
    ];
    for (const [payload, field] of cases) {
      const { status, body } = await filter(payload);
      expect(status, JSON.stringify(payload)).toBe(422);
      expect(body.errors).toHaveProperty(field);
    }
  });

  it("answers 'No Data Found' for an unknown store or category", async () => {
    for (const payload of [
      { filter_type: "store", store_id: 99999 },
      { filter_type: "category", category_id: 99999 },
    ]) {
      const { status, body } = await filter(payload);
      expect(status).toBe(404);
      expect(body).toMatchObject({ status: "false", message: "No Data Found" });
    }
  });
});

describe("expired deals in listings", () => {
  it("are marked expired at once, and sink below the live deals once the minute sweep has run", async () => {
    const [row] = await t.deps.db
      .insertInto("posts")
      .values({
        unique_id: "expiredzz1",
        slug: "expired-test-deal",
        post_type: "d",
        kind: "deal",
        title: "Expired test deal",
        store_id: 1,
        category_id: 1,
        price: 9.99,
        expires_at: new Date(Date.now() - 60_000),
        created_at: new Date(Date.now() + 60_000),
        updated_at: new Date(),
      })
      .returning("id")
      .execute();
    t.deps.changes.emit("posts");
    const { body } = await categoryPage({ slug: "amazon", type: "store", page: 1 });
    expect(body.response.deal_data[0]).toMatchObject({ unique_id: "expiredzz1", is_expired: true });
    await t.jobs.send(dealExpiryJob, {});
    await waitForJobs(t.jobs, { kind: dealExpiryJob });
    const swept = await categoryPage({ slug: "amazon", type: "store", page: 1 });
    expect(swept.body.response.deal_data[0].unique_id).not.toBe("expiredzz1");
    expect(await expectedIds({ store_id: 1 }, 0, 1000)).toContain("expiredzz1");
    const trending = (await post("/api/home", {})).body.trending_deals.deals_arr as Json[];
    expect(trending.some((d) => d.unique_id === "expiredzz1")).toBe(false);
    await t.deps.db.deleteFrom("posts").where("id", "=", row!.id).execute();
    t.deps.changes.emit("posts");
  });
});

describe("the listing pages", () => {
  const get = (url: string) => t.app.inject({ method: "GET", url });

  it("/store/{slug} renders the store's deals, breadcrumbs and a Visit Store link", async () => {
    const response = await get("/store/amazon");
    expect(response.statusCode).toBe(200);
    const html = response.body;
    const first = (await categoryPage({ slug: "amazon", type: "store" })).body.response.deal_data;
    for (const deal of first.slice(0, 5)) {
      expect(html).toContain(`href="/post/${deal.unique_id}/${deal.slug}"`);
    }
    expect(html).toContain('aria-label="Breadcrumb"');
    expect(html).toMatch(
      /href="https:\/\/www\.amazon\.com\/"[^>]*rel="nofollow noopener sponsored"|rel="nofollow noopener sponsored"[^>]*href="https:\/\/www\.amazon\.com\/"/,
    );
    expect(html).toContain("<title>Amazon Deals and Coupons |");
    expect(html).toContain('rel="canonical" href="http://localhost:3000/store/amazon"');
    expect(html).toContain('"@type":"BreadcrumbList"');
  });

  it("/store/{unknown} and /category/{unknown} answer 404", async () => {
    expect((await get("/store/no-such-store")).statusCode).toBe(404);
    expect((await get("/category/no-such-category")).statusCode).toBe(404);
  });

  it("/category/{slug} renders the store checklist and sliders' labels", async () => {
    const response = await get("/category/school-supplies");
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Search stores");
    expect(response.body).toContain("<legend");
    expect(response.body).toContain(">Price<");
    expect(response.body).toContain(">Discount<");
  });

  it("/newdeals renders page 1 by default, ?page=N, and 404 past the last page", async () => {
    const page1 = await get("/newdeals");
    expect(page1.statusCode).toBe(200);
    const first = (await categoryPage({ type: "d", page: 1 })).body.response;
    expect(page1.body).toContain(`/post/${first.deal_data[0].unique_id}/`);
    const page3 = await get("/newdeals?page=3");
    const third = (await categoryPage({ type: "d", page: 3 })).body.response.deal_data;
    expect(page3.body).toContain(`/post/${third[0].unique_id}/`);
    expect(page3.body).toContain('aria-current="page"');
    const last = first.deal_data_pagination.last_page;
    expect((await get(`/newdeals?page=${last + 1}`)).statusCode).toBe(404);
  });

  it("renders a filtered URL on the server too (the panel's choices live in the URL)", async () => {
    const response = await get("/newdeals?store_id=4&min_price=1");
    expect(response.statusCode).toBe(200);
    const staples = (await filter({ filter_type: "newdeals", store_id: 4, min_price: 1 })).body
      .response.deal_data as Json[];
    expect(staples.length).toBeGreaterThan(0);
    for (const deal of staples) expect(response.body).toContain(`/post/${deal.unique_id}/`);
    expect(response.body).toContain('rel="canonical" href="http://localhost:3000/newdeals"');
  });
});
