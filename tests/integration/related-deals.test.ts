import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  RELATED_CANDIDATES,
  RELATED_DEALS_LIMIT,
  findRelatedDeals,
} from "../../core/cards/related-deals.ts";
import type { NewPost } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";

/**
 * Related deals under a deal: live, public deals of the same store or category, never the deal
 * itself, at most 6, newest hot first; in POST /api/product_details as `related_deals`.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const MINUTE = 60_000;

/** A store and a category of their own, so that the demo content does not mix in. */
async function freshShelf() {
  const tag = randomBytes(4).toString("hex");
  const db = t.deps.db;
  const store = await db
    .insertInto("stores")
    .values({
      title: `Shelf Store ${tag}`,
      slug: `shelf-store-${tag}`,
      link: "https://shelf.example",
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const category = await db
    .insertInto("categories")
    .values({ title: `Shelf Category ${tag}`, slug: `shelf-category-${tag}` })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { storeId: store.id, categoryId: category.id };
}

/**
 * A live deal with a link and a price, `minutesAgo` old, with `likes` thumbs up and the hot score
 * those give it (set by the posts' trigger when the counters change, as a vote does).
 */
async function deal(values: Partial<NewPost> & { minutesAgo?: number; likes?: number } = {}) {
  const { minutesAgo = 60, likes = 0, ...rest } = values;
  const at = new Date(Date.now() - minutesAgo * MINUTE);
  const post = await insertPost(t.deps.db, {
    link: `https://shelf.example/p/${randomBytes(4).toString("hex")}`,
    price: 9.99,
    created_at: at,
    updated_at: at,
    ...rest,
  });
  await t.deps.db
    .updateTable("posts")
    .set({ likes_count: likes })
    .where("id", "=", post.id)
    .execute();
  return post;
}

async function relatedIds(post: { id: number }) {
  const row = await t.deps.db
    .selectFrom("posts")
    .select(["id", "store_id", "category_id"])
    .where("id", "=", post.id)
    .executeTakeFirstOrThrow();
  const cards = await findRelatedDeals(t.deps.db, row, new Date());
  return cards.map((card) => card.id);
}

describe("findRelatedDeals", () => {
  it("takes deals of the same store or category, hottest first, never the deal itself", async () => {
    const shelf = await freshShelf();
    const other = await freshShelf();
    const self = await deal({ store_id: shelf.storeId, category_id: shelf.categoryId });
    const sameStore = await deal({
      store_id: shelf.storeId,
      category_id: other.categoryId,
      likes: 5,
    });
    const sameCategory = await deal({
      store_id: other.storeId,
      category_id: shelf.categoryId,
      likes: 40,
    });
    const both = await deal({ store_id: shelf.storeId, category_id: shelf.categoryId });
    await deal({ store_id: other.storeId, category_id: other.categoryId, likes: 500 });

    expect(await relatedIds(self)).toEqual([sameCategory.id, sameStore.id, both.id]);
  });

  it("leaves out expired, held, hidden and removed deals and discussions", async () => {
    const shelf = await freshShelf();
    const on = { store_id: shelf.storeId, category_id: shelf.categoryId };
    const self = await deal(on);
    const live = await deal({ ...on, expires_at: new Date(Date.now() + 24 * 60 * MINUTE) });
    await deal({ ...on, expires_at: new Date(Date.now() - MINUTE), likes: 90 });
    for (const status of ["pending", "hidden", "removed"] as const) {
      await deal({ ...on, status, likes: 90 });
    }
    await deal({ ...on, post_type: "g", kind: "discussion", likes: 90 });

    expect(await relatedIds(self)).toEqual([live.id]);
  });

  it("shows at most 6, and ranks only the newest of each side: newest hot first", async () => {
    const shelf = await freshShelf();
    const on = { store_id: shelf.storeId, category_id: shelf.categoryId };
    // The hottest of all, but older than the newest RELATED_CANDIDATES: not among the candidates.
    const older = await deal({ ...on, minutesAgo: 200, likes: 10_000 });
    const recent = [];
    for (let i = 0; i < RELATED_CANDIDATES; i++) {
      recent.push(await deal({ ...on, minutesAgo: 100 + i, likes: i % 7 }));
    }
    const self = await deal({ ...on, minutesAgo: 1 });

    const ids = await relatedIds(self);
    expect(ids).toHaveLength(RELATED_DEALS_LIMIT);
    const hottest = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("store_id", "=", shelf.storeId)
      .where("id", "<>", self.id)
      .orderBy("hot_score", "desc")
      .executeTakeFirstOrThrow();
    expect(hottest.id).toBe(older.id);
    expect(ids).not.toContain(older.id);
    const byHeat = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where(
        "id",
        "in",
        recent.map((post) => post.id),
      )
      .orderBy("hot_score", "desc")
      .orderBy("id", "desc")
      .limit(RELATED_DEALS_LIMIT)
      .execute();
    expect(ids).toEqual(byHeat.map((row) => row.id));
  });

  it("has none for a post with neither store nor category", async () => {
    const discussion = await deal({ post_type: "g", kind: "discussion" });
    expect(await relatedIds(discussion)).toEqual([]);
  });
});

describe("POST /api/product_details", () => {
  it("answers related_deals beside the spec's fields, as deal cards", async () => {
    const shelf = await freshShelf();
    const on = { store_id: shelf.storeId, category_id: shelf.categoryId };
    const self = await deal(on);
    const other = await deal({ ...on, title: "Dry-erase markers, 36 pack" });

    const response = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: self.unique_id, type: "d" },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(Object.keys(body.response).sort()).toEqual(
      [
        "comments",
        "comments_user_image",
        "product_details",
        "related_deals",
        // Beside them too: freshness and the product's price history (records 0038, 0040).
        "freshness",
        "price_history",
      ].sort(),
    );
    expect(body.response.product_details.unique_id).toBe(self.unique_id);
    expect(body.response.related_deals).toEqual([
      expect.objectContaining({
        unique_id: other.unique_id,
        title: "Dry-erase markers, 36 pack",
        store_id: shelf.storeId,
        price: 9.99,
        is_expired: false,
      }),
    ]);
  });
});
