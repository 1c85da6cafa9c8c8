import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { COLD_REASONS } from "../../core/posts/reactions/cold-reasons.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * Cold votes say why (docs/decisions/0086-cold-vote-reasons.md): the optional `reason`
 * of `POST /api/product_like_unlike`, stored on the vote; an unlike without one weighs half in the
 * temperature; the counts per reason for the poster and moderators only, on the deal call and
 * page, never in the page cache's anonymous pages.
 */

let t: TestApp;
let poster: { id: number; client: TestClient };

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  poster = await signInWithRole(t, "member", "Cold Reasons Poster");
});
afterAll(async () => {
  await t?.close();
});

/** A fresh deal of the poster's that nobody has voted on. */
async function freshDeal(title: string) {
  return insertPost(t.deps.db, { title, user_id: poster.id });
}

/** A new member, signed in. */
const member = (name = "Cold Reasons Voter") => signInWithRole(t, "member", name);

/** One press of a vote button on a deal, from an address (the damping groups votes by it). */
function vote(
  client: TestClient,
  postId: number,
  fields: Record<string, unknown>,
  address = "192.0.2.10",
) {
  return client.request({
    method: "POST",
    url: "/api/product_like_unlike",
    payload: { post_id: postId, post_type: "d", ...fields },
    remoteAddress: address,
  });
}

function voteRow(userId: number, postId: number) {
  return t.deps.db
    .selectFrom("likes")
    .select(["reaction", "reason"])
    .where("user_id", "=", userId)
    .where("post_id", "=", postId)
    .executeTakeFirst();
}

/** The stored counters beside unreasoned_unlikes recounted from the votes (migration 034's rule). */
async function counters(postId: number) {
  return t.deps.db
    .selectFrom("posts")
    .select([
      "likes_count",
      "unlikes_count",
      "damped_unlikes",
      "unreasoned_unlikes",
      sql<number>`(SELECT coalesce(sum(n), 0)::int FROM (
          SELECT CASE WHEN l.voter_key IS NULL THEN count(*) - count(l.reason)
                      ELSE greatest(0, least(count(*), 2) - count(l.reason)) END AS n
            FROM likes l
           WHERE l.post_id = posts.id AND l.reaction = 'unlike'
           GROUP BY l.voter_key, CASE WHEN l.voter_key IS NULL THEN l.user_id END) per_key)`.as(
        "recounted",
      ),
    ])
    .where("id", "=", postId)
    .executeTakeFirstOrThrow();
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
  return response.json().response;
}

describe("POST /api/product_like_unlike with a reason", () => {
  it("stores each reason on the cold vote", async () => {
    const deal = await freshDeal("Cold reasons: each reason stored");
    for (const reason of COLD_REASONS) {
      const voter = await member();
      const response = await vote(voter.client, deal.id, { btn_type: "unlike", reason });
      expect(response.statusCode, reason).toBe(200);
      expect(response.json().is_liked).toBe(2);
      expect(await voteRow(voter.id, deal.id)).toEqual({ reaction: "unlike", reason });
    }
    const after = await counters(deal.id);
    expect(after.unlikes_count).toBe(COLD_REASONS.length);
    expect(after.unreasoned_unlikes).toBe(0);
  });

  it("answers 422 with a clear message for a reason not on the list, and stores nothing", async () => {
    const deal = await freshDeal("Cold reasons: a bad reason");
    const voter = await member();
    for (const reason of ["boring", "Expired", 3]) {
      const response = await vote(voter.client, deal.id, { btn_type: "unlike", reason });
      expect(response.statusCode, String(reason)).toBe(422);
      expect(response.json().errors.reason).toBe(
        "reason must be one of expired, not_a_deal, cheaper_elsewhere, repost, spam, wrong_price.",
      );
    }
    expect(await voteRow(voter.id, deal.id)).toBeUndefined();
    expect((await counters(deal.id)).unlikes_count).toBe(0);
  });

  it("answers 422 for a reason with a hot vote, and stores nothing", async () => {
    const deal = await freshDeal("Cold reasons: a reason with a like");
    const voter = await member();
    const response = await vote(voter.client, deal.id, { btn_type: "like", reason: "expired" });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.reason).toBe(
      "A reason goes only with a cold vote (btn_type 'unlike').",
    );
    expect(await voteRow(voter.id, deal.id)).toBeUndefined();
    expect((await counters(deal.id)).likes_count).toBe(0);
  });

  it("counts an unlike without a reason, at half the weight of one with a reason", async () => {
    const reasoned = await freshDeal("Cold reasons: with a reason");
    const bare = await freshDeal("Cold reasons: without a reason");
    const voter = await member();
    const withReason = await vote(voter.client, reasoned.id, {
      btn_type: "unlike",
      reason: "repost",
    });
    const without = await vote(voter.client, bare.id, { btn_type: "unlike", reason: "" });
    expect(withReason.json()).toMatchObject({ is_liked: 2, unlikes: 1, temperature: -10 });
    expect(without.json()).toMatchObject({ is_liked: 2, unlikes: 1, temperature: -5 });
    // Both count; the one with a reason cools the deal more, on the page's data as in the answer.
    const [a, b] = [await details(null, reasoned.unique_id), await details(null, bare.unique_id)];
    expect(a.product_details.unlikes).toBe(b.product_details.unlikes);
    expect(a.product_details.temperature).toBeLessThan(b.product_details.temperature);
    expect([a.product_details.temperature, b.product_details.temperature]).toEqual([-10, -5]);
    expect(await voteRow(voter.id, bare.id)).toEqual({ reaction: "unlike", reason: null });
  });

  it("keeps the vote row and the weights consistent when the vote changes or is taken back", async () => {
    const deal = await freshDeal("Cold reasons: change and take back");
    const voter = await member();
    const press = (fields: Record<string, unknown>) => vote(voter.client, deal.id, fields);

    expect((await press({ btn_type: "unlike", reason: "expired" })).json().temperature).toBe(-10);
    // Switching to hot drops the reason.
    expect((await press({ btn_type: "like" })).json().temperature).toBe(10);
    expect(await voteRow(voter.id, deal.id)).toEqual({ reaction: "like", reason: null });
    // Back to cold without a reason: half a vote.
    expect((await press({ btn_type: "unlike" })).json().temperature).toBe(-5);
    expect(await voteRow(voter.id, deal.id)).toEqual({ reaction: "unlike", reason: null });
    expect(await counters(deal.id)).toMatchObject({ unlikes_count: 1, unreasoned_unlikes: 1 });
    // Pressing cold again takes the vote back, with or without a reason.
    expect((await press({ btn_type: "unlike", reason: "spam" })).json()).toMatchObject({
      is_liked: -1,
      temperature: 0,
    });
    expect(await voteRow(voter.id, deal.id)).toBeUndefined();
    expect(await counters(deal.id)).toMatchObject({
      likes_count: 0,
      unlikes_count: 0,
      unreasoned_unlikes: 0,
      recounted: 0,
    });
  });

  it("keeps the unreasoned count exact beside the damping of one address's votes", async () => {
    const deal = await freshDeal("Cold reasons: damped");
    const FARM = "203.0.113.77";
    const farm = [await member(), await member(), await member(), await member()];
    // Two without a reason, then two with: of the four, two count, the reasoned ones first.
    await vote(farm[0]!.client, deal.id, { btn_type: "unlike" }, FARM);
    await vote(farm[1]!.client, deal.id, { btn_type: "unlike" }, FARM);
    expect(await counters(deal.id)).toMatchObject({ unreasoned_unlikes: 2, recounted: 2 });
    await vote(farm[2]!.client, deal.id, { btn_type: "unlike", reason: "spam" }, FARM);
    const last = await vote(farm[3]!.client, deal.id, { btn_type: "unlike", reason: "spam" }, FARM);
    expect(await counters(deal.id)).toMatchObject({
      unlikes_count: 4,
      damped_unlikes: 2,
      unreasoned_unlikes: 0,
      recounted: 0,
    });
    expect(last.json().temperature).toBe(-20);

    // One with a reason switches to hot: one reasoned and one unreasoned unlike count.
    const switched = await vote(farm[2]!.client, deal.id, { btn_type: "like" }, FARM);
    expect(switched.json().temperature).toBe(10 - 10 - 5);
    expect(await counters(deal.id)).toMatchObject({ unreasoned_unlikes: 1, recounted: 1 });

    // Another address's unreasoned unlike counts on its own; an account deletion recounts.
    const elsewhere = await member();
    await vote(elsewhere.client, deal.id, { btn_type: "unlike" }, "198.51.100.40");
    expect(await counters(deal.id)).toMatchObject({ unreasoned_unlikes: 2, recounted: 2 });
    await t.deps.db.deleteFrom("likes").where("user_id", "=", farm[3]!.id).execute();
    expect(await counters(deal.id)).toMatchObject({ unreasoned_unlikes: 3, recounted: 3 });
  });

  it("refuses a reason the database does not know (migration 034's CHECK)", async () => {
    const deal = await freshDeal("Cold reasons: check");
    const voter = await member();
    const insert = (reaction: "like" | "unlike", reason: string) =>
      sql`INSERT INTO likes (user_id, post_id, reaction, reason)
          VALUES (${voter.id}, ${deal.id}, ${reaction}, ${reason})`.execute(t.deps.db);
    await expect(insert("unlike", "boring")).rejects.toThrow(/likes_reason_check/);
    await expect(insert("like", "expired")).rejects.toThrow(/likes_reason_check/);
  });
});

describe("the counts per reason", () => {
  let deal: { id: number; unique_id: string; slug: string };
  let moderator: { id: number; client: TestClient };
  let other: { id: number; client: TestClient };

  beforeAll(async () => {
    deal = await freshDeal("Cold reasons: counts for the poster");
    moderator = await signInWithRole(t, "moderator", "Cold Reasons Moderator");
    other = await member("Cold Reasons Other");
    for (const reason of ["expired", "repost", "expired", undefined] as const) {
      const voter = await member();
      await vote(voter.client, deal.id, { btn_type: "unlike", ...(reason ? { reason } : {}) });
    }
  });

  const EXPECTED = {
    by_reason: [
      { reason: "expired", label: "Expired", count: 2 },
      { reason: "repost", label: "Repost", count: 1 },
    ],
    without_reason: 1,
  };

  it("are in the deal call for the poster and moderators only", async () => {
    expect((await details(poster.client, deal.unique_id)).cold_reasons).toEqual(EXPECTED);
    expect((await details(moderator.client, deal.unique_id)).cold_reasons).toEqual(EXPECTED);
    expect(await details(other.client, deal.unique_id)).not.toHaveProperty("cold_reasons");
    expect(await details(null, deal.unique_id)).not.toHaveProperty("cold_reasons");
  });

  it("are on the deal page for the poster and moderators, never for others nor in the cached page", async () => {
    const url = `/post/${deal.unique_id}/${deal.slug}`;
    const COUNTS = "Expired 2 · Repost 1 · No reason 1";
    for (const viewer of [poster, moderator]) {
      const page = await viewer.client.get(url);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain("Cold votes:");
      expect(page.body).toContain(COUNTS);
    }
    const otherPage = await other.client.get(url);
    expect(otherPage.statusCode).toBe(200);
    expect(otherPage.body).not.toContain("Cold votes:");

    // A visitor's page is rendered, kept, and served from the page cache: no counts in either.
    const visitor = { [XSRF_COOKIE]: "returning-visitor-token-0123456789" };
    const rendered = await t.app.inject({ method: "GET", url, cookies: visitor });
    const cached = await t.app.inject({ method: "GET", url, cookies: visitor });
    expect(rendered.statusCode).toBe(200);
    expect(cached.headers.etag, "served from the page cache").toBeTruthy();
    for (const page of [rendered, cached]) {
      expect(page.body).not.toContain("Cold votes:");
      expect(page.body).not.toContain("cold_reasons");
    }
    // The poster's page after it is still theirs.
    expect((await poster.client.get(url)).body).toContain(COUNTS);
  });
});
