import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { networkLabel, networkPrefix } from "../../core/moderation/voting/guard.ts";
import { checkSerialVoting, serialVotingJob } from "../../core/moderation/voting/job.ts";
import {
  NEW_ACCOUNTS_ON_ONE_NETWORK,
  SERIAL_POSTS_BY_ONE_POSTER,
} from "../../core/moderation/voting/rules.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertComment, insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * Vote integrity (docs/decisions/0091-vote-integrity.md): the console's list of a member's votes
 * with their network's label, the serial-voting job's two findings as reports of the site's own
 * (never twice), and staff's warning, then voting block, told to the member and audited.
 */

const DAY_MS = 24 * 3600_000;
let offset = 0;
let t: TestApp;
let moderator: { id: number; client: TestClient };

beforeAll(async () => {
  t = await createTestApp({ pages: true, jobs: true, now: () => new Date(Date.now() + offset) });
  moderator = await signInWithRole(t, "moderator", "Integrity Moderator");
});
afterAll(async () => {
  await t?.close();
});

const member = (name: string) => signInWithRole(t, "member", name);

function vote(
  client: TestClient,
  post: { id: number; post_type: "d" | "g" },
  btn_type: "like" | "unlike",
  address = "192.0.2.10",
) {
  return client.request({
    method: "POST",
    url: "/api/product_like_unlike",
    payload: { post_id: post.id, post_type: post.post_type, btn_type },
    remoteAddress: address,
  });
}

function votesOf(userId: number, client = moderator.client, page = 1) {
  return client.get(`/api/admin/users/votes?user_id=${userId}&page=${page}`);
}

function openReports(itemType: string, itemId: string) {
  return t.deps.db
    .selectFrom("reports")
    .select(["id", "reason", "note", "reporter_id", "finding"])
    .where("item_type", "=", itemType as "user")
    .where("item_id", "=", itemId)
    .where("status", "=", "open")
    .execute();
}

function auditOf(userId: number) {
  return t.deps.db
    .selectFrom("audit_log")
    .select(["action", "actor_id", "reason", "after"])
    .where("item_type", "=", "user")
    .where("item_id", "=", String(userId))
    .orderBy("id")
    .execute();
}

describe("the console's list of a member's votes", () => {
  it("lists votes newest first with the post, hot or cold, its reason and a network label", async () => {
    const voter = await member("Listed Voter");
    const poster = await member("Listed Poster");
    const first = await insertPost(t.deps.db, { user_id: poster.id, title: "First listed deal" });
    const second = await insertPost(t.deps.db, { user_id: poster.id, title: "Second listed deal" });
    const third = await insertPost(t.deps.db, { user_id: poster.id, title: "Third listed deal" });
    expect((await vote(voter.client, first, "like", "192.0.2.10")).statusCode).toBe(200);
    expect((await vote(voter.client, second, "like", "192.0.2.99")).statusCode).toBe(200);
    const cold = await voter.client.request({
      method: "POST",
      url: "/api/product_like_unlike",
      payload: { post_id: third.id, post_type: "d", btn_type: "unlike", reason: "repost" },
      remoteAddress: "2001:db8:aa:bb::1",
    });
    expect(cold.statusCode).toBe(200);
    // Distinct times, so that the order is the votes' order.
    for (const [post, ago] of [
      [first, 3],
      [second, 2],
      [third, 1],
    ] as const) {
      await t.deps.db
        .updateTable("likes")
        .set({ created_at: new Date(Date.now() - ago * 60_000) })
        .where("user_id", "=", voter.id)
        .where("post_id", "=", post.id)
        .execute();
    }

    const answer = await votesOf(voter.id);
    expect(answer.statusCode).toBe(200);
    const body = answer.json();
    expect(body.member).toMatchObject({ id: voter.id, name: "Listed Voter", deleted: false });
    expect(body.total).toBe(3);
    expect(body.votes.map((v: { post: { title: string } }) => v.post.title)).toEqual([
      "Third listed deal",
      "Second listed deal",
      "First listed deal",
    ]);
    const [v3, v2, v1] = body.votes;
    expect(v3).toMatchObject({ reaction: "unlike", reason: "repost" });
    expect(v1).toMatchObject({ reaction: "like", reason: null });
    expect(v1.post).toMatchObject({ poster_id: poster.id, poster_name: "Listed Poster" });
    expect(v1.post.link).toMatch(new RegExp(`^/post/${first.unique_id}/`));
    // One /24, one label; another network, another label; never the address.
    expect(v1.network).toMatch(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/);
    expect(v2.network).toBe(v1.network);
    expect(v3.network).not.toBe(v1.network);
    const stored = await t.deps.db
      .selectFrom("likes")
      .select("voter_network")
      .where("user_id", "=", voter.id)
      .execute();
    for (const row of stored) expect(row.voter_network).not.toContain("192.0.2");
    expect(JSON.stringify(body)).not.toContain("192.0.2");
  });

  it("reads networks as a /24 or a /48", () => {
    expect(networkPrefix("192.0.2.77")).toBe("192.0.2.0/24");
    expect(networkPrefix("2001:db8:aa:bb::")).toBe("2001:db8:aa::/48");
    expect(networkPrefix("2001:db8::")).toBe("2001:db8:0::/48");
    expect(networkPrefix("::ffff:192.0.2.5")).toBe("192.0.2.0/24");
    expect(networkLabel("k", "2001:db8:aa:1::")).toBe(networkLabel("k", "2001:db8:aa:ff::"));
    expect(networkLabel("k", "192.0.2.1")).not.toBe(networkLabel("j", "192.0.2.1"));
  });

  it("is the moderators': a member is refused, an unknown member is not found", async () => {
    const someone = await member("Curious Member");
    expect((await votesOf(someone.id, someone.client)).statusCode).toBe(403);
    expect((await votesOf(99_999_999)).statusCode).toBe(404);
    expect((await moderator.client.get(`/admin/users/${someone.id}`)).statusCode).toBe(200);
    expect((await someone.client.get(`/admin/users/${someone.id}`)).statusCode).toBe(403);
    expect((await moderator.client.get("/admin/users/99999999")).statusCode).toBe(404);
    expect((await moderator.client.get("/admin/users/x1")).statusCode).toBe(404);
  });
});

describe("the serial-voting job", () => {
  it("reports a member voting one way on many posts of one poster, once", async () => {
    const voter = await member("Serial Voter");
    const poster = await member("Favoured Poster");
    const other = await member("Other Poster");
    for (let i = 0; i < SERIAL_POSTS_BY_ONE_POSTER; i++) {
      const post = await insertPost(t.deps.db, { user_id: poster.id, title: `Favoured ${i}` });
      expect((await vote(voter.client, post, "like")).statusCode).toBe(200);
    }
    // One fewer on another poster: no finding.
    for (let i = 0; i < SERIAL_POSTS_BY_ONE_POSTER - 1; i++) {
      const post = await insertPost(t.deps.db, { user_id: other.id, title: `Other ${i}` });
      expect((await vote(voter.client, post, "like")).statusCode).toBe(200);
    }
    await checkSerialVoting(t.deps);
    const reports = await openReports("user", String(voter.id));
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      reason: "serial voting",
      reporter_id: null,
      finding: `serial:${voter.id}:${poster.id}:like`,
    });
    expect(reports[0]!.note).toContain(
      `voted hot on ${SERIAL_POSTS_BY_ONE_POSTER} posts by Favoured Poster (#${poster.id})`,
    );
    expect(reports[0]!.note).not.toContain("Other Poster");

    // Run again, and on the queue: still one.
    await checkSerialVoting(t.deps);
    await t.jobs.send(serialVotingJob, {});
    await waitForJobs(t.jobs, { kind: serialVotingJob });
    expect(await openReports("user", String(voter.id))).toHaveLength(1);

    // Resolved by a moderator: not filed again for the same votes.
    await t.deps.db
      .updateTable("reports")
      .set({ status: "resolved", resolution: "dismissed", resolved_at: new Date() })
      .where("id", "=", reports[0]!.id)
      .execute();
    await checkSerialVoting(t.deps);
    expect(await openReports("user", String(voter.id))).toHaveLength(0);

    // The queue shows it, by the site.
    const audit = await t.deps.db
      .selectFrom("audit_log")
      .select(["actor_name", "action"])
      .where("action", "=", "report.serial_voting")
      .where("item_id", "=", String(voter.id))
      .execute();
    expect(audit).toEqual([{ actor_name: "System", action: "report.serial_voting" }]);
  });

  it("reports new accounts voting one way on one post from one network, once", async () => {
    const poster = await member("Crowded Poster");
    const post = await insertPost(t.deps.db, { user_id: poster.id, title: "Crowded deal" });
    const calm = await insertPost(t.deps.db, { user_id: poster.id, title: "Calm deal" });
    const names: string[] = [];
    for (let i = 0; i < NEW_ACCOUNTS_ON_ONE_NETWORK; i++) {
      const newcomer = await member(`Newcomer ${i}`);
      names.push(`Newcomer ${i} (#${newcomer.id})`);
      const address = `203.0.113.${10 + i}`;
      expect((await vote(newcomer.client, post, "unlike", address)).statusCode).toBe(200);
      // On the calm deal, all but one of them, and an old account from the same network.
      if (i > 0)
        expect((await vote(newcomer.client, calm, "unlike", address)).statusCode).toBe(200);
    }
    const old = await member("Old Neighbour");
    await t.deps.db
      .updateTable("users")
      .set({ created_at: new Date(Date.now() - 30 * DAY_MS) })
      .where("id", "=", old.id)
      .execute();
    expect((await vote(old.client, calm, "unlike", "203.0.113.200")).statusCode).toBe(200);

    await checkSerialVoting(t.deps);
    await checkSerialVoting(t.deps);
    const reports = await openReports("d", post.unique_id);
    expect(reports).toHaveLength(1);
    expect(reports[0]!.reason).toBe("serial voting");
    expect(reports[0]!.note).toContain(`${NEW_ACCOUNTS_ON_ONE_NETWORK} accounts younger than`);
    expect(reports[0]!.note).toContain("voted cold on this post from network");
    for (const name of names) expect(reports[0]!.note).toContain(name);
    expect(await openReports("d", calm.unique_id)).toHaveLength(0);

    // The moderation queue lists it beside members' reports.
    const queue = await moderator.client.get("/api/admin/reports");
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain("Crowded deal");
  });
});

describe("warnings and voting blocks", () => {
  it("warns, then blocks until a date; the member is told, votes are refused, then work again", async () => {
    const voter = await member("Blocked Voter");
    const poster = await member("Blocked Voter's Poster");
    const deal = await insertPost(t.deps.db, { user_id: poster.id, title: "Deal to vote on" });
    const until = new Date(Date.now() + 3 * DAY_MS).toISOString().slice(0, 10);

    // No block without a warning first.
    const early = await moderator.client.post("/api/admin/users/vote_block", {
      user_id: voter.id,
      reason: "Votes for one poster only",
      until,
    });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain("Warn the member first");

    const warned = await moderator.client.post("/api/admin/users/vote_warning", {
      user_id: voter.id,
      reason: "You vote on every deal of one member.",
    });
    expect(warned.statusCode).toBe(200);
    expect(warned.json().voting).toMatchObject({ may_block: true, blocked_until: null });

    // The end date is required, ahead, and at most a year away; a reason is required.
    for (const [body, field] of [
      [{ reason: "x" }, "until"],
      [{ reason: "x", until: "2001-01-01" }, "until"],
      [
        { reason: "x", until: new Date(Date.now() + 400 * DAY_MS).toISOString().slice(0, 10) },
        "until",
      ],
      [{ reason: "  ", until }, "reason"],
    ] as const) {
      const refused = await moderator.client.post("/api/admin/users/vote_block", {
        user_id: voter.id,
        ...body,
      });
      expect(refused.statusCode, JSON.stringify(body)).toBe(422);
      expect(refused.json().errors[field]).toBeTruthy();
    }

    const blocked = await moderator.client.post("/api/admin/users/vote_block", {
      user_id: voter.id,
      reason: "Kept voting on one member's deals after a warning.",
      until,
    });
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().voting.blocked_until).toBe(`${until}T00:00:00.000Z`);

    // The vote is refused, with the end and the reason, and leaves nothing behind.
    const refused = await vote(voter.client, deal, "like");
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(
      /^Your voting is blocked until \d+ \w+ \d{4}: Kept voting on one member's deals after a warning\.$/,
    );
    const row = await t.deps.db
      .selectFrom("likes")
      .select("reaction")
      .where("user_id", "=", voter.id)
      .executeTakeFirst();
    expect(row).toBeUndefined();
    const counts = await t.deps.db
      .selectFrom("posts")
      .select(["likes_count"])
      .where("id", "=", deal.id)
      .executeTakeFirstOrThrow();
    expect(counts.likes_count).toBe(0);
    // A like on a comment is a vote too (record 0092): refused alike.
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: poster.id });
    const commentLike = await voter.client.post("/api/comment_like", {
      user_id: voter.id,
      comment_id: comment,
    });
    expect(commentLike.statusCode).toBe(403);
    expect(commentLike.json().message).toMatch(/^Your voting is blocked until /);

    // Told: notifications with the reasons, and My Account's Voting section.
    const notes = await t.deps.db
      .selectFrom("notifications")
      .select(["kind", "message", "link"])
      .where("user_id", "=", voter.id)
      .orderBy("id")
      .execute();
    expect(notes).toHaveLength(2);
    expect(notes[0]!.message).toContain("You vote on every deal of one member.");
    expect(notes[1]!.message).toContain("blocked your voting until");
    expect(notes[1]!.message).toContain("Kept voting on one member's deals");
    expect(notes.every((n) => n.kind === "moderation" && n.link === "/user/profile#voting")).toBe(
      true,
    );
    const account = await voter.client.get("/user/profile");
    expect(account.statusCode).toBe(200);
    expect(account.body).toContain("Your voting is blocked until");
    expect(account.body).toContain("You vote on every deal of one member.");
    const myData = (await voter.client.get("/api/my_data")).json();
    expect(myData.voting_restrictions.map((r: { kind: string }) => r.kind)).toEqual([
      "warning",
      "block",
    ]);

    // After the end date, votes count again without anyone lifting the block.
    offset = 4 * DAY_MS;
    try {
      expect((await vote(voter.client, deal, "like")).statusCode).toBe(200);
    } finally {
      offset = 0;
    }
    const afterwards = (await voter.client.get("/api/my_data")).json();
    expect(afterwards.votes.likes).toHaveLength(1);
    expect(afterwards.votes.likes[0].network).toMatch(/^[0-9a-f]{4}-/);

    expect((await auditOf(voter.id)).map((a) => [a.action, a.actor_id])).toEqual([
      ["user.vote_warn", moderator.id],
      ["user.vote_block", moderator.id],
    ]);
  });

  it("lifts a block, audited; lifting none is refused", async () => {
    const voter = await member("Lifted Voter");
    const deal = await insertPost(t.deps.db, { user_id: moderator.id, title: "Lifted deal" });
    const until = new Date(Date.now() + 10 * DAY_MS).toISOString();
    await moderator.client.post("/api/admin/users/vote_warning", {
      user_id: voter.id,
      reason: "First and last warning.",
    });
    expect(
      (
        await moderator.client.post("/api/admin/users/vote_block", {
          user_id: voter.id,
          reason: "Blocked for a while.",
          until,
        })
      ).statusCode,
    ).toBe(200);
    expect((await vote(voter.client, deal, "like")).statusCode).toBe(403);
    const lifted = await moderator.client.post("/api/admin/users/vote_unblock", {
      user_id: voter.id,
      reason: "Talked it through.",
    });
    expect(lifted.statusCode).toBe(200);
    expect(lifted.json().voting.blocked_until).toBeNull();
    expect((await vote(voter.client, deal, "like")).statusCode).toBe(200);
    const again = await moderator.client.post("/api/admin/users/vote_unblock", {
      user_id: voter.id,
    });
    expect(again.statusCode).toBe(409);
    const audit = await auditOf(voter.id);
    expect(audit.map((a) => a.action)).toEqual([
      "user.vote_warn",
      "user.vote_block",
      "user.vote_unblock",
    ]);
    expect(audit[2]!.reason).toBe("Talked it through.");
    const notes = await t.deps.db
      .selectFrom("notifications")
      .select("message")
      .where("user_id", "=", voter.id)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(notes.message).toContain("lifted the block on your voting");
  });

  it("keeps to roles: members cannot act, nobody restricts themselves, admins only by admins", async () => {
    const someone = await member("Would-be Moderator");
    const target = await member("Target Member");
    const admin = await signInWithRole(t, "admin", "Integrity Admin");
    const warn = (client: TestClient, userId: number) =>
      client.post("/api/admin/users/vote_warning", { user_id: userId, reason: "Because." });
    expect((await warn(someone.client, target.id)).statusCode).toBe(403);
    expect((await warn(moderator.client, moderator.id)).statusCode).toBe(403);
    expect((await warn(moderator.client, admin.id)).statusCode).toBe(403);
    expect((await warn(admin.client, moderator.id)).statusCode).toBe(200);
    expect((await warn(moderator.client, 99_999_999)).statusCode).toBe(404);
    expect(await auditOf(target.id)).toEqual([]);
  });
});
