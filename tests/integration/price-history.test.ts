import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HISTORY_MESSAGES, MERGE_MESSAGES } from "../../core/posts/prices/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertPost, signedInStaff } from "../helpers/console.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Price history (docs/decisions/0040-price-history.md): deals grouped into products by
 * their link or a moderator's merge, the product's points, and the "Lowest price in 90 days" flag,
 * precomputed when a deal is posted, edited, moderated, merged or deleted. The clock is pinned and
 * moved by hand: every rule is about days between postings.
 */

const DAY = 24 * 60 * 60 * 1000;
const T0 = new Date("2026-03-02T12:00:00.000Z");
let clock = T0;
const at = (days: number) => new Date(T0.getTime() + days * DAY);

let t: TestApp;
let poster: TestClient;
let posterId: number;
let moderator: { id: number; client: TestClient };
let admin: { id: number; client: TestClient };
let member: TestClient;
const ids = { dealCategory: 0, store: 0, category: 0 };

beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
  const db = t.deps.db;
  const users = await db.selectFrom("users").select("id").orderBy("id").limit(3).execute();
  posterId = users[1]!.id;
  poster = new TestClient(t.app);
  await poster.signInAs(db, posterId);
  member = new TestClient(t.app);
  await member.signInAs(db, users[2]!.id);
  moderator = await signedInStaff(t.app, db, "moderator");
  admin = await signedInStaff(t.app, db, "admin");
  const kinds = await db.selectFrom("forum_categories").select(["id", "kind"]).execute();
  ids.dealCategory = kinds.find((k) => k.kind === "deal")!.id;
  ids.store = (await db.selectFrom("stores").select("id").executeTakeFirstOrThrow()).id;
  ids.category = (await db.selectFrom("categories").select("id").executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

/**
 * Moves the clock to `day` days after T0. The clock runs over years, beyond a session's life: the
 * test's sessions are kept alive (a request renews a session from the clock it reads).
 */
async function setClock(day: number) {
  clock = at(day);
  await t.deps.db
    .updateTable("sessions")
    .set({ expires_at: new Date(clock.getTime() + 365 * DAY) })
    .execute();
}

/** Posts a deal through `POST /api/save_deal` at `day` days after T0; its unique_id. */
async function postDeal(day: number, price: number | "", link: string, title = "Glue sticks") {
  await setClock(day);
  const body = await multipartBody({
    user_id: posterId,
    deal_category: ids.dealCategory,
    store_id: ids.store,
    category_id: ids.category,
    title,
    price: String(price),
    link,
    type: "d",
    deal_description: "<p>A classroom staple.</p>",
  });
  const response = await poster.request({
    method: "POST",
    url: "/api/save_deal",
    payload: body.payload,
    headers: body.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().response.unique_id as string;
}

/** Ends a deal now, as a moderator's "expire" does, so the same link may be posted again. */
async function expire(uniqueId: string) {
  const response = await moderator.client.post("/api/admin/posts/bulk", {
    ids: [uniqueId],
    action: "expire",
  });
  expect(response.statusCode, response.body).toBe(200);
}

async function flags(...uniqueIds: string[]) {
  const rows = await t.deps.db
    .selectFrom("posts")
    .select(["unique_id", "lowest_in_90d", "product_id"])
    .where("unique_id", "in", uniqueIds)
    .execute();
  const byId = new Map(rows.map((row) => [row.unique_id, row]));
  return uniqueIds.map((id) => byId.get(id)!.lowest_in_90d);
}

async function productOf(uniqueId: string) {
  const row = await t.deps.db
    .selectFrom("posts")
    .select("product_id")
    .where("unique_id", "=", uniqueId)
    .executeTakeFirstOrThrow();
  return row.product_id;
}

const history = (uniqueId: unknown, client: TestClient | null = null) =>
  client
    ? client.post("/api/price_history", { unique_id: uniqueId })
    : t.app.inject({ method: "POST", url: "/api/price_history", payload: { unique_id: uniqueId } });

const edit = (uniqueId: string, fields: Record<string, unknown>) =>
  moderator.client.post("/api/admin/posts/update", { unique_id: uniqueId, ...fields });

describe("products by link key", () => {
  it("groups deals whose links differ only in tracking, www and a trailing slash", async () => {
    const first = await postDeal(0, 30, "https://www.pricetest.example/p/glue?utm_source=mail");
    await expire(first);
    const second = await postDeal(10, 25, "https://pricetest.example/p/glue/?ref=feed");
    const other = await postDeal(11, 5, "https://pricetest.example/p/tape");
    expect(await productOf(first)).not.toBeNull();
    expect(await productOf(second)).toBe(await productOf(first));
    expect(await productOf(other)).not.toBe(await productOf(first));

    const response = await history(second);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      points: [
        { price: 30, date: at(0).toISOString(), unique_id: first },
        { price: 25, date: at(10).toISOString(), unique_id: second },
      ],
    });
    // The expired deal answers the same history: it is part of it.
    expect((await history(first)).json().points).toHaveLength(2);
    // Cheaper than the one price before it: the badge; the first deal had nothing to beat.
    expect(await flags(first, second)).toEqual([false, true]);
  });

  it("shows the badge, the points and the previous price on the deal's card and page data", async () => {
    const first = await postDeal(20, 12.5, "https://pricetest.example/p/scissors");
    await expire(first);
    const second = await postDeal(30, 9.99, "https://pricetest.example/p/scissors");
    const response = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: second },
    });
    const details = response.json().response;
    expect(details.product_details.lowest_in_90d).toBe(true);
    expect(details.price_history).toEqual({
      points: [
        { price: 12.5, date: at(20).toISOString(), unique_id: first },
        { price: 9.99, date: at(30).toISOString(), unique_id: second },
      ],
      previous: { price: 12.5, date: at(20).toISOString(), unique_id: first },
      lowest_in_90d: true,
    });
    const older = (
      await t.app.inject({
        method: "POST",
        url: "/api/product_details",
        payload: { unique_id: first },
      })
    ).json().response;
    expect(older.price_history.previous).toBeNull();
    expect(older.product_details.lowest_in_90d).toBe(false);
  });

  it("keeps a deal without a link, or without a price, as its own single point or none", async () => {
    const linkless = await postDeal(40, 7, "");
    expect(await productOf(linkless)).toBeNull();
    expect((await history(linkless)).json().points).toEqual([
      { price: 7, date: at(40).toISOString(), unique_id: linkless },
    ]);
    expect(await flags(linkless)).toEqual([false]);
    const priceless = await postDeal(41, "", "https://pricetest.example/p/free-sample");
    expect((await history(priceless)).json().points).toEqual([]);
  });

  it("adopts deals of the same link stored before products existed", async () => {
    const old = await insertPost(t.deps.db, {
      price: 50,
      link: "https://pricetest.example/p/easel",
      link_key: "pricetest.example/p/easel",
      created_at: at(45),
      expires_at: at(46),
    });
    expect(await productOf(old.unique_id)).toBeNull();
    const fresh = await postDeal(50, 45, "https://pricetest.example/p/easel");
    expect(await productOf(old.unique_id)).toBe(await productOf(fresh));
    expect(await flags(old.unique_id, fresh)).toEqual([false, true]);
  });
});

describe("Lowest price in 90 days", () => {
  const link = "https://pricetest.example/p/markers";
  const deals: Record<string, string> = {};

  it("compares with the product's prices of the 90 days before the deal only", async () => {
    deals.c = await postDeal(100, 20, link);
    await expire(deals.c);
    deals.e = await postDeal(150, 30, link);
    await expire(deals.e);
    // $25 is above day 100's $20, but that price is 100 days old: only day 150's $30 counts.
    deals.d = await postDeal(200, 25, link);
    expect(await flags(deals.c, deals.e, deals.d)).toEqual([false, false, true]);
  });

  it("a price of exactly 90 days before still counts; one a moment older does not", async () => {
    const edge = "https://pricetest.example/p/window";
    const a = await insertPost(t.deps.db, { price: 10, created_at: at(700), expires_at: at(701) });
    const b = await insertPost(t.deps.db, { price: 8, created_at: at(710), expires_at: at(711) });
    await t.deps.db
      .updateTable("posts")
      .set({ link: edge, link_key: "pricetest.example/p/window" })
      .where("id", "in", [a.id, b.id])
      .execute();
    const c = await postDeal(790, 9, edge); // 90 days after a, 80 after b ($8 is cheaper)
    expect(await flags(c)).toEqual([false]);
    await expire(c);
    const d = await postDeal(800.0000001, 9.5, edge); // b is 90 days and a moment old
    // c ($9, 10 days before) is cheaper than d, so d does not hold either.
    expect(await flags(d)).toEqual([false]);
    await expire(d);
    const e = await postDeal(800.5, 8.5, edge); // b is out; a is out; c $9 and d $9.5 are in
    expect(await flags(e)).toEqual([true]);
  });

  it("follows an edit of the price both ways, and a cheaper deal posted later", async () => {
    expect((await edit(deals.d!, { price: "35" })).statusCode).toBe(200);
    expect(await flags(deals.d!)).toEqual([false]);
    expect((await edit(deals.d!, { price: "29.50" })).statusCode).toBe(200);
    expect(await flags(deals.d!)).toEqual([true]);

    await setClock(205);
    await expire(deals.d!);
    deals.f = await postDeal(210, 22, link);
    // f beats d: d is no longer the lowest; f is.
    expect(await flags(deals.d!, deals.f)).toEqual([false, true]);
  });

  it("follows deletion and moderation of the product's deals", async () => {
    await setClock(215);
    const deleted = await admin.client.post("/api/admin/posts/delete", { ids: [deals.f] });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await flags(deals.d!)).toEqual([true]);

    // Hiding e ($30, the only price in d's window) leaves d nothing to beat.
    const hide = await moderator.client.post("/api/admin/moderate", {
      item_type: "d",
      item_id: deals.e,
      action: "hide",
      reason: "Checking the price",
    });
    expect(hide.statusCode, hide.body).toBe(200);
    expect(await flags(deals.d!)).toEqual([false]);
    const points = (await history(deals.d)).json().points.map((p: { price: number }) => p.price);
    expect(points).toEqual([20, 29.5]);

    const restore = await moderator.client.post("/api/admin/moderate", {
      item_type: "d",
      item_id: deals.e,
      action: "restore",
    });
    expect(restore.statusCode, restore.body).toBe(200);
    expect(await flags(deals.d!)).toEqual([true]);
  });

  it("moves with a link edit: the deal joins the new link's product and leaves the old one", async () => {
    const lone = await postDeal(220, 19, "https://pricetest.example/p/other-markers");
    expect((await edit(lone, { link: link })).statusCode).toBe(200);
    expect(await productOf(lone)).toBe(await productOf(deals.d!));
    // $19 is below every price of the 90 days before it (d's $29.50) and the latest: it holds.
    expect(await flags(lone, deals.d!)).toEqual([true, false]);
  });
});

describe("POST /api/price_history refusals", () => {
  it("answers 404 with a message for an unknown, deleted, held or educator post", async () => {
    const unknown = await history("nosuchdeal1");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: false, message: HISTORY_MESSAGES.notFound });

    const gone = await insertPost(t.deps.db, { price: 3 });
    await admin.client.post("/api/admin/posts/delete", { ids: [gone.unique_id] });
    expect((await history(gone.unique_id)).statusCode).toBe(404);

    for (const status of ["pending", "hidden", "removed"] as const) {
      const held = await insertPost(t.deps.db, { price: 3, status });
      const response = await history(held.unique_id);
      expect(response.statusCode, status).toBe(404);
      expect(response.json().message).toBe(HISTORY_MESSAGES.notFound);
    }
    const educator = await insertPost(t.deps.db, { post_type: "g" });
    expect((await history(educator.unique_id)).statusCode).toBe(404);
  });

  it("answers 422 for a missing or malformed unique_id", async () => {
    const missing = await t.app.inject({ method: "POST", url: "/api/price_history", payload: {} });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.unique_id).toBe("unique_id is required.");
    expect((await history({ nested: true })).statusCode).toBe(422);
  });
});

describe("POST /api/admin/posts/merge_product", () => {
  const merge = (body: Record<string, unknown>, client = moderator.client) =>
    client.post("/api/admin/posts/merge_product", body);

  it("merges a product into another, audited, and later deals of its link follow", async () => {
    const g = await postDeal(500, 40, "https://pricetest.example/p/stapler-red");
    const h = await postDeal(505, 35, "https://otherstore.example/item/4411");
    expect(await flags(g, h)).toEqual([false, false]);

    const response = await merge({ unique_id: h, into_unique_id: g, reason: "Same stapler" });
    expect(response.statusCode, response.body).toBe(200);
    const product = await productOf(g);
    expect(response.json()).toMatchObject({ status: "true", product_id: product, deals: [g, h] });
    expect(await productOf(h)).toBe(product);
    expect(await flags(g, h)).toEqual([false, true]);
    expect((await history(g)).json().points.map((p: { unique_id: string }) => p.unique_id)).toEqual(
      [g, h],
    );

    const [entry] = await auditOf(t.deps.db, "d", h);
    expect(entry).toMatchObject({
      action: "post.merge_product",
      actor_id: moderator.id,
      reason: "Same stapler",
      after: { product_id: product, into: g, deals: [g, h] },
    });

    await expire(h);
    const later = await postDeal(510, 30, "https://otherstore.example/item/4411?utm_medium=x");
    expect(await productOf(later)).toBe(product);
    expect(await flags(g, h, later)).toEqual([false, false, true]);

    const again = await merge({ unique_id: later, into_unique_id: g });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MERGE_MESSAGES.already);
  });

  it("merges deals without links into a product of their own", async () => {
    const a = await postDeal(600, 14, "");
    const b = await postDeal(601, 12, "");
    // The deal to merge into may be named by its page's address, as a moderator pastes it.
    const response = await merge({
      unique_id: b,
      into_unique_id: `http://localhost:3000/post/${a}/glue-sticks`,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await productOf(a)).not.toBeNull();
    expect(await productOf(b)).toBe(await productOf(a));
    expect(await flags(a, b)).toEqual([false, true]);
  });

  it("refuses a merge into itself, of unknown deals or educator posts, and by members", async () => {
    const deal = await insertPost(t.deps.db, { price: 10 });
    const other = await insertPost(t.deps.db, { price: 11 });
    const itself = await merge({ unique_id: deal.unique_id, into_unique_id: deal.unique_id });
    expect(itself.statusCode).toBe(422);
    expect(itself.json().errors.into_unique_id).toBe(MERGE_MESSAGES.itself);

    const unknown = await merge({ unique_id: "nosuchdeal1", into_unique_id: deal.unique_id });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe(MERGE_MESSAGES.notFound);
    const unknownInto = await merge({ unique_id: deal.unique_id, into_unique_id: "nosuchdeal1" });
    expect(unknownInto.statusCode).toBe(404);
    expect(unknownInto.json().message).toBe(MERGE_MESSAGES.intoNotFound);

    const educator = await insertPost(t.deps.db, { post_type: "g" });
    const notDeal = await merge({ unique_id: educator.unique_id, into_unique_id: deal.unique_id });
    expect(notDeal.statusCode).toBe(422);
    expect(notDeal.json().errors.unique_id).toBe(MERGE_MESSAGES.notDeal);

    const missing = await merge({ unique_id: deal.unique_id });
    expect(missing.statusCode).toBe(422);

    const byMember = await merge(
      { unique_id: deal.unique_id, into_unique_id: other.unique_id },
      member,
    );
    expect(byMember.statusCode).toBe(403);
    const byVisitor = await t.app.inject({
      method: "POST",
      url: "/api/admin/posts/merge_product",
      payload: { unique_id: deal.unique_id, into_unique_id: other.unique_id },
    });
    expect(byVisitor.statusCode).toBe(401);
    expect(await productOf(deal.unique_id)).toBeNull();
    expect(await auditOf(t.deps.db, "d", deal.unique_id)).toEqual([]);
  });
});

describe("malformed input", () => {
  const MALFORMED: unknown[] = [null, true, 12, -1, "", " ", "x".repeat(5000), [], {}, ["a"]];

  it("never breaks either call: a 4xx with a message for every bad field and body", async () => {
    const deal = await insertPost(t.deps.db, { price: 10 });
    const other = await insertPost(t.deps.db, { price: 12 });
    const calls = [
      { url: "/api/price_history", body: { unique_id: deal.unique_id } },
      {
        url: "/api/admin/posts/merge_product",
        body: { unique_id: deal.unique_id, into_unique_id: other.unique_id },
      },
    ];
    for (const call of calls) {
      for (const field of Object.keys(call.body)) {
        for (const value of MALFORMED) {
          const response = await moderator.client.post(call.url, { ...call.body, [field]: value });
          const what = `${call.url} ${field}=${JSON.stringify(value)?.slice(0, 20)}`;
          expect(response.statusCode, what).toBeGreaterThanOrEqual(400);
          expect(response.statusCode, what).toBeLessThan(500);
          expect(typeof response.json().message, what).toBe("string");
        }
      }
    }
    expect(await productOf(deal.unique_id)).toBeNull();
  });
});
