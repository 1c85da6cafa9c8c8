import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEED_MAX_PAGES, FOLLOW_MESSAGES } from "../../core/member/follows/schema.ts";
import { SAVED_MESSAGES } from "../../core/member/saved/schema.ts";
import { PAGE_SIZE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Saved deals and follows (record 0043): saving deals, the saved list, the saved state the cards
 * and the deal page show, following stores and categories, and the personal feed, on a fixed clock.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// A pinned clock, from the start of this minute (sessions are checked against it too).
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
let clock = T0;
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let t: TestApp;
let member: { id: number; client: TestClient };
let poster: { id: number; client: TestClient };
let followedPoster: { id: number; client: TestClient };
let visitor: TestClient;

async function api(client: TestClient, url: string, payload: Record<string, unknown>) {
  const response = await client.post(`/api${url}`, payload);
  return { status: response.statusCode, body: response.json() as Json };
}

const tag = () => randomBytes(3).toString("hex");

async function store(title = `Feed Store ${tag()}`) {
  return t.deps.db
    .insertInto("stores")
    .values({ title, slug: title.toLowerCase().replaceAll(" ", "-") })
    .returning(["id", "slug", "title"])
    .executeTakeFirstOrThrow();
}

async function category(title = `Feed Category ${tag()}`) {
  return t.deps.db
    .insertInto("categories")
    .values({ title, slug: title.toLowerCase().replaceAll(" ", "-") })
    .returning(["id", "slug", "title"])
    .executeTakeFirstOrThrow();
}

async function deal(values: Parameters<typeof insertPost>[1] = {}) {
  const row = await insertPost(t.deps.db, {
    user_id: poster.id,
    price: 10,
    created_at: clock,
    updated_at: clock,
    ...values,
  });
  t.deps.changes.emit("posts");
  return row;
}

const ids = (deals: Json[]) => deals.map((d) => d.unique_id as string);

beforeAll(async () => {
  t = await createTestApp({ pages: true, now: () => clock });
  member = await signInWithRole(t, "member", "Saver");
  poster = await signInWithRole(t, "member", "Poster");
  followedPoster = await signInWithRole(t, "member", "Followed Poster");
  visitor = new TestClient(t.app);
});
afterAll(async () => {
  await t?.close();
});

describe("saving deals", () => {
  it("saves and unsaves a deal with one call, each time saying what it did", async () => {
    const d = await deal({ title: "Crayons 24 pack" });
    const first = await api(member.client, "/save_deal_toggle", { unique_id: d.unique_id });
    expect(first).toMatchObject({
      status: 200,
      body: { status: "true", saved: true, message: SAVED_MESSAGES.saved },
    });
    const second = await api(member.client, "/save_deal_toggle", { unique_id: d.unique_id });
    expect(second).toMatchObject({
      status: 200,
      body: { status: "true", saved: false, message: SAVED_MESSAGES.unsaved },
    });
    const list = await api(member.client, "/saved_deals", { page: 1 });
    expect(ids(list.body.response.deal_data)).not.toContain(d.unique_id);
  });

  it("lists saved deals newest saved first, 15 a page, expired ones kept and marked", async () => {
    const other = await signInWithRole(t, "member", "Collector");
    const deals = [];
    for (let i = 0; i < 16; i++) {
      // Posted in one order, saved in the other: the list follows the saves.
      clock = at(i);
      deals.push(await deal({ title: `Saved deal ${i}` }));
    }
    const ended = await deal({ title: "Ended deal", expires_at: at(-60), expired: true });
    for (let i = 15; i >= 0; i--) {
      clock = at(100 + (15 - i));
      await api(other.client, "/save_deal_toggle", { unique_id: deals[i]!.unique_id });
    }
    clock = at(200);
    await api(other.client, "/save_deal_toggle", { unique_id: ended.unique_id });

    const page1 = await api(other.client, "/saved_deals", { page: 1 });
    expect(page1.status).toBe(200);
    const response = page1.body.response;
    expect(response.deal_data_pagination).toEqual({
      total: 17,
      per_page: PAGE_SIZE.listing,
      current_page: 1,
      last_page: 2,
    });
    expect(response.deal_data).toHaveLength(15);
    expect(response.deal_data[0]).toMatchObject({ unique_id: ended.unique_id, is_expired: true });
    // Then deals[0] (saved last of the sixteen), deals[1], …
    expect(ids(response.deal_data.slice(1))).toEqual(ids(deals.slice(0, 14)));
    expect(response.deal_data[1].is_expired).toBe(false);
    const page2 = await api(other.client, "/saved_deals", { page: 2 });
    expect(ids(page2.body.response.deal_data)).toEqual([
      deals[14]!.unique_id,
      deals[15]!.unique_id,
    ]);
    const past = await api(other.client, "/saved_deals", { page: 9 });
    expect(past).toMatchObject({ status: 200 });
    expect(past.body.response.deal_data).toEqual([]);

    // Another member's list is their own.
    const mine = await api(member.client, "/saved_deals", { page: 1 });
    expect(ids(mine.body.response.deal_data)).not.toContain(ended.unique_id);
  });

  it("drops a deal that stops being public from the list, and brings it back when restored", async () => {
    const d = await deal({ title: "Held later" });
    await api(member.client, "/save_deal_toggle", { unique_id: d.unique_id });
    await t.deps.db.updateTable("posts").set({ status: "hidden" }).where("id", "=", d.id).execute();
    let list = await api(member.client, "/saved_deals", { page: 1 });
    expect(ids(list.body.response.deal_data)).not.toContain(d.unique_id);
    await t.deps.db.updateTable("posts").set({ status: "active" }).where("id", "=", d.id).execute();
    list = await api(member.client, "/saved_deals", { page: 1 });
    expect(ids(list.body.response.deal_data)).toContain(d.unique_id);
  });

  it("tells the cards and the deal page which deals the member saved", async () => {
    const saved = await deal({ title: "Glue sticks saved" });
    const notSaved = await deal({ title: "Glue sticks not saved" });
    await api(member.client, "/save_deal_toggle", { unique_id: saved.unique_id });
    const mine = await api(member.client, "/my_reactions", { post_ids: [saved.id, notSaved.id] });
    expect(mine.status).toBe(200);
    expect(mine.body.saved).toEqual([saved.id]);
    const stranger = await signInWithRole(t, "member");
    const theirs = await api(stranger.client, "/my_reactions", { post_ids: [saved.id] });
    expect(theirs.body.saved).toEqual([]);

    const pressed = /class="[^"]*save-button[^"]*" aria-pressed="true"/;
    const page = await member.client.get(`/post/${saved.unique_id}/${saved.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(pressed);
    const other = await member.client.get(`/post/${notSaved.unique_id}/${notSaved.slug}`);
    expect(other.body).toMatch(/class="[^"]*save-button[^"]*" aria-pressed="false"/);
    const anonymous = await visitor.get(`/post/${saved.unique_id}/${saved.slug}`);
    expect(anonymous.body).not.toMatch(pressed);
  });

  it("refuses what cannot be saved, with a clear message", async () => {
    const removed = await deal({ status: "removed" });
    const pending = await deal({ status: "pending" });
    const gone = await deal();
    await t.deps.db.deleteFrom("posts").where("id", "=", gone.id).execute();
    for (const uniqueId of ["no-such-deal", removed.unique_id, pending.unique_id, gone.unique_id]) {
      const res = await api(member.client, "/save_deal_toggle", { unique_id: uniqueId });
      expect(res).toMatchObject({
        status: 404,
        body: { status: false, message: SAVED_MESSAGES.notFound },
      });
    }
    const forum = await deal({ post_type: "g", kind: "discussion", title: "A forum post" });
    const res = await api(member.client, "/save_deal_toggle", { unique_id: forum.unique_id });
    expect(res).toMatchObject({
      status: 422,
      body: { message: SAVED_MESSAGES.notADeal, errors: { unique_id: SAVED_MESSAGES.notADeal } },
    });
    const missing = await api(member.client, "/save_deal_toggle", {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.unique_id).toBe("unique_id is required.");
    const asOther = await api(member.client, "/save_deal_toggle", {
      user_id: poster.id,
      unique_id: removed.unique_id,
    });
    expect(asOther.status).toBe(403);
    for (const page of [0, -1, "x", 1.5, 10_000_000]) {
      const bad = await api(member.client, "/saved_deals", { page });
      expect(bad.status, String(page)).toBe(422);
      expect(bad.body.errors.page).toMatch(/page must/);
    }
  });
});

describe("following stores and categories", () => {
  it("follows and unfollows a store and a category, and their pages show it", async () => {
    const s = await store();
    const c = await category();
    const on = await api(member.client, "/follow_toggle", { type: "store", id: s.id });
    expect(on).toMatchObject({
      status: 200,
      body: { status: "true", type: "store", id: s.id, following: true },
    });
    expect(on.body.message).toBe(FOLLOW_MESSAGES.followingStore(s.title));
    const storePage = await member.client.get(`/store/${s.slug}`);
    expect(storePage.body).toMatch(/aria-pressed="true"[^>]*>Following/);
    const off = await api(member.client, "/follow_toggle", { type: "STORE", id: String(s.id) });
    expect(off.body).toMatchObject({
      following: false,
      message: FOLLOW_MESSAGES.unfollowed(s.title),
    });
    const after = await member.client.get(`/store/${s.slug}`);
    expect(after.body).toMatch(/aria-pressed="false"[^>]*>Follow/);

    const cat = await api(member.client, "/follow_toggle", { type: "category", id: c.id });
    expect(cat.body).toMatchObject({ type: "category", following: true });
    const catPage = await member.client.get(`/category/${c.slug}`);
    expect(catPage.body).toMatch(/aria-pressed="true"[^>]*>Following/);
    await api(member.client, "/follow_toggle", { type: "category", id: c.id });
  });

  it("refuses a bad type, an unknown id and missing fields", async () => {
    const badType = await api(member.client, "/follow_toggle", { type: "user", id: 1 });
    expect(badType).toMatchObject({
      status: 422,
      body: { message: FOLLOW_MESSAGES.badType, errors: { type: FOLLOW_MESSAGES.badType } },
    });
    const unknownStore = await api(member.client, "/follow_toggle", {
      type: "store",
      id: 99_999_999,
    });
    expect(unknownStore).toMatchObject({
      status: 404,
      body: { message: FOLLOW_MESSAGES.storeNotFound },
    });
    const unknownCategory = await api(member.client, "/follow_toggle", {
      type: "category",
      id: 99_999_999,
    });
    expect(unknownCategory).toMatchObject({
      status: 404,
      body: { message: FOLLOW_MESSAGES.categoryNotFound },
    });
    const missing = await api(member.client, "/follow_toggle", {});
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors).sort()).toEqual(["id", "type"]);
    for (const id of [0, -3, "abc", 1.5]) {
      expect((await api(member.client, "/follow_toggle", { type: "store", id })).status).toBe(422);
    }
  });
});

describe("my feed", () => {
  let feedMember: { id: number; client: TestClient };
  let followedStore: { id: number; slug: string; title: string };
  let followedCategory: { id: number; slug: string; title: string };
  let otherStore: { id: number; slug: string; title: string };
  const expected: Record<string, string> = {};
  const excluded: Record<string, string> = {};

  beforeAll(async () => {
    feedMember = await signInWithRole(t, "member", "Feed Reader");
    followedStore = await store();
    followedCategory = await category();
    otherStore = await store();
    const otherCategory = await category();
    await api(feedMember.client, "/follow_toggle", { type: "store", id: followedStore.id });
    await api(feedMember.client, "/follow_toggle", { type: "category", id: followedCategory.id });
    const follow = await feedMember.client.post("/api/profile_follow", {
      loggedin_user_id: feedMember.id,
      user_id: followedPoster.id,
      status: "Follow",
    });
    expect(follow.statusCode).toBe(200);

    const post = async (minute: number, values: Parameters<typeof insertPost>[1]) => {
      clock = at(1000 + minute);
      return (await deal(values)).unique_id;
    };
    expected.store = await post(1, { store_id: followedStore.id, category_id: otherCategory.id });
    expected.category = await post(2, {
      store_id: otherStore.id,
      category_id: followedCategory.id,
    });
    expected.user = await post(3, { user_id: followedPoster.id, store_id: otherStore.id });
    // In a followed store and a followed category: once.
    expected.both = await post(4, {
      store_id: followedStore.id,
      category_id: followedCategory.id,
    });
    excluded.other = await post(5, { store_id: otherStore.id, category_id: otherCategory.id });
    excluded.forum = await post(6, {
      user_id: followedPoster.id,
      post_type: "g",
      kind: "discussion",
    });
    excluded.removed = await post(7, { store_id: followedStore.id, status: "removed" });
    excluded.pending = await post(8, { store_id: followedStore.id, status: "pending" });
    excluded.hidden = await post(9, { user_id: followedPoster.id, status: "hidden" });
  });

  it("has new deals of followed stores, categories and members, newest first, and nothing else", async () => {
    const feed = await api(feedMember.client, "/my_feed", { page: 1 });
    expect(feed.status).toBe(200);
    expect(ids(feed.body.response.deal_data)).toEqual([
      expected.both,
      expected.user,
      expected.category,
      expected.store,
    ]);
    expect(feed.body.response.deal_data_pagination).toEqual({
      total: 4,
      per_page: PAGE_SIZE.listing,
      current_page: 1,
      last_page: 1,
    });
    for (const uniqueId of Object.values(excluded)) {
      expect(ids(feed.body.response.deal_data)).not.toContain(uniqueId);
    }
  });

  it("pages like the listings and stops at its last page", async () => {
    const busy = await signInWithRole(t, "member", "Busy Reader");
    const s = await store();
    await api(busy.client, "/follow_toggle", { type: "store", id: s.id });
    const posted = [];
    for (let i = 0; i < 17; i++) {
      clock = at(2000 + i);
      posted.push((await deal({ store_id: s.id, title: `Paged ${i}` })).unique_id);
    }
    const page1 = await api(busy.client, "/my_feed", { page: 1 });
    expect(page1.body.response.deal_data_pagination).toMatchObject({ total: 17, last_page: 2 });
    expect(ids(page1.body.response.deal_data)).toEqual(posted.slice(2).reverse());
    const page2 = await api(busy.client, "/my_feed", { page: 2 });
    expect(ids(page2.body.response.deal_data)).toEqual([posted[1], posted[0]]);
    const page3 = await api(busy.client, "/my_feed", { page: 3 });
    expect(page3).toMatchObject({ status: 200 });
    expect(page3.body.response.deal_data).toEqual([]);
  });

  it("suggests popular stores when empty, and shows the feed on /user/feed", async () => {
    const fresh = await signInWithRole(t, "member", "New Reader");
    const empty = await api(fresh.client, "/my_feed", {});
    expect(empty.body.response.deal_data).toEqual([]);
    const page = await fresh.client.get("/user/feed");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Popular stores to follow");
    const full = await feedMember.client.get("/user/feed");
    expect(full.statusCode).toBe(200);
    expect(full.body).not.toContain("Popular stores to follow");
    expect(full.body).toContain(expected.both);
    expect((await visitor.get("/user/feed")).headers.location).toBe("/login?next=%2Fuser%2Ffeed");
    expect((await visitor.get("/user/saved")).headers.location).toBe("/login?next=%2Fuser%2Fsaved");
  });

  it("caps how deep it pages, with a clear message", async () => {
    const ok = await api(feedMember.client, "/my_feed", { page: FEED_MAX_PAGES });
    expect(ok.status).toBe(200);
    for (const page of [FEED_MAX_PAGES + 1, 1_000_000, 0, "two"]) {
      const res = await api(feedMember.client, "/my_feed", { page });
      expect(res.status, String(page)).toBe(422);
      expect(res.body.errors.page).toMatch(/page must/);
    }
    const deep = await api(feedMember.client, "/my_feed", { page: FEED_MAX_PAGES + 1 });
    expect(deep.body.errors.page).toBe(FOLLOW_MESSAGES.feedPage);
  });
});

describe("who may call", () => {
  it("asks a visitor to sign in for every call", async () => {
    for (const [url, body] of [
      ["/save_deal_toggle", { unique_id: "abc" }],
      ["/saved_deals", { page: 1 }],
      ["/follow_toggle", { type: "store", id: 1 }],
      ["/my_feed", { page: 1 }],
    ] as const) {
      const res = await t.app.inject({ method: "POST", url: `/api${url}`, payload: body });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toMatchObject({ status: false });
    }
  });
});

describe("deleting", () => {
  it("takes saves and follows along with a deleted member, deal, store or category", async () => {
    const leaving = await signInWithRole(t, "member", "Leaving");
    const s = await store();
    const c = await category();
    const d = await deal();
    await api(leaving.client, "/save_deal_toggle", { unique_id: d.unique_id });
    await api(leaving.client, "/follow_toggle", { type: "store", id: s.id });
    await api(leaving.client, "/follow_toggle", { type: "category", id: c.id });
    await api(member.client, "/save_deal_toggle", { unique_id: d.unique_id });
    await api(member.client, "/follow_toggle", { type: "store", id: s.id });

    await t.deps.db.deleteFrom("users").where("id", "=", leaving.id).execute();
    const count = async (table: "saved_deals" | "store_follows" | "category_follows", id: number) =>
      (await t.deps.db.selectFrom(table).selectAll().where("user_id", "=", id).execute()).length;
    expect(await count("saved_deals", leaving.id)).toBe(0);
    expect(await count("store_follows", leaving.id)).toBe(0);
    expect(await count("category_follows", leaving.id)).toBe(0);

    await t.deps.db.deleteFrom("posts").where("id", "=", d.id).execute();
    await t.deps.db.deleteFrom("stores").where("id", "=", s.id).execute();
    await t.deps.db.deleteFrom("categories").where("id", "=", c.id).execute();
    const saved = await api(member.client, "/saved_deals", { page: 1 });
    expect(saved.status).toBe(200);
    expect(ids(saved.body.response.deal_data)).not.toContain(d.unique_id);
    expect((await api(member.client, "/my_feed", { page: 1 })).status).toBe(200);
  });
});
