import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANCHOR_STRIDE } from "../../core/cards/paging.ts";
import { DEAL_SORTS, type DealSort } from "../../core/cards/deal-sort.ts";
import * as dealsRepo from "../../core/cards/repository.ts";
import { EXPIRY_MESSAGES } from "../../core/posts/expiry/schema.ts";
import { sweepExpiry } from "../../core/posts/expiry/repository.ts";
import { dealExpiryJob } from "../../core/posts/expiry/sweep.ts";
import { SETTINGS_MESSAGES } from "../../core/settings/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Expiry (record 0037): the minute sweep, Trending and the home lists, live deals first in every
 * listing, members' "Expired?" marks, moderators, reopening, the setting and "Hide expired".
 * Every rule runs on a fixed clock that the tests move by hand.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// The start of this minute, so seeded deals (dated by the real clock) sit where they would.
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
let clock = T0;
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

let t: TestApp;
let poster: { id: number; client: TestClient };
let members: { id: number; client: TestClient }[];
let moderator: { id: number; client: TestClient };
let admin: { id: number; client: TestClient };
let anonymous: TestClient;

beforeAll(async () => {
  t = await createTestApp({ pages: true, jobs: true, now: () => clock });
  poster = await signInWithRole(t, "member", "Deal Poster");
  members = [];
  for (let i = 0; i < 4; i++) members.push(await signInWithRole(t, "member", `Shopper ${i}`));
  moderator = await signInWithRole(t, "moderator");
  admin = await signInWithRole(t, "admin");
  anonymous = new TestClient(t.app);
  await sweep();
});
afterAll(async () => {
  await t?.close();
});

/** Runs the minute sweep through the queue, as its cron does, and waits for it. */
async function sweep() {
  await t.jobs.send(dealExpiryJob, {});
  await waitForJobs(t.jobs, { kind: dealExpiryJob });
}

async function deal(values: Parameters<typeof insertPost>[1] = {}) {
  const row = await insertPost(t.deps.db, {
    user_id: poster.id,
    store_id: 1,
    category_id: 1,
    price: 10,
    created_at: clock,
    updated_at: clock,
    ...values,
  });
  t.deps.changes.emit("posts");
  return row;
}

async function flags(id: number) {
  return t.deps.db
    .selectFrom("posts")
    .select(["expired", "expires_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function api(client: TestClient, url: string, payload: Record<string, unknown>) {
  const response = await client.post(`/api${url}`, payload);
  return { status: response.statusCode, body: response.json() as Json };
}

async function anonymousPost(url: string, payload: Record<string, unknown>) {
  const response = await t.app.inject({ method: "POST", url: `/api${url}`, payload });
  return { status: response.statusCode, body: response.json() as Json };
}

const ids = (deals: Json[]) => deals.map((d) => d.unique_id as string);

describe("the minute sweep", () => {
  it("runs on the queue's cron every minute", async () => {
    const schedules = await t.jobs.schedules();
    expect(schedules).toContainEqual(
      expect.objectContaining({ kind: dealExpiryJob.name, cron: "* * * * *" }),
    );
  });

  it("expires a deal at its end date and not a second before", async () => {
    clock = at(0);
    const ending = await deal({ expires_at: at(60), title: "Ends at the minute" });
    clock = at(59);
    await sweep();
    expect(await flags(ending.id)).toMatchObject({ expired: false });
    const home = await anonymousPost("/home", {});
    expect(ids(home.body.recent_deals.recent_arr)).toContain(ending.unique_id);

    clock = at(60);
    // The card says so at once (read time); the sweep moves it out of the lists.
    const store = await anonymousPost("/category_page", { type: "store", slug: "amazon", page: 1 });
    expect(store.body.response.deal_data[0]).toMatchObject({
      unique_id: ending.unique_id,
      is_expired: true,
    });
    await sweep();
    expect(await flags(ending.id)).toMatchObject({ expired: true });
    const after = await anonymousPost("/home", {});
    expect(ids(after.body.recent_deals.recent_arr)).not.toContain(ending.unique_id);
    const storeAfter = await anonymousPost("/category_page", {
      type: "store",
      slug: "amazon",
      page: 1,
    });
    expect(storeAfter.body.response.deal_data[0].unique_id).not.toBe(ending.unique_id);
  });

  it("makes a deal live again when its end moves later (a moderator's edit)", async () => {
    const moved = await deal({ expires_at: at(-10), expired: true });
    await t.deps.db
      .updateTable("posts")
      .set({ expires_at: at(3600) })
      .where("id", "=", moved.id)
      .execute();
    await sweep();
    expect(await flags(moved.id)).toMatchObject({ expired: false });
  });
  it("works in batches until every due deal is changed, and says how many", async () => {
    clock = at(90);
    const due = [];
    for (let i = 0; i < 5; i++) due.push(await deal({ expires_at: at(80 + i) }));
    const back = [];
    for (let i = 0; i < 3; i++) back.push(await deal({ expires_at: null, expired: true }));
    expect(await sweepExpiry(t.deps.db, clock, 2)).toEqual({ expired: 5, reopened: 3 });
    for (const row of due) expect(await flags(row.id)).toMatchObject({ expired: true });
    for (const row of back) expect(await flags(row.id)).toMatchObject({ expired: false });
    expect(await sweepExpiry(t.deps.db, clock, 2)).toEqual({ expired: 0, reopened: 0 });
  });
});

describe("Trending and the home lists", () => {
  it("leave a deal out once it has expired", async () => {
    clock = at(120);
    const hot = await deal({
      title: "Very hot expiring deal",
      likes_count: 500,
      expires_at: at(150),
    });
    t.deps.changes.emit("reactions");
    const before = await anonymousPost("/home", {});
    expect(ids(before.body.trending_deals.deals_arr)).toContain(hot.unique_id);
    expect(ids(before.body.recent_deals.recent_arr)).toContain(hot.unique_id);

    clock = at(150);
    await sweep();
    const after = await anonymousPost("/home", {});
    expect(ids(after.body.trending_deals.deals_arr)).not.toContain(hot.unique_id);
    expect(ids(after.body.recent_deals.recent_arr)).not.toContain(hot.unique_id);
    const byStore = await anonymousPost("/category_store_filter_home", { store_id: 1, page: 1 });
    expect(ids(byStore.body.trending_deals_arr)).not.toContain(hot.unique_id);
    expect(ids(byStore.body.recent_deals_data)).not.toContain(hot.unique_id);
    for (const card of after.body.recent_deals.recent_arr) expect(card.is_expired).toBe(false);
  });
});

describe("live deals first in every listing", () => {
  let storeId: number;
  let storeSlug: string;

  beforeAll(async () => {
    clock = at(200);
    const store = await t.deps.db
      .insertInto("stores")
      .values({ title: "Expiry Test Store", slug: "expiry-test-store" })
      .returning(["id", "slug"])
      .executeTakeFirstOrThrow();
    storeId = store.id;
    storeSlug = store.slug;
    // 700 deals, every third one expired: live and expired both span several anchors.
    await sql`
      INSERT INTO posts (unique_id, slug, post_type, kind, title, link, store_id, category_id,
                         price, discount, user_id, views, created_at, updated_at, expires_at)
      SELECT 'exptest' || g, 'expiry-sorted-' || g, 'd', 'deal', 'Expiry sorted notebook ' || g,
             'https://example.com/e/' || g, ${storeId}, 1 + g % 4,
             CASE WHEN g % 11 = 0 THEN NULL ELSE 3 + (g * 7) % 50 END,
             CASE WHEN g % 13 = 0 THEN NULL ELSE (g * 11) % 90 END, ${poster.id}, (g * 37) % 300,
             ${at(0)}::timestamptz - ((g / 2) || ' minutes')::interval,
             ${at(0)}::timestamptz,
             CASE WHEN g % 3 = 0 THEN ${at(100)}::timestamptz
                  WHEN g % 3 = 1 THEN ${at(86_400)}::timestamptz END
      FROM generate_series(1, 700) AS g`.execute(t.deps.db);
    await sweep();
    t.deps.changes.emit("posts");
  });

  const ORDER_SQL: Record<DealSort, string> = {
    hot: "hot_score DESC, id DESC",
    new: "created_at DESC, id DESC",
    discount: "coalesce(discount, -1) DESC, id DESC",
    price: "coalesce(- price, -1000000000000) DESC, id DESC",
  };

  async function expected(sort: DealSort, where: string, offset: number, limit: number) {
    const result = await sql<{ unique_id: string; expired: boolean }>`
      SELECT unique_id, expired FROM posts
      WHERE status = 'active' AND post_type = 'd' AND ${sql.raw(where)}
      ORDER BY expired, ${sql.raw(ORDER_SQL[sort])} OFFSET ${offset} LIMIT ${limit}`.execute(
      t.deps.db,
    );
    return result.rows;
  }

  it.each(DEAL_SORTS)("a store's deals by %s, deep pages across anchors included", async (sort) => {
    const where = `store_id = ${storeId}`;
    const all = await expected(sort, where, 0, 10_000);
    expect(all).toHaveLength(700);
    const firstExpired = all.findIndex((row) => row.expired);
    expect(firstExpired).toBeGreaterThan(ANCHOR_STRIDE);
    expect(all.slice(firstExpired).every((row) => row.expired)).toBe(true);
    const boundaryPage = Math.floor(firstExpired / 15) + 1;
    const lastPage = Math.ceil(700 / 15);
    for (const page of [1, boundaryPage - 1, boundaryPage, boundaryPage + 1, 25, lastPage]) {
      const { body } = await anonymousPost("/category_page", {
        type: "store",
        slug: storeSlug,
        page,
        sort,
      });
      expect(ids(body.response.deal_data), `${sort} page ${page}`).toEqual(
        all.slice((page - 1) * 15, page * 15).map((row) => row.unique_id),
      );
    }
    // Hidden: only the live ones, in the same order.
    const hidden = await anonymousPost("/category_page", {
      type: "store",
      slug: storeSlug,
      page: boundaryPage,
      sort,
      expired: "hide",
    });
    expect(hidden.body.response.deal_data_pagination.total).toBe(firstExpired);
    expect(ids(hidden.body.response.deal_data)).toEqual(
      all
        .slice(0, firstExpired)
        .slice((boundaryPage - 1) * 15, boundaryPage * 15)
        .map((row) => row.unique_id),
    );
  });

  it.each(DEAL_SORTS)("new deals hide expired deals when asked, by %s", async (sort) => {
    const where = "NOT expired";
    const deep = Math.floor(ANCHOR_STRIDE / 15) + 2;
    for (const page of [1, deep]) {
      const { body } = await anonymousPost("/category_page", {
        type: "d",
        page,
        sort,
        expired: "hide",
      });
      expect(ids(body.response.deal_data)).toEqual(
        (await expected(sort, where, (page - 1) * 15, 15)).map((row) => row.unique_id),
      );
    }
    // Without the field the JSON call answers as the spec's did, every deal, the expired ones
    // after every live deal (the New Deals page asks to hide them: tested below).
    const liveCount = (await expected(sort, "NOT expired", 0, 100_000)).length;
    const page = Math.floor(liveCount / 15) + 1;
    const { body } = await anonymousPost("/category_page", { type: "d", page, sort });
    expect(ids(body.response.deal_data)).toEqual(
      (await expected(sort, "true", (page - 1) * 15, 15)).map((row) => row.unique_id),
    );
  });

  it("a filtered list and search results put live deals first too", async () => {
    const filtered = await anonymousPost("/filter", {
      filter_type: "store",
      store_id: storeId,
      min_price: 10,
      page: 1,
      sort: "price",
    });
    const rows = await expected("price", `store_id = ${storeId} AND price >= 10`, 0, 10_000);
    expect(ids(filtered.body.response.deal_data)).toEqual(
      rows.slice(0, 15).map((row) => row.unique_id),
    );
    const searched = await anonymousPost("/filter", { search_title: "expiry sorted notebook" });
    const total = searched.body.response.deal_data_pagination.total as number;
    expect(total).toBe(700);
    const lastPage = Math.ceil(total / 15);
    const cards: Json[] = [];
    for (const page of [1, 30, lastPage]) {
      const { body } = await anonymousPost("/filter", {
        search_title: "expiry sorted notebook",
        page,
      });
      cards.push(...body.response.deal_data);
    }
    expect(cards.slice(0, 15).every((card) => !card.is_expired)).toBe(true);
    expect(cards.slice(-5).every((card) => card.is_expired)).toBe(true);
    const hidden = await anonymousPost("/filter", {
      search_title: "expiry sorted notebook",
      expired: "hide",
    });
    expect(hidden.body.response.deal_data_pagination.total).toBe(467);
  });

  it("walks one index, never sorts, for the live part of a list", async () => {
    for (const sort of DEAL_SORTS) {
      for (const scope of [
        { kind: "type", postType: "d", liveOnly: true },
        { kind: "store", storeId, liveOnly: true },
        { kind: "category", categoryId: 1 },
      ] as dealsRepo.DealScope[]) {
        const plan = await t.deps.db.transaction().execute(async (tx) => {
          await sql`SET LOCAL enable_sort = off`.execute(tx);
          await sql`SET LOCAL enable_seqscan = off`.execute(tx);
          await sql`SET LOCAL enable_bitmapscan = off`.execute(tx);
          const from = await dealsRepo.findScopeKey(tx, scope, null, 40, sort);
          const compiled = dealsRepo
            .findScopeCardsQuery(tx, scope, from ?? null, 15, sort)
            .compile();
          const inlined = compiled.sql.replace(/\$(\d+)/g, (_, n: string) =>
            literal(compiled.parameters[Number(n) - 1]),
          );
          const rows = await sql.raw<{ "QUERY PLAN": string }>(`EXPLAIN ${inlined}`).execute(tx);
          return rows.rows.map((row) => row["QUERY PLAN"]).join("\n");
        });
        expect(plan, `${sort} of ${JSON.stringify(scope)}`).not.toMatch(/\bSort\b/);
        expect(plan).toMatch(/Index (Only )?Scan/);
      }
    }
  });

  it("refuses an expired choice that is neither hide nor show", async () => {
    for (const [url, payload] of [
      ["/category_page", { type: "d", expired: "maybe" }],
      ["/filter", { filter_type: "newdeals", expired: true }],
    ] as const) {
      const { status, body } = await anonymousPost(url, payload);
      expect(status).toBe(422);
      expect(body.errors.expired).toBe("expired must be 'hide' or 'show'.");
    }
  });

  it("keeps the choice in the listing pages' URLs: on for new deals, off elsewhere", async () => {
    const get = (url: string) => t.app.inject({ method: "GET", url });
    /** Whether the page's "Hide expired" switch is on. */
    const switchOn = (body: string) => {
      const input = body.match(/<input[^>]*role="switch"[^>]*>/)?.[0];
      expect(input, "the Hide expired switch").toBeDefined();
      return /\schecked(=|\s|>|\/)/.test(input!);
    };
    const [oldest] = await expected("new", `store_id = ${storeId}`, 699, 1);
    expect(oldest!.expired).toBe(true);
    const lastPage = Math.ceil(700 / 15);
    const shown = await get(`/store/${storeSlug}?sort=new&page=${lastPage}`);
    expect(shown.statusCode).toBe(200);
    expect(switchOn(shown.body)).toBe(false);
    expect(shown.body).toContain(`/post/${oldest!.unique_id}/`);
    // Hidden, the store's list ends with its live deals: that page is past the last.
    const hidden = await get(`/store/${storeSlug}?sort=new&expired=hide&page=1`);
    expect(switchOn(hidden.body)).toBe(true);
    expect(hidden.body).toContain("expired=hide&amp;page=2");
    expect(
      (await get(`/store/${storeSlug}?sort=new&expired=hide&page=${lastPage}`)).statusCode,
    ).toBe(404);
    // New deals start hidden; ?expired=show lists them after the live ones.
    expect(switchOn((await get("/newdeals")).body)).toBe(true);
    const showing = await get("/newdeals?expired=show&page=2");
    expect(showing.statusCode).toBe(200);
    expect(switchOn(showing.body)).toBe(false);
    expect(showing.body).toContain("expired=show&amp;page=3");
  });
});

describe("POST /api/mark_expired", () => {
  it("expires a deal when the third distinct member marks it, not before", async () => {
    clock = at(300);
    const target = await deal({ title: "Marked by members" });
    const first = await api(members[0]!.client, "/mark_expired", { unique_id: target.unique_id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: "true",
      message: EXPIRY_MESSAGES.marked,
      marks: 1,
      threshold: 3,
      is_expired: false,
      marked_by_you: true,
      can_mark: false,
    });
    // A second mark by the same member is refused, and not counted.
    const again = await api(members[0]!.client, "/mark_expired", { unique_id: target.unique_id });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: false, message: EXPIRY_MESSAGES.alreadyMarked });
    // The poster cannot mark their own deal.
    const own = await api(poster.client, "/mark_expired", { unique_id: target.unique_id });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(EXPIRY_MESSAGES.ownDeal);
    const second = await api(members[1]!.client, "/mark_expired", {
      unique_id: target.unique_id,
    });
    expect(second.body).toMatchObject({ marks: 2, is_expired: false });
    expect(await flags(target.id)).toMatchObject({ expired: false, expires_at: null });

    clock = at(301);
    const third = await api(members[2]!.client, "/mark_expired", { unique_id: target.unique_id });
    expect(third.status).toBe(200);
    expect(third.body).toMatchObject({
      message: EXPIRY_MESSAGES.expired,
      marks: 3,
      is_expired: true,
    });
    expect(await flags(target.id)).toEqual({ expired: true, expires_at: at(301) });
    const audit = await auditOf(t.deps.db, "d", target.unique_id);
    expect(audit.at(-1)).toMatchObject({
      action: "post.expire",
      actor_name: "System",
      reason: "3 members marked it expired",
    });
    // Expired at once: out of the home lists without waiting for the sweep.
    const home = await anonymousPost("/home", {});
    expect(ids(home.body.recent_deals.recent_arr)).not.toContain(target.unique_id);
    const late = await api(members[3]!.client, "/mark_expired", { unique_id: target.unique_id });
    expect(late.status).toBe(409);
    expect(late.body.message).toBe(EXPIRY_MESSAGES.alreadyExpired);
  });

  it("lets one moderator expire a deal, audit-logged under their name", async () => {
    const target = await deal({ title: "Moderator expires it" });
    const { status, body } = await api(moderator.client, "/mark_expired", {
      unique_id: target.unique_id,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ is_expired: true, marks: 0, can_reopen: true });
    expect(await flags(target.id)).toMatchObject({ expired: true, expires_at: clock });
    const audit = await auditOf(t.deps.db, "d", target.unique_id);
    expect(audit.at(-1)).toMatchObject({ action: "post.expire", actor_id: moderator.id });
  });

  it("answers 404 for an unknown, deleted or removed deal, and refuses a forum post", async () => {
    const unknown = await api(members[0]!.client, "/mark_expired", { unique_id: "nosuchdeal1" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: false, message: EXPIRY_MESSAGES.notFound });

    const deleted = await deal({ title: "Deleted deal" });
    await t.deps.db.deleteFrom("posts").where("id", "=", deleted.id).execute();
    const gone = await api(members[0]!.client, "/mark_expired", { unique_id: deleted.unique_id });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(EXPIRY_MESSAGES.notFound);

    const removed = await deal({ title: "Removed deal", status: "removed" });
    const hidden = await api(members[0]!.client, "/mark_expired", {
      unique_id: removed.unique_id,
    });
    expect(hidden.status).toBe(404);

    const forum = await deal({ title: "A discussion", post_type: "g", store_id: null });
    const notDeal = await api(members[0]!.client, "/mark_expired", {
      unique_id: forum.unique_id,
    });
    expect(notDeal.status).toBe(422);
    expect(notDeal.body.errors.unique_id).toBe(EXPIRY_MESSAGES.notADeal);
  });

  it("needs a session, a unique_id, and no one else's user_id", async () => {
    const target = await deal();
    const noSession = await anonymousPost("/mark_expired", { unique_id: target.unique_id });
    expect(noSession.status).toBe(401);
    const missing = await api(members[0]!.client, "/mark_expired", {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.unique_id).toBe("unique_id is required.");
    const other = await api(members[0]!.client, "/mark_expired", {
      unique_id: target.unique_id,
      user_id: members[1]!.id,
    });
    expect(other.status).toBe(403);
    expect(await flags(target.id)).toMatchObject({ expired: false });
    const marks = await t.deps.db
      .selectFrom("expiry_marks")
      .select("user_id")
      .where("post_id", "=", target.id)
      .execute();
    expect(marks).toEqual([]);
  });
});

describe("POST /api/reopen_deal", () => {
  it("lets the poster or a moderator reopen an expired deal; others get 403", async () => {
    const target = await deal({ title: "Reopened deal" });
    for (const m of members.slice(0, 2)) {
      await api(m.client, "/mark_expired", { unique_id: target.unique_id });
    }
    await api(moderator.client, "/mark_expired", { unique_id: target.unique_id });

    const stranger = await api(members[3]!.client, "/reopen_deal", {
      unique_id: target.unique_id,
    });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toMatchObject({
      status: false,
      message: EXPIRY_MESSAGES.reopenForbidden,
    });

    const reopened = await api(poster.client, "/reopen_deal", { unique_id: target.unique_id });
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({
      message: EXPIRY_MESSAGES.reopened,
      is_expired: false,
      marks: 0,
    });
    expect(await flags(target.id)).toEqual({ expired: false, expires_at: null });
    const audit = await auditOf(t.deps.db, "d", target.unique_id);
    expect(audit.at(-1)).toMatchObject({
      action: "post.reopen",
      actor_id: poster.id,
      reason: "Reopened by its poster",
    });
    // Its marks went with it: the members may mark it again.
    const again = await api(members[0]!.client, "/mark_expired", { unique_id: target.unique_id });
    expect(again.body).toMatchObject({ marks: 1 });

    const live = await api(poster.client, "/reopen_deal", { unique_id: target.unique_id });
    expect(live.status).toBe(409);
    expect(live.body.message).toBe(EXPIRY_MESSAGES.notExpired);

    // A deal past its own end date: a moderator reopens it.
    const ended = await deal({ expires_at: at(-3600), expired: true });
    const byModerator = await api(moderator.client, "/reopen_deal", {
      unique_id: ended.unique_id,
    });
    expect(byModerator.status).toBe(200);
    expect(await flags(ended.id)).toEqual({ expired: false, expires_at: null });
    expect((await auditOf(t.deps.db, "d", ended.unique_id)).at(-1)).toMatchObject({
      action: "post.reopen",
      actor_id: moderator.id,
    });
    const anonymousReopen = await anonymousPost("/reopen_deal", { unique_id: ended.unique_id });
    expect(anonymousReopen.status).toBe(401);
  });
});

describe("the expiry_mark_threshold setting", () => {
  it("is 3 by default, editable by administrators, and checked", async () => {
    const shown = await admin.client.get("/api/admin/settings");
    expect(shown.json().settings.expiry_mark_threshold).toBe(3);
    const bad = await admin.client.post("/api/admin/settings", { expiry_mark_threshold: 0 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.expiry_mark_threshold).toBe(SETTINGS_MESSAGES.expiryMarks);
    const saved = await admin.client.post("/api/admin/settings", { expiry_mark_threshold: "2" });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().settings.expiry_mark_threshold).toBe(2);

    const target = await deal({ title: "Two marks are enough" });
    const first = await api(members[0]!.client, "/mark_expired", { unique_id: target.unique_id });
    expect(first.body).toMatchObject({ marks: 1, threshold: 2, is_expired: false });
    const second = await api(members[1]!.client, "/mark_expired", {
      unique_id: target.unique_id,
    });
    expect(second.body).toMatchObject({ marks: 2, is_expired: true });
    await admin.client.post("/api/admin/settings", { expiry_mark_threshold: 3 });
  });
});

describe("the deal page", () => {
  it("shows how many members say a deal has expired, and the Expired? button", async () => {
    const target = await deal({ title: "Deal page marks" });
    await api(members[0]!.client, "/mark_expired", { unique_id: target.unique_id });
    const path = `/post/${target.unique_id}/${target.slug}`;
    const page = await members[1]!.client.get(path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("1 of 3 members say this has expired");
    expect(page.body).toContain("Expired?");
    const own = await poster.client.get(path);
    expect(own.body).not.toContain(">Expired?<");
    const visitor = await anonymous.get(path);
    expect(visitor.body).toContain("to say it has expired");
  });
});

/** A query parameter written as a SQL literal, for EXPLAIN of a compiled query. */
function literal(value: unknown): string {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return `'${value.toISOString()}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}
