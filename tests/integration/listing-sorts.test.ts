import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANCHOR_STRIDE, createDealPager } from "../../core/cards/paging.ts";
import { DEAL_SORTS, type DealSort } from "../../core/cards/deal-sort.ts";
import * as repo from "../../core/cards/repository.ts";
import { findCardsByIds, findCardsByIdsQuery } from "../../core/cards/deal-card-query.ts";
import type { DealScope } from "../../core/cards/repository.ts";
import { dealExpiryJob } from "../../core/posts/expiry/sweep.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobs } from "../helpers/jobs.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true, jobs: true });
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

/**
 * What the database says a sorted list holds, by plain ORDER BY … OFFSET: live deals first in
 * every sort (record 0037); the calls list expired deals unless asked to hide them.
 */
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
    ORDER BY expired, ${sql.raw(ORDER_SQL[sort])} OFFSET ${offset} LIMIT ${limit}`.execute(
    t.deps.db,
  );
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
      .where("expired", "=", false)
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

describe("the prepared lists' plans, made once for any value (db/prepared.ts, record 0060)", () => {
  const scopes: DealScope[] = [
    { kind: "type", postType: "d" },
    { kind: "store", storeId: 3 },
    { kind: "category", categoryId: 2 },
  ];

  /** The plan PostgreSQL makes for the statement with its parameters unknown, as PGlite keeps it. */
  async function genericPlan(query: {
    compile(): { sql: string; parameters: readonly unknown[] };
  }) {
    const compiled = query.compile();
    return t.deps.db.transaction().execute(async (tx) => {
      await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(tx);
      await sql`SET LOCAL enable_sort = off`.execute(tx);
      await sql`SET LOCAL enable_seqscan = off`.execute(tx);
      await sql`SET LOCAL enable_bitmapscan = off`.execute(tx);
      await sql.raw(`PREPARE generic_plan_check AS ${compiled.sql}`).execute(tx);
      const values = compiled.parameters.map(literal).join(", ");
      const rows = await sql
        .raw<{ "QUERY PLAN": string }>(`EXPLAIN EXECUTE generic_plan_check(${values})`)
        .execute(tx);
      await sql`DEALLOCATE generic_plan_check`.execute(tx);
      return rows.rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
  }

  it.each(DEAL_SORTS)(
    "walk an index, never sort, for %s: cards and keys, from the start and from a key",
    async (sort) => {
      for (const scope of scopes) {
        const from = await repo.findScopeKey(t.deps.db, scope, null, 40, sort);
        for (const query of [
          repo.findScopeCardsQuery(t.deps.db, scope, null, 15, sort),
          repo.findScopeCardsQuery(t.deps.db, scope, from ?? null, 15, sort),
          repo.findScopeKeyQuery(t.deps.db, scope, null, 40, sort),
          repo.findScopeKeyQuery(t.deps.db, scope, from ?? null, 40, sort),
        ]) {
          const plan = await genericPlan(query);
          const where = `${sort} of ${JSON.stringify(scope)}`;
          // A parameter in place of 'active' would leave only the full indexes, and a sort.
          expect(plan, where).not.toMatch(/\bSort\b/);
          expect(plan, where).toMatch(/Index (Only )?Scan using posts_\w+ on posts/);
          expect(plan, where).toMatch(/\$\d/); // a generic plan: the values are parameters
        }
      }
    },
  );

  it("read cards by id (a search page's) with one statement for any number of ids", async () => {
    const ids = (
      await t.deps.db
        .selectFrom("posts")
        .select("id")
        .where("status", "=", "active")
        .orderBy("id", "desc")
        .limit(20)
        .execute()
    ).map((row) => Number(row.id));
    const one = findCardsByIdsQuery(t.deps.db, ids.slice(0, 1)).compile().sql;
    expect(findCardsByIdsQuery(t.deps.db, ids).compile().sql).toBe(one);
    expect(one).toMatch(/^select \/\* prepared \*\//);
    // In the order asked for, each once.
    const shuffled = [ids[3]!, ids[0]!, ids[7]!];
    expect((await findCardsByIds(t.deps.db, shuffled)).map((row) => Number(row.id))).toEqual(
      shuffled,
    );
  });
});

/** A query parameter written as a SQL literal, for EXPLAIN of a compiled query. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (value instanceof Date) return `'${value.toISOString()}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

async function get(url: string) {
  return t.app.inject({ method: "GET", url });
}

describe("the listing pages' sort", () => {
  it("renders the sort from ?sort= on the server, with the sort bar marking it", async () => {
    const response = await get("/newdeals?sort=price");
    expect(response.statusCode).toBe(200);
    const [cheapest] = await expectedIds({}, "price", 0, 1);
    expect(response.body).toContain(`/post/${cheapest}/`);
    expect(response.body).toMatch(/aria-current="true"[^>]*>.*Price low to high/s);
    // New deals start newest first; a store's and a category's deals hottest first.
    const [newest] = await expectedIds({}, "new", 0, 1);
    expect((await get("/newdeals")).body).toContain(`/post/${newest}/`);
    const store = await t.deps.db
      .selectFrom("stores")
      .select(["id", "slug"])
      .where("id", "=", 3)
      .executeTakeFirstOrThrow();
    const [hottest] = await expectedIds({ store_id: store.id }, "hot", 0, 1);
    expect((await get(`/store/${store.slug}`)).body).toContain(`/post/${hottest}/`);
  });

  it("reads a sort the page does not offer as its default", async () => {
    const [newest] = await expectedIds({}, "new", 0, 1);
    for (const sort of ["bogus", "relevance", ""]) {
      const response = await get(`/newdeals?sort=${sort}`);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain(`/post/${newest}/`);
    }
  });

  it("keeps the sort with the filters and the page in the pager's links", async () => {
    const response = await get("/newdeals?sort=discount&min_price=20&page=2");
    expect(response.statusCode).toBe(200);
    const [first] = await expectedIds({ min_price: 20 }, "discount", 15, 1);
    expect(response.body).toContain(`/post/${first}/`);
    expect(response.body).toContain("?sort=discount&amp;min_price=20&amp;page=3");
  });
});

describe("a page past the last one", () => {
  it.each([
    "/newdeals?page=99999",
    "/newdeals?page=99999&sort=price",
    "/store/amazon?page=99999",
    "/category/school-supplies?page=5000&sort=hot",
    "/search?query=crayons&page=9999",
    "/newdeals?min_price=1&page=99999",
    "/store?page=999",
    "/category?page=999",
    "/store?q=zzzz-no-store&page=2",
  ])("%s answers 404 in the site's layout", async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(404);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain('href="/store"');
  });
});

describe("the store and category lists", () => {
  async function liveCounts(kind: "store" | "category") {
    const column = kind === "store" ? "store_id" : "category_id";
    const result = await sql<{ id: number; live: number }>`
      SELECT ${sql.raw(column)} AS id, count(*)::int AS live FROM posts
      WHERE status = 'active' AND post_type = 'd' AND NOT expired
      GROUP BY 1`.execute(t.deps.db);
    return new Map(result.rows.map((row) => [Number(row.id), Number(row.live)]));
  }

  it.each(["store", "category"] as const)(
    "counts each %s tile's live deals (expired ones left out)",
    async (kind) => {
      const page = await t.services.listings.directory(kind, 1);
      expect(page.items).toHaveLength(Math.min(20, page.total));
      const expected = await liveCounts(kind);
      for (const item of page.items) expect(item.live_deals).toBe(expected.get(item.id) ?? 0);
      const busiest = page.items.find((item) => item.live_deals > 1)!;
      // A deal of it ends: the count drops with the minute sweep that marks it expired.
      const column = kind === "store" ? "store_id" : "category_id";
      await sql`UPDATE posts SET expires_at = now() - interval '1 day'
                WHERE id = (SELECT id FROM posts WHERE ${sql.raw(column)} = ${busiest.id}
                              AND status = 'active' AND post_type = 'd'
                              AND NOT expired LIMIT 1)`.execute(t.deps.db);
      await t.jobs.send(dealExpiryJob, {});
      await waitForJobs(t.jobs, { kind: dealExpiryJob });
      const after = await t.services.listings.directory(kind, 1);
      expect(after.items.find((item) => item.id === busiest.id)!.live_deals).toBe(
        busiest.live_deals - 1,
      );
      const html = (await get(kind === "store" ? "/store" : "/category")).body;
      expect(html).toContain(`${busiest.live_deals - 1} live deal`);
    },
  );

  it("searches every name, not just the page shown, also as a plain GET form", async () => {
    // A second page of stores, the way a growing site has them.
    await sql`INSERT INTO stores (title, slug, link)
              SELECT name, 'more-' || g || '-' || lower(replace(name, ' ', '-')),
                     'https://example.com/' || g
              FROM unnest(ARRAY['Walgreens Photo', 'Wayfair', 'Woot', 'Zulily', 'Yoobi',
                                'Xerox Store', 'Vistaprint', 'Usborne Books', 'Really Good Stuff',
                                'Quill', 'Oriental Trading', 'Nasco', 'Kohl''s', 'Hobby Lobby'])
                   WITH ORDINALITY AS s(name, g)`.execute(t.deps.db);
    t.deps.changes.emit("catalog");
    const all = await t.deps.db
      .selectFrom("stores")
      .select(["title", "slug"])
      .orderBy(sql`lower(title)`)
      .orderBy("id")
      .execute();
    expect(all.length).toBeGreaterThan(20);
    const far = all[all.length - 1]!;
    const needle = far.title.slice(1, 5).toUpperCase();
    const found = await t.services.listings.directory("store", 1, needle);
    expect(found.items.map((item) => item.slug)).toContain(far.slug);
    for (const item of found.items) {
      expect(item.title.toLowerCase()).toContain(needle.toLowerCase());
    }
    const response = await get(`/store?q=${encodeURIComponent(needle)}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`href="/store/${far.slug}"`);
    expect(response.body).toMatch(/<form[^>]*directory-search[^>]*action="\/store" method="get"/);
    expect(response.body).toContain('name="q"');
    expect(response.body).toContain("noindex");
    // Nothing found is 'No Data Found' with a way back, not an error.
    const none = await get("/category?q=zzzz-no-such-thing");
    expect(none.statusCode).toBe(200);
    expect(none.body).toContain("No Data Found");
  });

  it("jumps by letter to the page and tile of the first store it starts", async () => {
    const page = await t.services.listings.directory("store", 1);
    const letters = new Map(page.letters.map((jump) => [jump.letter, jump.page]));
    expect([...letters.keys()].slice(0, 26).join("")).toBe("ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    const all = await t.deps.db
      .selectFrom("stores")
      .select(["id", "title"])
      .orderBy(sql`lower(title)`)
      .orderBy("id")
      .execute();
    const initials = all.map((store) => store.title.trim().charAt(0).toUpperCase());
    for (const [letter, target] of letters) {
      if (letter === "#") continue;
      const index = initials.indexOf(letter);
      if (index === -1) {
        expect(target, letter).toBeNull();
        continue;
      }
      expect(target, letter).toBe(Math.floor(index / 20) + 1);
      const shown = await t.services.listings.directory("store", target!);
      expect(shown.anchors[all[index]!.id]).toBe(letter);
    }
    expect([...letters.values()].some((target) => target === null)).toBe(true);
    const html = (await get("/store")).body;
    expect(html).toContain('aria-label="Stores by first letter"');
    expect(html).toMatch(/id="letter-A"/);
  });
});
