import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordAudit } from "../../core/audit/audit-trail.ts";
import { memberLevel } from "../../core/people/reputation/member-reputation.ts";
import {
  FULL_RUN_EVERY_MS,
  RECOMPUTE_BATCH,
  recomputeReputation,
  reputationJob,
  scheduledRecompute,
} from "../../core/people/reputation/job.ts";
import { dealFactsOf } from "../../core/people/reputation/repository.ts";
import { monthOf, TOP_PAGE_SIZE } from "../../core/people/reputation/service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Reputation (docs/decisions/0088-reputation.md): the recompute job builds each member's
 * ledger from the rules and is idempotent; peaks are kept; administrators' thresholds change
 * levels at once; `user_profile` answers `reputation`; the ledger and the month's top contributors
 * page.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let admin: { id: number; client: TestClient };
let poster: { id: number; client: TestClient };
let voters: number[];
/** An hour into this UTC month: every line dated then counts this month. */
let thisMonth: Date;

async function signIn(name: string, role: "member" | "admin" | "moderator" = "member") {
  const db = t.deps.db;
  const id = await createTestUser(db, { name });
  if (role !== "member") await db.updateTable("users").set({ role }).where("id", "=", id).execute();
  const client = new TestClient(t.app);
  await client.signInAs(db, id);
  return { id, client };
}

/** A live deal of `userId` at `degrees` (net votes of 10° each), posted at `at`. */
async function dealAt(userId: number, degrees: number, at = thisMonth, values = {}) {
  const votes = degrees / 10;
  return insertPost(t.deps.db, {
    user_id: userId,
    likes_count: Math.max(0, votes),
    unlikes_count: Math.max(0, -votes),
    created_at: at,
    updated_at: at,
    ...values,
  });
}

const recompute = (only?: number) => recomputeReputation(t.deps, only);

async function ledgerOf(userId: number) {
  return t.deps.db
    .selectFrom("reputation_ledger")
    .select(["id", "kind", "post_id", "points", "detail"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

beforeAll(async () => {
  t = await createTestApp({ seed: "none", jobs: true });
  thisMonth = new Date(monthOf(t.deps.now()).from.getTime() + 3600_000);
  admin = await signIn("Reputation Admin", "admin");
  poster = await signIn("Hot Poster");
  voters = [];
  for (let i = 0; i < 6; i++) voters.push(await createTestUser(t.deps.db, { name: `Voter ${i}` }));
});
afterAll(async () => {
  await t?.close();
});

describe("the recompute job", () => {
  let hot: { id: number; unique_id: string };
  let coupon: { id: number };
  let removed: { id: number; unique_id: string };

  beforeAll(async () => {
    const db = t.deps.db;
    hot = await dealAt(poster.id, 140);
    await dealAt(poster.id, 10);
    coupon = await dealAt(poster.id, 0, thisMonth, { coupon_code: "SAVE10" });
    // Six other members and the poster say the coupon works: five count, the poster's never.
    await db
      .insertInto("coupon_feedback")
      .values(
        [...voters, poster.id].map((user_id, i) => ({
          post_id: coupon.id,
          user_id,
          worked: true,
          answered_at: new Date(thisMonth.getTime() + i * 60_000),
        })),
      )
      .execute();
    removed = await dealAt(poster.id, 50, thisMonth, { status: "removed" });
    await recordAudit(
      db,
      { id: admin.id, name: "Reputation Admin" },
      {
        action: "post.remove",
        itemType: "d",
        itemId: removed.unique_id,
        reason: "spam",
        before: { status: "active" },
        after: { status: "removed" },
      },
    );
  });

  it("writes a ledger that explains every point, and the points, level and badges", async () => {
    await t.jobs.send(reputationJob, {});
    await waitForJobs(t.jobs, { kind: reputationJob });
    const ledger = await ledgerOf(poster.id);
    expect(ledger.map(({ kind, post_id, points }) => ({ kind, post_id, points }))).toEqual(
      expect.arrayContaining([
        { kind: "heat", post_id: hot.id, points: 12 },
        { kind: "hot", post_id: hot.id, points: 10 },
        ...Array.from({ length: 5 }, () => ({
          kind: "working_coupon",
          post_id: coupon.id,
          points: 2,
        })),
        { kind: "removed", post_id: removed.id, points: -15 },
      ]),
    );
    // The cold deal and the removed deal's heat earn nothing.
    expect(ledger).toHaveLength(8);
    const summary = await t.deps.db
      .selectFrom("member_reputation")
      .selectAll()
      .where("user_id", "=", poster.id)
      .executeTakeFirstOrThrow();
    expect(summary).toMatchObject({ points: 17, level: "Member", hot_deals: 1 });
    expect(await memberLevel(t.deps.db, poster.id)).toBe("Member");
    const badges = await t.deps.db
      .selectFrom("member_badges")
      .select("badge_key")
      .where("user_id", "=", poster.id)
      .execute();
    expect(badges.map((row) => row.badge_key)).toEqual(["hot_deal"]);
  });

  it("is idempotent: a second run changes nothing", async () => {
    const before = await ledgerOf(poster.id);
    const again = await recompute();
    expect(again.changed).toBe(0);
    expect(again.members).toBeGreaterThan(0);
    expect(await ledgerOf(poster.id)).toEqual(before);
  });

  it("keeps the heat a deal reached when votes later cool it", async () => {
    const before = await ledgerOf(poster.id);
    await t.deps.db
      .updateTable("posts")
      .set({ likes_count: 0, unlikes_count: 3 })
      .where("id", "=", hot.id)
      .execute();
    expect((await recompute(poster.id)).changed).toBe(0);
    expect(await ledgerOf(poster.id)).toEqual(before);
  });

  it("recomputes one member on demand, and a deal going hotter earns more", async () => {
    await t.deps.db
      .updateTable("posts")
      .set({ likes_count: 20, unlikes_count: 0 })
      .where("id", "=", hot.id)
      .execute();
    const result = await recompute(poster.id);
    expect(result).toEqual({ members: 1, changed: 1 });
    const heat = (await ledgerOf(poster.id)).find((line) => line.kind === "heat")!;
    expect(heat).toMatchObject({ points: 18, detail: "Reached 200°" });
  });

  it("a moderator's removal queues the author's recount, and the points go at once", async () => {
    const author = await createTestUser(t.deps.db, { name: "Removed Author" });
    const warm = await dealAt(author, 60);
    await recompute(author);
    expect((await ledgerOf(author)).map((line) => line.points)).toEqual([4]);
    const moderator = await signIn("Removing Moderator", "moderator");
    const response = await moderator.client.post("/api/admin/moderate", {
      item_type: "d",
      item_id: warm.unique_id,
      action: "remove",
      reason: "Referral spam",
    });
    expect(response.statusCode).toBe(200);
    await waitForJobs(t.jobs, { kind: reputationJob });
    expect(await ledgerOf(author)).toMatchObject([
      { kind: "removed", post_id: warm.id, points: -15 },
    ]);
  });

  it("fifty deals that stay under 20° earn no points and no badge", async () => {
    const cold = await createTestUser(t.deps.db, { name: "Volume Poster" });
    for (let i = 0; i < 50; i++) await dealAt(cold, (i % 3) * 10);
    await recompute(cold);
    expect(await ledgerOf(cold)).toEqual([]);
    const summary = await t.deps.db
      .selectFrom("member_reputation")
      .select(["points", "level"])
      .where("user_id", "=", cold)
      .executeTakeFirstOrThrow();
    expect(summary).toEqual({ points: 0, level: "Newcomer" });
  });

  it("reads only the deals that earn something, whatever the member's number of deals", async () => {
    const member = await createTestUser(t.deps.db, { name: "Mostly Cold Poster" });
    for (let i = 0; i < 30; i++) await dealAt(member, 20);
    const warm = await dealAt(member, 30);
    const coupon = await dealAt(member, 0, thisMonth, { post_type: "d" });
    const reporter = await createTestUser(t.deps.db, { name: "Coupon Reporter" });
    await t.deps.db
      .insertInto("coupon_feedback")
      .values({ post_id: coupon.id, user_id: reporter, worked: true, answered_at: thisMonth })
      .execute();
    const facts = await dealFactsOf(t.deps.db, [member]);
    expect(facts.get(member)?.map((deal) => deal.postId)).toEqual([warm.id, coupon.id]);
    // Out of the rankings the next tests count.
    await t.deps.db.deleteFrom("coupon_feedback").where("post_id", "=", coupon.id).execute();
    await t.deps.db.deleteFrom("posts").where("user_id", "=", member).execute();
  });

  it("works through members in batches", async () => {
    expect(RECOMPUTE_BATCH).toBeGreaterThan(1);
    const result = await recompute();
    expect(result.changed).toBe(0);
  });
});

describe("level thresholds in Settings", () => {
  it("refuses thresholds that do not increase, with a message per field (422)", async () => {
    const response = await admin.client.post("/api/admin/reputation_levels", {
      member_points: 20,
      regular_points: 20,
      trusted_points: 10,
    });
    expect(response.statusCode).toBe(422);
    const body: Json = response.json();
    expect(body.errors).toMatchObject({
      regular_points: "Regular must begin at more points than Member.",
      trusted_points: "Trusted must begin at more points than Regular.",
    });
  });

  it("is for administrators only", async () => {
    const moderator = await signIn("Reputation Moderator", "moderator");
    const response = await moderator.client.post("/api/admin/reputation_levels", {
      member_points: 1,
      regular_points: 2,
      trusted_points: 3,
    });
    expect(response.statusCode).toBe(403);
  });

  it("changes every member's level at once, audited", async () => {
    const points = (
      await t.deps.db
        .selectFrom("member_reputation")
        .select("points")
        .where("user_id", "=", poster.id)
        .executeTakeFirstOrThrow()
    ).points;
    const response = await admin.client.post("/api/admin/reputation_levels", {
      member_points: 2,
      regular_points: points,
      trusted_points: points + 100,
    });
    expect(response.statusCode).toBe(200);
    expect(await memberLevel(t.deps.db, poster.id)).toBe("Regular");
    const read: Json = (await admin.client.get("/api/admin/reputation_levels")).json();
    expect(read.levels).toEqual({
      member_points: 2,
      regular_points: points,
      trusted_points: points + 100,
    });
    const audit = await t.deps.db
      .selectFrom("audit_log")
      .select(["actor_id", "before", "after"])
      .where("action", "=", "settings.reputation_levels")
      .execute();
    expect(audit).toEqual([
      {
        actor_id: admin.id,
        before: { member_points: 10, regular_points: 50, trusted_points: 200 },
        after: { member_points: 2, regular_points: points, trusted_points: points + 100 },
      },
    ]);
    // The job keeps to the new thresholds.
    await recompute();
    expect(await memberLevel(t.deps.db, poster.id)).toBe("Regular");
  });
});

describe("what members see", () => {
  it("user_profile answers reputation: points, level and badges with their rule", async () => {
    const response = await new TestClient(t.app).post("/api/user_profile", {
      user_id: poster.id,
      page: 1,
    });
    expect(response.statusCode).toBe(200);
    const { reputation }: Json = response.json().response;
    expect(reputation).toMatchObject({ points: 23, level: "Regular" });
    expect(reputation.badges).toEqual([
      {
        key: "hot_deal",
        name: "Hot deal",
        rule: "A deal that reached 100°",
        earned_at: expect.any(String),
      },
    ]);
  });

  it("the member's ledger lists what earned or cost points, paged, with each badge's standing", async () => {
    const response = await poster.client.post("/api/user/reputation", { page: 1 });
    expect(response.statusCode).toBe(200);
    const body: Json = response.json();
    expect(body.pagination).toEqual({ total: 8, per_page: 20, current_page: 1, last_page: 1 });
    const removedLine = body.ledger.find((line: Json) => line.kind === "removed");
    expect(removedLine).toMatchObject({ points: -15, post: null });
    expect(body.ledger.find((line: Json) => line.kind === "hot").post.link).toMatch(/^\/post\//);
    const streak = body.badge_standings.find((badge: Json) => badge.key === "hot_streak");
    expect(streak.standing).toBe("Hot streak: 5 deals that reached 100° — you have 1");
    expect((await new TestClient(t.app).post("/api/user/reputation", { page: 1 })).statusCode).toBe(
      401,
    );
  });

  it("/api/community_top ranks this month's members by this month's points, paged", async () => {
    // 21 more members, each with one deal this month, none as hot as the poster's, and one whose
    // only hot deal is from last month (seen hot then by the job).
    const ranked: number[] = [];
    for (let i = 0; i < 21; i++) {
      const id = await createTestUser(t.deps.db, { name: `Ranked ${i}` });
      await dealAt(id, 30 + (i % 12) * 10);
      ranked.push(id);
    }
    const lastMonth = await createTestUser(t.deps.db, { name: "Last Month" });
    const longAgo = new Date(thisMonth.getTime() - 40 * 24 * 3600_000);
    const old = await dealAt(lastMonth, 300, longAgo);
    await t.deps.db
      .insertInto("reputation_post_peaks")
      .values({ post_id: old.id, peak_degrees: 300, peak_at: longAgo, hot_at: longAgo })
      .execute();
    await recompute();

    const first: Json = (
      await new TestClient(t.app).post("/api/community_top", { page: 1 })
    ).json();
    const second: Json = (
      await new TestClient(t.app).post("/api/community_top", { page: 2 })
    ).json();
    expect(first.month).toBe(monthOf(t.deps.now()).label);
    expect(first.pagination).toEqual({
      total: 22,
      per_page: TOP_PAGE_SIZE,
      current_page: 1,
      last_page: 2,
    });
    const all = [...first.members, ...second.members];
    expect(all.map((member: Json) => member.rank)).toEqual(
      Array.from({ length: 22 }, (_, i) => i + 1),
    );
    const points = all.map((member: Json) => member.month_points);
    expect(points).toEqual([...points].sort((a, b) => b - a));
    expect(all[0]).toMatchObject({ user_id: poster.id, level: "Regular" });
    expect(all[0].badges.map((badge: Json) => badge.key)).toEqual(["hot_deal"]);
    expect(all.map((member: Json) => member.user_id)).not.toContain(lastMonth);
    // The coldest (30°, 1 point) are last; a tie goes by joining order.
    expect(all.slice(-2)).toMatchObject([
      { user_id: ranked[0], month_points: 1 },
      { user_id: ranked[12], month_points: 1 },
    ]);
  });

  it("Download my data holds the member's points, level, badges and ledger", async () => {
    const response = await poster.client.get("/api/my_data");
    expect(response.statusCode).toBe(200);
    const { reputation }: Json = response.json();
    expect(reputation).toMatchObject({ points: 23, level: "Regular" });
    expect(reputation.badges.map((badge: Json) => badge.key)).toEqual(["hot_deal"]);
    expect(reputation.ledger).toHaveLength(8);
    expect(reputation.ledger).toContainEqual(
      expect.objectContaining({ kind: "removed", points: -15, detail: "Removed by a moderator" }),
    );
  });
});

// Last: its members earn points this month, which the top contributors' counts above do not expect.
describe("scheduled runs", () => {
  async function pointsOf(userId: number) {
    const row = await t.deps.db
      .selectFrom("member_reputation")
      .select("points")
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return row?.points ?? 0;
  }
  async function setRuns(fullRunAgoMs: number) {
    const now = t.deps.now().getTime();
    await t.deps.db
      .updateTable("reputation_runs")
      .set({ run_at: new Date(now - 60_000), full_run_at: new Date(now - fullRunAgoMs) })
      .execute();
  }

  it("between full runs recount only members whose deals a vote heated; a day on, everyone", async () => {
    const voted = await signIn("Voted Poster");
    const quiet = await signIn("Quiet Poster");
    const voter = await signIn("Quarter-hour Voter");
    // Nine votes already, and one through the API makes 100°: the vote records the peak.
    const deal = await dealAt(voted.id, 90);
    // The same heat written straight into the table: no vote, so no peak until a full run.
    await dealAt(quiet.id, 100);
    const vote = await voter.client.post("/api/product_like_unlike", {
      post_id: deal.id,
      post_type: "d",
      btn_type: "like",
    });
    expect(vote.statusCode).toBe(200);

    await setRuns(60 * 60_000);
    await scheduledRecompute(t.deps);
    expect(await pointsOf(voted.id)).toBeGreaterThan(0);
    expect(await pointsOf(quiet.id)).toBe(0);

    await setRuns(FULL_RUN_EVERY_MS);
    await scheduledRecompute(t.deps);
    expect(await pointsOf(quiet.id)).toBe(await pointsOf(voted.id));
    const runs = await t.deps.db
      .selectFrom("reputation_runs")
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(runs.full_run_at?.getTime()).toBe(runs.run_at?.getTime());
  });
});
