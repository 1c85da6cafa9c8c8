import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findTrendingDeals } from "../../core/cards/repository.ts";
import type { Level } from "../../core/people/reputation/levels.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * Vote weight by level (docs/decisions/0090-vote-weight.md): a vote counts in the temperature as
 * many votes as its voter's level weighs when it is cast (core/people/reputation/privileges.ts);
 * migration 037 keeps the weights' bonus on the post beside the damping of one address's votes.
 * The like and unlike counts stay plain counts.
 */

let t: TestApp;
let poster: { id: number; client: TestClient };

beforeAll(async () => {
  t = await createTestApp();
  poster = await signInWithRole(t, "member", "Vote Weight Poster");
});
afterAll(async () => {
  await t?.close();
});

/** A fresh deal of the poster's that nobody has voted on. */
function freshDeal(title: string, values: { created_at?: Date } = {}) {
  return insertPost(t.deps.db, { title, user_id: poster.id, ...values });
}

/** Sets a member's level as the reputation job would have. */
async function setLevel(userId: number, level: Level) {
  await t.deps.db
    .insertInto("member_reputation")
    .values({ user_id: userId, level, computed_at: new Date() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ level }))
    .execute();
}

/** A new member at `level`, signed in. */
async function member(level: Level, name = `Vote Weight ${level}`) {
  const m = await signInWithRole(t, "member", name);
  if (level !== "Newcomer") await setLevel(m.id, level);
  return m;
}

/** One press of a vote button on a deal, from an address (the damping groups votes by it). */
async function vote(
  client: TestClient,
  postId: number,
  fields: Record<string, unknown>,
  address = "192.0.2.30",
) {
  const response = await client.request({
    method: "POST",
    url: "/api/product_like_unlike",
    payload: { post_id: postId, post_type: "d", ...fields },
    remoteAddress: address,
  });
  expect(response.statusCode).toBe(200);
  return response.json() as {
    is_liked: number;
    likes: number;
    unlikes: number;
    temperature: number;
  };
}

/**
 * The post's stored bonus beside one recounted here from the votes, by the rule of record 0090:
 * of a voter key's votes of one kind, two count, reasoned unlikes first, then the heaviest; a vote
 * with no key counts on its own.
 */
async function bonus(postId: number) {
  const rows = await t.deps.db
    .selectFrom("likes")
    .select(["user_id", "reaction", "voter_key", "reason", "weight"])
    .where("post_id", "=", postId)
    .execute();
  const groups = new Map<string, typeof rows>();
  for (const row of rows) {
    const key = `${row.reaction}|${row.voter_key ?? `user:${row.user_id}`}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  let recounted = 0;
  for (const group of groups.values()) {
    const counted = [...group]
      .sort((a, b) => Number(b.reason !== null) - Number(a.reason !== null) || b.weight - a.weight)
      .slice(0, 2);
    for (const v of counted) {
      const halves = v.reaction === "like" ? 2 : v.reason !== null ? -2 : -1;
      recounted += halves * (v.weight - 1);
    }
  }
  const stored = await t.deps.db
    .selectFrom("posts")
    .select(["weight_bonus", "likes_count", "unlikes_count"])
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
  return { ...stored, recounted };
}

async function details(client: TestClient | null, uniqueId: string) {
  const response = client
    ? await client.post("/api/product_details", { unique_id: uniqueId, type: "d" })
    : await t.app.inject({
        method: "POST",
        url: "/api/product_details",
        payload: { unique_id: uniqueId, type: "d" },
      });
  expect(response.statusCode).toBe(200);
  return response.json().response.product_details;
}

describe("a vote weighs by its voter's level", () => {
  it("a Trusted member's like warms a deal by 30°; the likes shown stay one", async () => {
    const deal = await freshDeal("Vote weight: Trusted like");
    const trusted = await member("Trusted");
    const answer = await vote(trusted.client, deal.id, { btn_type: "like" });
    expect(answer).toMatchObject({ is_liked: 1, likes: 1, unlikes: 0, temperature: 30 });
    expect(await bonus(deal.id)).toEqual({
      weight_bonus: 4,
      recounted: 4,
      likes_count: 1,
      unlikes_count: 0,
    });
    const page = await details(null, deal.unique_id);
    expect(page).toMatchObject({ temperature: 30, likes: 1, is_liked_weight: 0, vote_weight: 1 });
    // The voter's own page knows the weight of their vote and of a vote of theirs now.
    const own = await details(trusted.client, deal.unique_id);
    expect(own).toMatchObject({ is_liked: 1, is_liked_weight: 3, vote_weight: 3 });
    const row = await t.deps.db
      .selectFrom("likes")
      .select("weight")
      .where("post_id", "=", deal.id)
      .where("user_id", "=", trusted.id)
      .executeTakeFirstOrThrow();
    expect(row.weight).toBe(3);
  });

  it("a Regular's unlike without a reason cools by 10°, with one by 20°; a Newcomer's counts once", async () => {
    const bare = await freshDeal("Vote weight: Regular unreasoned unlike");
    const reasoned = await freshDeal("Vote weight: Regular reasoned unlike");
    const regular = await member("Regular");
    expect(await vote(regular.client, bare.id, { btn_type: "unlike" })).toMatchObject({
      unlikes: 1,
      temperature: -10,
    });
    expect(
      await vote(regular.client, reasoned.id, { btn_type: "unlike", reason: "expired" }),
    ).toMatchObject({ unlikes: 1, temperature: -20 });
    const newcomer = await member("Newcomer");
    expect(await vote(newcomer.client, bare.id, { btn_type: "like" })).toMatchObject({
      likes: 1,
      unlikes: 1,
      temperature: 0,
    });
    expect(await bonus(bare.id)).toMatchObject({ weight_bonus: -1, recounted: -1 });
    expect((await details(null, bare.unique_id)).temperature).toBe(0);
  });

  it("damping still caps a ring: three Trusted accounts from one address count as two", async () => {
    const deal = await freshDeal("Vote weight: a Trusted ring");
    const RING = "203.0.113.90";
    const ring = [await member("Trusted"), await member("Trusted"), await member("Trusted")];
    const temps = [];
    for (const m of ring)
      temps.push((await vote(m.client, deal.id, { btn_type: "like" }, RING)).temperature);
    expect(temps).toEqual([30, 60, 60]);
    expect(await bonus(deal.id)).toMatchObject({ likes_count: 3, weight_bonus: 8, recounted: 8 });
    // One of them takes theirs back: the third now counts in its place.
    expect((await vote(ring[0]!.client, deal.id, { btn_type: "like" }, RING)).temperature).toBe(60);
    expect(await bonus(deal.id)).toMatchObject({ likes_count: 2, weight_bonus: 8, recounted: 8 });
  });

  it("of a damped key's votes, the heaviest counted carry their weight", async () => {
    const deal = await freshDeal("Vote weight: a mixed ring");
    const RING = "203.0.113.91";
    const a = await member("Newcomer");
    const b = await member("Newcomer");
    const c = await member("Trusted");
    expect((await vote(a.client, deal.id, { btn_type: "like" }, RING)).temperature).toBe(10);
    expect((await vote(b.client, deal.id, { btn_type: "like" }, RING)).temperature).toBe(20);
    // The Trusted like counts in a Newcomer's place: 30 + 10.
    expect((await vote(c.client, deal.id, { btn_type: "like" }, RING)).temperature).toBe(40);
    expect(await bonus(deal.id)).toMatchObject({ weight_bonus: 4, recounted: 4 });
    // The Trusted member switches to an unreasoned unlike: two Newcomer likes and −15°.
    expect((await vote(c.client, deal.id, { btn_type: "unlike" }, RING)).temperature).toBe(5);
    expect(await bonus(deal.id)).toMatchObject({ weight_bonus: -2, recounted: -2 });
    // Unlikes of one key: the reasoned ones count first, whatever their weight.
    const d = await member("Regular");
    const e = await member("Newcomer");
    await vote(d.client, deal.id, { btn_type: "unlike", reason: "spam" }, RING);
    await vote(e.client, deal.id, { btn_type: "unlike", reason: "spam" }, RING);
    // Counted: d (−20), e (−10); c's unreasoned Trusted unlike is damped.
    expect(await bonus(deal.id)).toMatchObject({ weight_bonus: -2, recounted: -2 });
    expect((await details(null, deal.unique_id)).temperature).toBe(20 - 20 - 10);
  });

  it("a changed vote re-weighs by the level now; a vote taken back takes its own weight", async () => {
    const deal = await freshDeal("Vote weight: changed votes");
    const m = await member("Newcomer");
    expect((await vote(m.client, deal.id, { btn_type: "like" })).temperature).toBe(10);
    await setLevel(m.id, "Trusted");
    // The like keeps the weight it was cast with until it changes.
    expect((await details(null, deal.unique_id)).temperature).toBe(10);
    expect(await details(m.client, deal.unique_id)).toMatchObject({
      is_liked_weight: 1,
      vote_weight: 3,
    });
    expect(
      (await vote(m.client, deal.id, { btn_type: "unlike", reason: "wrong_price" })).temperature,
    ).toBe(-30);
    expect(await bonus(deal.id)).toMatchObject({ weight_bonus: -4, recounted: -4 });
    await setLevel(m.id, "Regular");
    // Taken back: the −30 goes whole, whatever the level now.
    expect((await vote(m.client, deal.id, { btn_type: "unlike" })).temperature).toBe(0);
    expect(await bonus(deal.id)).toMatchObject({ weight_bonus: 0, recounted: 0, unlikes_count: 0 });
    expect((await vote(m.client, deal.id, { btn_type: "like" })).temperature).toBe(20);
  });

  it("an account deletion takes a weighted voter's votes out exactly", async () => {
    const deal = await freshDeal("Vote weight: deletion");
    const RING = "203.0.113.92";
    const gone = await member("Trusted");
    const other = await member("Regular");
    const third = await member("Trusted");
    await vote(gone.client, deal.id, { btn_type: "like" }, RING);
    await vote(other.client, deal.id, { btn_type: "like" }, RING);
    await vote(third.client, deal.id, { btn_type: "like" }, RING);
    expect(await bonus(deal.id)).toMatchObject({ weight_bonus: 8, recounted: 8 });
    const deleted = await gone.client.post("/api/user_deleted", { user_id: gone.id });
    expect(deleted.statusCode).toBe(200);
    // Left: a Trusted and a Regular like, both counted: 30 + 20.
    expect(await bonus(deal.id)).toMatchObject({ likes_count: 2, weight_bonus: 6, recounted: 6 });
    expect((await details(null, deal.unique_id)).temperature).toBe(50);
  });

  it("refuses a weight the rules never give (migration 037's CHECK)", async () => {
    const deal = await freshDeal("Vote weight: check");
    const m = await member("Newcomer");
    for (const weight of [0, 4]) {
      await expect(
        t.deps.db
          .insertInto("likes")
          .values({ user_id: m.id, post_id: deal.id, reaction: "like", weight })
          .execute(),
      ).rejects.toThrow(/likes_weight_check/);
    }
  });

  it("Trending orders by the weighted temperature, as the heat index has it", async () => {
    const day = new Date(Date.now() - 2 * 86_400_000);
    const light = await freshDeal("Vote weight: two Newcomer likes", { created_at: day });
    const heavy = await freshDeal("Vote weight: one Trusted like", { created_at: day });
    await vote((await member("Newcomer")).client, light.id, { btn_type: "like" }, "198.51.100.1");
    await vote((await member("Newcomer")).client, light.id, { btn_type: "like" }, "198.51.100.2");
    await vote((await member("Trusted")).client, heavy.id, { btn_type: "like" }, "198.51.100.3");
    const ids = (await findTrendingDeals(t.deps.db, new Date(), 500)).map((row) => row.id);
    expect(ids).toContain(heavy.id);
    expect(ids.indexOf(heavy.id)).toBeLessThan(ids.indexOf(light.id));
    // The two likes' deal has the higher hot score: the order is the temperature's.
    const scores = await t.deps.db
      .selectFrom("posts")
      .select(["id", "hot_score", sql<number>`likes_count`.as("likes")])
      .where("id", "in", [light.id, heavy.id])
      .orderBy("id")
      .execute();
    expect(scores[0]!.hot_score).toBeGreaterThan(scores[1]!.hot_score);
  });
});
