import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TRENDING_LIMIT } from "../../core/constants.ts";
import {
  findHotDeals,
  findSparseTrendingIds,
  findTrendingDeals,
  trendingDays,
  trendingQuery,
} from "../../core/cards/repository.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Heat (record 0008): the temperature on cards and in product_details, the viewer's reactions for
 * the cards on screen (POST /api/my_reactions), and Trending by temperature.
 */

let t: TestApp;
let member: number;
let client: TestClient;
let deals: { id: number; unique_id: string; post_type: "d" | "g" }[];

beforeAll(async () => {
  t = await createTestApp();
  member = await createTestUser(t.deps.db);
  client = new TestClient(t.app);
  await client.signInAs(t.deps.db, member);
  deals = await t.deps.db
    .selectFrom("posts")
    .select(["id", "unique_id", "post_type"])
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .limit(3)
    .execute();
});
afterAll(async () => {
  await t?.close();
});

async function details(postId: number, c: TestClient = client) {
  const { unique_id } = await t.deps.db
    .selectFrom("posts")
    .select("unique_id")
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
  const res = await c.post("/api/product_details", { unique_id, type: "d" });
  expect(res.statusCode).toBe(200);
  return res.json().response.product_details;
}

describe("temperature", () => {
  it("is 10° per like minus 10° per unlike (5° without a reason), the same in product_details, the vote's answer and the cards", async () => {
    const deal = deals[0]!;
    // Record 0086: an unlike without a reason cools by half as much; the demo's unlikes give none.
    const unreasoned = async () =>
      (
        await t.deps.db
          .selectFrom("posts")
          .select("unreasoned_unlikes")
          .where("id", "=", deal.id)
          .executeTakeFirstOrThrow()
      ).unreasoned_unlikes;
    const before = await details(deal.id);
    expect(before.temperature).toBe(
      10 * (before.likes - before.unlikes) + 5 * (await unreasoned()),
    );

    const voted = await client.post("/api/product_like_unlike", {
      post_id: deal.id,
      post_type: "d",
      btn_type: "unlike",
    });
    expect(voted.statusCode).toBe(200);
    const answer = voted.json();
    const after = await details(deal.id);
    expect(answer.temperature).toBe(after.temperature);
    expect(after.temperature).toBe(10 * (after.likes - after.unlikes) + 5 * (await unreasoned()));
    expect(after.unlikes).toBe(before.unlikes + 1);
    expect(after.temperature).toBe(before.temperature - 5);
    expect(answer.heat).toBe(after.heat);

    const page = await client.post("/api/category_page", { type: "d", slug: "", page: 1 });
    const cards = page.json().response.deal_data as {
      id: number;
      temperature: number;
      heat: string;
    }[];
    for (const card of cards) {
      const detail = await details(card.id, new TestClient(t.app));
      expect(card.temperature).toBe(detail.temperature);
      expect(card.heat).toBe(detail.heat);
    }
  });

  it("is cold below zero, and the like counts shown stay plain counts, never negative", async () => {
    const [post] = await t.deps.db
      .insertInto("posts")
      .values({
        unique_id: "heatcold01",
        slug: "cold-deal",
        post_type: "d",
        kind: "deal",
        user_id: member,
        title: "A deal nobody wanted",
        description: "<p>Not good.</p>",
        description_text: "Not good.",
        link: "https://www.example.com/p/cold-deal",
        price: 30,
        list_price: 31,
        unlikes_count: 3,
        likes_count: 1,
      })
      .returning("id")
      .execute();
    const cold = await details(post!.id);
    expect(cold.temperature).toBe(-20);
    expect(cold.heat).toBe("cold");
    expect(cold.likes).toBe(1);
    expect(cold.unlikes).toBe(3);
  });
});

describe("POST /api/my_reactions", () => {
  it("answers the member's own reactions, and nothing for posts they did not react to", async () => {
    const [a, b, c] = deals;
    await client.post("/api/product_like_unlike", { post_id: b!.id, btn_type: "like" });
    const res = await client.post("/api/my_reactions", { post_ids: [a!.id, b!.id, c!.id, 999999] });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.status).toBe("true");
    const mine = new Map(
      body.reactions.map((r: { post_id: number; is_liked: number }) => [r.post_id, r.is_liked]),
    );
    // deals[0] was unliked in the test above; deals[1] liked here; deals[2] untouched.
    expect(mine.get(a!.id)).toBe(2);
    expect(mine.get(b!.id)).toBe(1);
    expect(mine.has(c!.id)).toBe(false);
    expect(mine.has(999999)).toBe(false);
  });

  it("does not show one member's reactions to another", async () => {
    const other = new TestClient(t.app);
    await other.signInAs(t.deps.db, await createTestUser(t.deps.db));
    const res = await other.post("/api/my_reactions", { post_ids: deals.map((d) => d.id) });
    expect(res.statusCode).toBe(200);
    expect(res.json().reactions).toEqual([]);
  });

  it("asks a visitor to sign in, and refuses bad lists with 422", async () => {
    const visitor = new TestClient(t.app);
    expect((await visitor.post("/api/my_reactions", { post_ids: [deals[0]!.id] })).statusCode).toBe(
      401,
    );
    for (const post_ids of [[], "1,2", ["x"], Array.from({ length: 101 }, (_, i) => i + 1)]) {
      const res = await client.post("/api/my_reactions", { post_ids });
      expect(res.statusCode).toBe(422);
      const errors = res.json().errors as Record<string, string>;
      expect(
        Object.keys(errors).some((field) => field.startsWith("post_ids")),
        JSON.stringify(errors),
      ).toBe(true);
    }
  });
});

describe("Trending by temperature", () => {
  it("lists the window's hottest deals first, not the newest", async () => {
    const days = trendingDays(new Date());
    expect(days).toHaveLength(7);
    // Three days old, but the hottest deal of the window.
    const [hot] = await t.deps.db
      .insertInto("posts")
      .values({
        unique_id: "heathot001",
        slug: "hot-deal",
        post_type: "d",
        kind: "deal",
        user_id: member,
        title: "Glue sticks, 60 pack – $9.99",
        description: "<p>Cheap.</p>",
        description_text: "Cheap.",
        link: "https://www.example.com/p/glue-60",
        price: 9.99,
        list_price: 19.99,
        likes_count: 40,
        created_at: sql<Date>`now() - interval '3 days'`,
      })
      .returning("id")
      .execute();
    // Bumping a counter runs the score trigger, as a real vote does.
    await t.deps.db.updateTable("posts").set({ views: 1 }).where("id", "=", hot!.id).execute();

    const home = (await client.post("/api/home", {})).json();
    const trending = home.trending_deals.deals_arr as { id: number; temperature: number }[];
    const recent = home.recent_deals.recent_arr as { id: number }[];
    expect(trending).toHaveLength(TRENDING_LIMIT);
    expect(trending[0]!.id).toBe(hot!.id);
    expect(trending[0]!.temperature).toBe(400);
    // By temperature: never warmer further down.
    const temps = trending.map((d) => d.temperature);
    expect(temps.slice(0, temps.findIndex((x) => x <= 0) + 1 || undefined)).toEqual(
      [...temps.slice(0, temps.findIndex((x) => x <= 0) + 1 || undefined)].sort((x, y) => y - x),
    );
    expect(trending.map((d) => d.id)).not.toEqual(recent.slice(0, TRENDING_LIMIT).map((d) => d.id));
    expect(recent.map((d) => d.id).slice(0, 3)).not.toContain(hot!.id);

    // The filtered home lists order the same way.
    const store = await t.deps.db
      .selectFrom("posts")
      .select("store_id")
      .where("id", "=", deals[0]!.id)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .updateTable("posts")
      .set({ store_id: store.store_id })
      .where("id", "=", hot!.id)
      .execute();
    const filtered = (
      await client.post("/api/category_store_filter_home", { store_id: store.store_id, page: 1 })
    ).json();
    expect(filtered.trending_deals_arr[0].id).toBe(hot!.id);
  });

  it("ranks few matches whole the same way as the index walks and their fill", async () => {
    // Old deals (out of the window) fill the list after the window's: a store's whole list.
    const now = new Date();
    const ids = (await t.deps.db.selectFrom("posts").select("id").limit(4).execute()).map(
      (r) => r.id,
    );
    await t.deps.db
      .updateTable("posts")
      .set({ created_at: sql<Date>`now() - interval '30 days'` })
      .where("id", "in", ids)
      .execute();
    for (const filter of [{}, { categoryId: 1 }, { storeIds: [1] }]) {
      const walked = await findTrendingDeals(t.deps.db, now, 200, filter);
      const taken = new Set(walked.map((row) => row.id));
      const fill = (await findHotDeals(t.deps.db, now, 400, filter)).filter(
        (row) => !taken.has(row.id),
      );
      const expected = [...walked, ...fill].slice(0, 200).map((row) => row.id);
      expect(await findSparseTrendingIds(t.deps.db, filter, now, 200)).toEqual(expected);
    }
  });

  it("walks the heat index for each day, for every deal and for a category", async () => {
    for (const filter of [{}, { categoryId: 1 }]) {
      const query = trendingQuery(t.deps.db, new Date(), TRENDING_LIMIT, filter).compile();
      const text = await t.deps.db.transaction().execute(async (trx) => {
        // A small test table is cheaper to read whole; the plan for a large one is what counts.
        await sql`SET LOCAL enable_seqscan = off`.execute(trx);
        await sql`SET LOCAL enable_bitmapscan = off`.execute(trx);
        const plan = await trx.executeQuery<{ "QUERY PLAN": string }>(
          CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
        );
        return plan.rows.map((r) => r["QUERY PLAN"]).join("\n");
      });
      expect(text).toContain("posts_heat_idx");
    }
  });
});
