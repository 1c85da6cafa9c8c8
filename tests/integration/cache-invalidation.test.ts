import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";

/*
 * Every in-process cache has one owner that subscribes to deps.changes, and each is shown here to
 * serve a write on the very next read (well within its TTL): the read before the write fills the
 * cache, the read after must not be served from it. Writes go through the services that own them;
 * stores, forums and CMS pages have no writer yet (the console will be one), so those tests write
 * the rows and report the change as that writer will.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let member: TestClient;
let memberId: number;
const ids = { dealCategory: 0, discussionCategory: 0, store: 0, category: 0 };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  memberId = (
    await db.selectFrom("users").select("id").orderBy("id").offset(1).executeTakeFirstOrThrow()
  ).id;
  member = new TestClient(t.app);
  await member.signInAs(db, memberId);
  const kinds = await db.selectFrom("forum_categories").select(["id", "kind"]).execute();
  ids.dealCategory = kinds.find((k) => k.kind === "deal")!.id;
  ids.discussionCategory = kinds.find((k) => k.kind === "discussion")!.id;
  ids.store = (await db.selectFrom("stores").select("id").executeTakeFirstOrThrow()).id;
  ids.category = (await db.selectFrom("categories").select("id").executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

async function read(url: string, payload?: Record<string, unknown>): Promise<Json> {
  const response = await t.app.inject(
    payload ? { method: "POST", url, payload } : { method: "GET", url },
  );
  expect(response.statusCode, url).toBe(200);
  return response.json();
}

let posted = 0;
async function postDeal(title: string): Promise<{ id: number; uniqueId: string }> {
  posted += 1;
  const response = await member.post("/api/save_deal", {
    user_id: memberId,
    deal_category: ids.dealCategory,
    store_id: ids.store,
    category_id: ids.category,
    title,
    price: "9.99",
    discount: "10",
    link: `https://cache-test.example/deal-${posted}-${Date.now()}`,
    type: "d",
    deal_description: "<p>Fresh from the cache test.</p>",
  });
  expect(response.statusCode).toBe(200);
  const row = await t.deps.db
    .selectFrom("posts")
    .select(["id", "unique_id"])
    .where("title", "=", title)
    .executeTakeFirstOrThrow();
  return { id: row.id, uniqueId: row.unique_id };
}

const homeRecent = async () => (await read("/api/home", {})).recent_deals.recent_arr as Json[];

describe("the home lists (core/home/service.ts)", () => {
  it("show a new deal, a like, a comment and a renamed author on the next read", async () => {
    await homeRecent();
    const deal = await postDeal("Cache test: fresh crayons");
    const card = () =>
      homeRecent().then((cards) => cards.find((c) => c.unique_id === deal.uniqueId));
    expect(await card()).toMatchObject({ likes: 0, comments: 0 });

    const liked = await member.post("/api/product_like_unlike", {
      user_id: memberId,
      post_id: deal.id,
      post_type: "d",
      btn_type: "like",
    });
    expect(liked.statusCode).toBe(200);
    expect(await card()).toMatchObject({ likes: 1 });

    const commented = await member.post("/api/product_add_comment", {
      user_id: memberId,
      post_id: deal.id,
      post_type: "d",
      comment_text: "Bought two boxes.",
    });
    expect(commented.statusCode).toBe(201);
    expect(await card()).toMatchObject({ comments: 1 });

    const renamed = await member.post("/api/profile_update", {
      user_id: String(memberId),
      name: "Cache Test Renamed",
      mobile: "5551234567",
      website: "",
      dob: "",
      gender: "",
      brief: "",
      address: "",
    });
    expect(renamed.statusCode).toBe(200);
    expect(await card()).toMatchObject({ user_name: "Cache Test Renamed" });
  });
});

describe("the deal lists' counts, anchors, bounds and rankings (core/cards/paging.ts)", () => {
  it("count a new deal in /newdeals and a new discussion in the forum list", async () => {
    const newDeals = async () =>
      (await read("/api/category_page", { type: "d", page: 1 })).response.deal_data_pagination
        .total as number;
    const forumPosts = async (type: "d" | "g") =>
      ((await read("/api/forums")).froum_list as Json[]).find((f) => f.type === type)!
        .posts as number;
    const [deals, discussions] = [await newDeals(), await forumPosts("g")];

    await postDeal("Cache test: counted deal");
    expect(await newDeals()).toBe(deals + 1);

    const discussion = await member.post("/api/save_discussion", {
      user_id: memberId,
      forum_category_id: ids.discussionCategory,
      title: "Cache test: counted discussion",
      detail: "<p>Does the forum count me?</p>",
    });
    expect(discussion.statusCode).toBe(200);
    expect(await forumPosts("g")).toBe(discussions + 1);
  });

  it("find a new deal in search, spelling corrections included", async () => {
    const search = async (query: string) =>
      ((await t.services.listings.page({ type: "search", query }, 1)).items as Json[]).map(
        (c) => c.unique_id,
      );
    expect(await search("zorblaxian")).toEqual([]);
    expect(await search("zorblaxiam")).toEqual([]);
    const deal = await postDeal("Cache test: zorblaxian rulers");
    expect(await search("zorblaxian")).toEqual([deal.uniqueId]);
    // The misspelling is corrected from the new post's words.
    expect(await search("zorblaxiam")).toEqual([deal.uniqueId]);
  });
});

describe("the sitemap index (core/seo/service.ts)", () => {
  it("dates its chunks by a new post on the next read", async () => {
    const before = await t.services.seo.sitemapIndex();
    await postDeal("Cache test: sitemap deal");
    const created = await t.deps.db
      .selectFrom("posts")
      .select("created_at")
      .where("title", "=", "Cache test: sitemap deal")
      .executeTakeFirstOrThrow();
    const after = await t.services.seo.sitemapIndex();
    expect(before).not.toContain(created.created_at.toISOString());
    expect(after).toContain(created.created_at.toISOString());
  });
});

describe("the site settings (core/settings/service.ts)", () => {
  it("show a changed site name on the next read", async () => {
    const before = await t.services.settings.get();
    await t.services.settings.updateGeneral({ website_name: "Cache Test Deals" });
    expect((await t.services.settings.get()).websiteName).toBe("Cache Test Deals");
    await t.services.settings.updateGeneral({ website_name: before.websiteName });
    expect((await t.services.settings.get()).websiteName).toBe(before.websiteName);
  });
});

describe("caches of data that has no writer yet", () => {
  it("the store list and the filter checklist show a new store", async () => {
    const storeTitles = async () =>
      ((await read("/api/stores_list")).response.selected_data as Json[]).map(
        (s) => s.title as string,
      );
    const checklist = async () =>
      (
        (await read("/api/filter", { filter_type: "newdeals", category_id: ids.category })).response
          .store_filter as Json[]
      ).map((s) => s.title as string);
    await storeTitles();
    await checklist();

    await t.deps.db
      .insertInto("stores")
      .values({ title: "Zz Cache Test Store", slug: "zz-cache-test-store" })
      .execute();
    t.deps.changes.emit("catalog");
    expect(await storeTitles()).toContain("Zz Cache Test Store");
    expect(await checklist()).toContain("Zz Cache Test Store");
  });

  it("the forum list shows a renamed forum", async () => {
    const titles = async () =>
      ((await read("/api/forums")).froum_list as Json[]).map((f) => f.title);
    const before = await titles();
    const forum = await t.deps.db.selectFrom("forums").select("id").executeTakeFirstOrThrow();
    await t.deps.db
      .updateTable("forums")
      .set({ title: "Cache Test Forum" })
      .where("id", "=", forum.id)
      .execute();
    t.deps.changes.emit("forums");
    expect(await titles()).toContain("Cache Test Forum");
    expect(before).not.toContain("Cache Test Forum");
  });

  it("a CMS page and the featured stores show their changes", async () => {
    const page = await t.deps.db.selectFrom("cms_pages").select("slug").executeTakeFirstOrThrow();
    const detail = async () =>
      (await read("/api/cms_page", { slug: page.slug })).cms_page[0].detail;
    const featured = async () =>
      ((await read("/api/featured_stores")).response.featured_data_arr as Json[]).map(
        (s) => s.title as string,
      );
    await detail();
    await featured();
    await t.deps.db
      .updateTable("cms_pages")
      .set({ detail: "<p>Cache test text.</p>" })
      .where("slug", "=", page.slug)
      .execute();
    const store = await t.deps.db
      .insertInto("stores")
      .values({ title: "Zz Featured Cache Store", slug: "zz-featured-cache-store" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await t.deps.db.insertInto("featured_stores").values({ store_id: store.id }).execute();
    t.deps.changes.emit("cms");
    expect(await detail()).toContain("Cache test text.");
    expect(await featured()).toContain("Zz Featured Cache Store");
  });
});
