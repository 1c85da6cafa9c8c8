import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
});
afterAll(async () => {
  await t?.close();
});

interface Card {
  unique_id: string;
  title: string;
  store_title: string;
}

async function search(text: string, page = 1) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/filter",
    payload: { filter_type: "search", search_title: text, page },
  });
  expect(response.statusCode).toBe(200);
  const body = response.json();
  return {
    deals: body.response.deal_data as Card[],
    total: body.response.deal_data_pagination.total as number,
    body,
  };
}

async function insertDeal(values: {
  unique_id: string;
  title: string;
  daysAgo: number;
  description?: string;
  expiredDaysAgo?: number;
}) {
  const created = new Date(Date.now() - values.daysAgo * 86_400_000);
  await t.deps.db
    .insertInto("posts")
    .values({
      unique_id: values.unique_id,
      slug: values.unique_id,
      post_type: "d",
      kind: "deal",
      title: values.title,
      description_text: values.description ?? "",
      store_id: 1,
      category_id: 1,
      price: 10,
      expires_at:
        values.expiredDaysAgo === undefined
          ? null
          : new Date(Date.now() - values.expiredDaysAgo * 86_400_000),
      created_at: created,
      updated_at: created,
    })
    .execute();
  t.deps.changes.emit("posts");
}

describe("search ranking", () => {
  it("puts an exact title match first", async () => {
    const target = await t.deps.db
      .selectFrom("posts")
      .select(["unique_id", "title"])
      .where("title", "like", "Ticonderoga #2 Pencils%")
      .executeTakeFirstOrThrow();
    const { deals } = await search(target.title);
    expect(deals[0]!.unique_id).toBe(target.unique_id);
    // Also ahead of every other pencil deal when the words alone are asked for.
    const { deals: byWords } = await search("Ticonderoga #2 Pencils");
    expect(byWords[0]!.title).toMatch(/^Ticonderoga/);
  });

  it("still finds a deal when a word is misspelt", async () => {
    for (const [typo, expected] of [
      ["ticonderga pencils", /Ticonderoga/],
      ["crayns", /Crayons/],
      ["scisors", /Scissors/],
      ["chromebok", /Chromebook/],
    ] as const) {
      const { deals, total } = await search(typo);
      expect(total, typo).toBeGreaterThan(0);
      expect(deals[0]!.title, typo).toMatch(expected);
    }
    // A misspelt store name finds the store's deals.
    const { deals } = await search("amazn");
    expect(deals.length).toBeGreaterThan(0);
    expect(deals.every((d) => d.store_title === "Amazon" || /amazon/i.test(d.title))).toBe(true);
  });

  it("matches plurals and singulars alike (english stemming)", async () => {
    const singular = await search("pencil");
    const plural = await search("pencils");
    expect(singular.total).toBeGreaterThan(0);
    expect(singular.total).toBe(plural.total);
    expect(singular.deals.some((d) => /Pencils/.test(d.title))).toBe(true);
    const crayon = await search("crayon");
    expect(crayon.deals.some((d) => /Crayons/.test(d.title))).toBe(true);
  });

  it("searches store names, category names and descriptions too", async () => {
    const byStore = await search("Staples");
    expect(byStore.total).toBeGreaterThan(0);
    expect(
      byStore.deals.every((d) => d.store_title === "Staples" || /staples/i.test(d.title)),
    ).toBe(true);

    const byCategory = await search("classroom decor");
    expect(byCategory.total).toBeGreaterThan(0);

    await insertDeal({
      unique_id: "descmatch1",
      title: "Mystery box for teachers",
      description: "Contains a xylophonist-grade tuning fork",
      daysAgo: 2,
    });
    const byDescription = await search("xylophonist");
    expect(byDescription.deals.map((d) => d.unique_id)).toEqual(["descmatch1"]);
  });

  it("ranks an equally relevant newer deal above an older one, and live ones above an expired one", async () => {
    await insertDeal({
      unique_id: "fresh00001",
      title: "Quokka plush classroom mascot",
      daysAgo: 1,
    });
    await insertDeal({
      unique_id: "stale00001",
      title: "Quokka plush classroom mascot",
      daysAgo: 120,
    });
    await insertDeal({
      unique_id: "expired001",
      title: "Quokka plush classroom mascot",
      daysAgo: 0.5,
      expiredDaysAgo: 0.1,
    });
    const { deals } = await search("quokka plush");
    expect(deals.map((d) => d.unique_id)).toEqual(["fresh00001", "stale00001", "expired001"]);
  });

  it("pages results by 15 with a consistent total", async () => {
    const first = await search("deal");
    if (first.total <= 15) return;
    const second = await search("deal", 2);
    expect(second.total).toBe(first.total);
    const ids = new Set([...first.deals, ...second.deals].map((d) => d.unique_id));
    expect(ids.size).toBe(first.deals.length + second.deals.length);
  });

  it("answers an empty list for text that matches nothing", async () => {
    const { deals, total } = await search("qqqzzzxxxyyy");
    expect(deals).toEqual([]);
    expect(total).toBe(0);
  });

  it("narrows search results with the panel: stores and price", async () => {
    const all = await search("crayons");
    const staplesOnly = await t.app.inject({
      method: "POST",
      url: "/api/filter",
      payload: { filter_type: "search", search_title: "crayons", store_id: "4", max_price: 100 },
    });
    const body = staplesOnly.json();
    expect(body.response.deal_data_pagination.total).toBeLessThanOrEqual(all.total);
    for (const deal of body.response.deal_data) expect(deal.store_id).toBe(4);
    // The checklist lists only stores that have matches.
    const checklist = all.body.response.store_filter as { id: number; deal_count: number }[];
    expect(checklist.reduce((sum, s) => sum + s.deal_count, 0)).toBe(all.total);
  });
});

describe("the /search page", () => {
  it("server-renders results for ?query= with the query kept in the page", async () => {
    const { deals } = await search("crayons");
    const response = await t.app.inject({ method: "GET", url: "/search?query=crayons" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(`/post/${deals[0]!.unique_id}/`);
    expect(response.body).toContain('value="crayons"');
    expect(response.body).toContain("Search results for “crayons”");
    expect(response.body).toContain('<meta name="robots" content="noindex"/>');
    expect(response.body).toContain(
      'rel="canonical" href="http://localhost:3000/search?query=crayons"',
    );
  });

  it("shows a friendly prompt, not an error, for an empty query", async () => {
    for (const url of ["/search", "/search?query=", "/search?query=%20%20"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("Type a product, store or category");
    }
  });

  it("shows 'No Data Found' when nothing matches", async () => {
    const response = await t.app.inject({ method: "GET", url: "/search?query=qqqzzzxxxyyy" });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("No Data Found");
  });
});
