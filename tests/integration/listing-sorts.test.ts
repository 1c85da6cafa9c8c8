import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANCHOR_STRIDE, createDealPager } from "../../core/deals/paging.ts";
import { DEAL_SORTS, type DealSort } from "../../core/deals/deal-sort.ts";
import * as repo from "../../core/deals/repository.ts";
import type { DealScope } from "../../core/deals/repository.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
  // 1,300 more deals: enough for anchors of ANCHOR_STRIDE keys in every sort. Prices, discounts
  // and scores repeat (ties break by id) and some deals have no price or no discount.
  await sql`
    INSERT INTO posts (unique_id, slug, post_type, kind, title, link, store_id, category_id,
                       price, discount, user_id, created_at)
    SELECT 'sorted' || g, 'sorted-deal-' || g, 'd', 'deal', 'Sorted classroom deal ' || g,
           'https://example.com/sorted/' || g, 1 + g % 12, 1 + g % 8,
           CASE WHEN g % 17 = 0 THEN NULL ELSE 5 + (g * 7) % 60 + (g % 4) * 0.25 END,
           CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 11) % 90 END, 1,
           now() - interval '300 days' - ((g / 3) || ' minutes')::interval
    FROM generate_series(1, 1300) AS g`.execute(t.deps.db);
  // Engagement moves the stored hot score (the posts trigger of migration 011).
  await sql`UPDATE posts SET views = (id * 37) % 400, likes_count = (id * 3) % 9
            WHERE unique_id LIKE 'sorted%'`.execute(t.deps.db);
  t.deps.changes.emit("posts");
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

const ORDER_SQL: Record<DealSort, string> = {
  hot: "hot_score DESC, id DESC",
  new: "created_at DESC, id DESC",
  discount: "discount DESC NULLS LAST, id DESC",
  price: "price ASC NULLS LAST, id DESC",
};

/** What the database says a sorted list holds, by plain ORDER BY … OFFSET. */
async function expectedIds(
  where: { store_id?: number; category_id?: number; min_price?: number },
  sort: DealSort,
  offset: number,
  limit: number,
): Promise<string[]> {
  const conditions = [sql`status = 'active'`, sql`post_type = 'd'`];
  if (where.store_id) conditions.push(sql`store_id = ${where.store_id}`);
  if (where.category_id) conditions.push(sql`category_id = ${where.category_id}`);
  if (where.min_price !== undefined) conditions.push(sql`price >= ${where.min_price}`);
  const result = await sql<{ unique_id: string }>`
    SELECT unique_id FROM posts WHERE ${sql.join(conditions, sql` AND `)}
    ORDER BY ${sql.raw(ORDER_SQL[sort])} OFFSET ${offset} LIMIT ${limit}`.execute(t.deps.db);
  return result.rows.map((row) => row.unique_id);
}

const ids = (body: Json) => (body.response.deal_data as Json[]).map((d) => d.unique_id);

describe("the sort of the listing calls", () => {
  it.each(DEAL_SORTS)(
    "lists every deal by %s, deep pages across anchors included",
    async (sort) => {
      const total = (await expectedIds({}, sort, 0, 100_000)).length;
      const lastPage = Math.ceil(total / 15);
      const anchorPage = Math.floor(ANCHOR_STRIDE / 15) + 1;
      for (const page of [1, 2, anchorPage, anchorPage + 1, 2 * anchorPage + 3, lastPage]) {
        const { status, body } = await post("/api/category_page", { type: "d", page, sort });
        expect(status).toBe(200);
        expect(ids(body)).toEqual(await expectedIds({}, sort, (page - 1) * 15, 15));
      }
    },
  );

  it.each(DEAL_SORTS)("sorts a store's and a category's deals by %s", async (sort) => {
    const store = await t.deps.db
      .selectFrom("stores")
      .select(["id", "slug"])
      .where("id", "=", 3)
      .executeTakeFirstOrThrow();
    const category = await t.deps.db
      .selectFrom("categories")
      .select(["id", "slug"])
      .where("id", "=", 2)
      .executeTakeFirstOrThrow();
    for (const page of [1, 3, 8]) {
      const s = await post("/api/category_page", { type: "store", slug: store.slug, page, sort });
      expect(ids(s.body)).toEqual(
        await expectedIds({ store_id: store.id }, sort, (page - 1) * 15, 15),
      );
      const c = await post("/api/category_page", {
        type: "category",
        slug: category.slug,
        page,
        sort,
      });
      expect(ids(c.body)).toEqual(
        await expectedIds({ category_id: category.id }, sort, (page - 1) * 15, 15),
      );
    }
  });

  it("shows the order a shopper expects: hottest, newest, top discount, cheapest first", async () => {
    const first = async (sort: DealSort) =>
      (await post("/api/category_page", { type: "d", page: 1, sort })).body.response
        .deal_data as Json[];
    const discounts = (await first("discount")).map((d) => Number(d.discount));
    expect(discounts).toEqual([...discounts].sort((a, b) => b - a));
    const prices = (await first("price")).map((d) => Number(d.price));
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const dates = (await first("new")).map((d) => Date.parse(d.created_at));
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    const hottest = await t.deps.db
      .selectFrom("posts")
      .select("unique_id")
      .where("status", "=", "active")
      .where("post_type", "=", "d")
      .orderBy("hot_score", "desc")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect((await first("hot"))[0]!.unique_id).toBe(hottest.unique_id);
  });

  it("keeps the old order when no sort is sent: newest first", async () => {
    const plain = await post("/api/category_page", { type: "d", page: 2 });
    expect(ids(plain.body)).toEqual(await expectedIds({}, "new", 15, 15));
    const filtered = await post("/api/filter", { filter_type: "newdeals", min_price: 20 });
    expect(ids(filtered.body)).toEqual(await expectedIds({ min_price: 20 }, "new", 0, 15));
  });

  it.each(DEAL_SORTS)("sorts a filtered list (the Filter panel's call) by %s", async (sort) => {
    for (const page of [1, 4]) {
      const { status, body } = await post("/api/filter", {
        filter_type: "newdeals",
        min_price: 20,
        page,
        sort,
      });
      expect(status).toBe(200);
      expect(ids(body)).toEqual(await expectedIds({ min_price: 20 }, sort, (page - 1) * 15, 15));
    }
  });

  it("sorts search results by relevance by default, or by any sort asked for", async () => {
    const byRelevance = await post("/api/filter", { search_title: "sorted classroom" });
    expect(byRelevance.status).toBe(200);
    expect(byRelevance.body.response.deal_data_pagination.total).toBeGreaterThanOrEqual(1300);
    const byPrice = await post("/api/filter", {
      search_title: "sorted classroom",
      sort: "price",
      page: 2,
    });
    expect(byPrice.status).toBe(200);
    const prices = (byPrice.body.response.deal_data as Json[]).map((d) => Number(d.price));
    expect(prices).toHaveLength(15);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const explicit = await post("/api/filter", {
      search_title: "sorted classroom",
      sort: "relevance",
    });
    expect(ids(explicit.body)).toEqual(ids(byRelevance.body));
  });

  it.each([
    ["/api/category_page", { type: "d", sort: "cheapest" }, "sort must be one of"],
    ["/api/filter", { filter_type: "newdeals", sort: "random" }, "sort must be one of"],
    ["/api/filter", { filter_type: "newdeals", sort: 3 }, "sort must be one of"],
    ["/api/category_page", { type: "d", sort: "relevance" }, "search results only"],
    ["/api/filter", { filter_type: "newdeals", sort: "relevance" }, "search results only"],
    ["/api/category_page", { type: "g", slug: "educators", sort: "price" }, "newest first only"],
  ])("refuses a sort %s cannot take with a clear message", async (url, payload, message) => {
    const { status, body } = await post(url, payload);
    expect(status).toBe(422);
    expect(body.status).toBe(false);
    expect(body.errors.sort).toContain(message);
  });

  it("documents sort in /api/docs beside the spec's fields", async () => {
    const docs = (await t.app.inject({ method: "GET", url: "/api/docs" })).json();
    for (const path of ["/api/filter", "/api/category_page"]) {
      const text = JSON.stringify(docs.paths[path].post);
      expect(text).toContain('"sort"');
      expect(text).toContain('"price"');
      expect(text).toContain('"relevance"');
    }
  });
});

describe("every sort is served by an index", () => {
  const scopes: DealScope[] = [
    { kind: "type", postType: "d" },
    { kind: "store", storeId: 3 },
    { kind: "category", categoryId: 2 },
  ];

  it.each(DEAL_SORTS)("walks an index, never sorts, for %s", async (sort) => {
    for (const scope of scopes) {
      const plan = await t.deps.db.transaction().execute(async (tx) => {
        await sql`SET LOCAL enable_sort = off`.execute(tx);
        await sql`SET LOCAL enable_seqscan = off`.execute(tx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(tx);
        const from = await repo.findScopeKey(tx, scope, null, 40, sort);
        const compiled = repo.findScopeCardsQuery(tx, scope, from ?? null, 15, sort).compile();
        const inlined = compiled.sql.replace(/\$(\d+)/g, (_, n: string) =>
          literal(compiled.parameters[Number(n) - 1]),
        );
        const rows = await sql.raw<{ "QUERY PLAN": string }>(`EXPLAIN ${inlined}`).execute(tx);
        return rows.rows.map((row) => row["QUERY PLAN"]).join("\n");
      });
      expect(plan, `${sort} of ${JSON.stringify(scope)}`).not.toMatch(/\bSort\b/);
      expect(plan).toMatch(/Index (Only )?Scan/);
    }
  });

  it("pages by the pager the same way the calls do", async () => {
    const pager = createDealPager(t.deps.db);
    const rows = await pager.scopeCards({ kind: "type", postType: "d" }, 30, 15, "price");
    expect(rows.map((r) => r.unique_id)).toEqual(await expectedIds({}, "price", 29 * 15, 15));
  });
});

/** A query parameter written as a SQL literal, for EXPLAIN of a compiled query. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return `'${value.toISOString()}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}
