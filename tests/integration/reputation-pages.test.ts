import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recomputeReputation } from "../../core/people/reputation/job.ts";
import { monthOf } from "../../core/people/reputation/service.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertComment, insertPost } from "../helpers/console.ts";
import { FormBrowser } from "../helpers/form-browser.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Reputation's pages (record 0088): profiles show the level and badges, My Account the member's
 * ledger, /community/top (ranked, paged, linked from the footer, cached until reputation changes),
 * and the Settings page's level thresholds posted without JavaScript.
 */

let t: TestApp;
let poster: number;
let posterClient: TestClient;
let thisMonth: Date;

async function deal(userId: number, degrees: number) {
  return insertPost(t.deps.db, {
    user_id: userId,
    likes_count: degrees / 10,
    created_at: thisMonth,
    updated_at: thisMonth,
  });
}

async function page(url: string, client: TestClient | null = null) {
  const response = client
    ? await client.get(url)
    : await t.app.inject({ method: "GET", url, headers: { "accept-encoding": "identity" } });
  return response;
}

/** A page's text without its tags. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "");

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  thisMonth = new Date(monthOf(t.deps.now()).from.getTime() + 3600_000);
  poster = await createTestUser(t.deps.db, { name: "Pagewise Poster" });
  posterClient = new TestClient(t.app);
  await posterClient.signInAs(t.deps.db, poster);
  await deal(poster, 150);
  await recomputeReputation(t.deps);
});
afterAll(async () => {
  await t?.close();
});

describe("profiles", () => {
  it("a public profile shows the member's level, points and badges with their rule", async () => {
    const response = await page(`/profile/${poster}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Reputation");
    expect(textOf(response.body)).toContain("Level: Member");
    expect(response.body).toContain("Hot deal");
    expect(response.body).toContain("A deal that reached 100°");
  });

  it("My Account shows them too, with what earned the points, the badges' standings and the rules", async () => {
    const response = await page("/user/profile", posterClient);
    expect(response.statusCode).toBe(200);
    const html = textOf(response.body);
    expect(html).toContain("Hot deal");
    expect(response.body).toContain('href="#reputation-ledger"');
    expect(html).toContain("Reached 150°");
    expect(html).toContain("+13");
    expect(html).toContain("Hot streak: 5 deals that reached 100° — you have 1");
    expect(html).toContain("Regular from 50");
  });
});

describe("bylines", () => {
  it("the deal page shows the author's level beside their name, and each commenter's", async () => {
    const post = await deal(poster, 0);
    const commenter = await createTestUser(t.deps.db, { name: "Chatty Newcomer" });
    await insertComment(t.deps.db, { postId: post.id, userId: commenter });
    const response = await page(`/post/${post.unique_id}/${post.slug}`);
    expect(response.statusCode).toBe(200);
    const text = textOf(response.body);
    expect(text).toMatch(/Posted by Pagewise Poster\s*Level: Member/);
    expect(text).toMatch(/Chatty Newcomer\s*Level: Newcomer/);
  });
});

describe("/community/top", () => {
  it("ranks this month's members, is linked from the footer, and answers 404 past its last page", async () => {
    const response = await page("/community/top");
    expect(response.statusCode).toBe(200);
    const html = response.body.replaceAll("<!-- -->", "");
    expect(html).toContain("Top Contributors");
    expect(html).toContain(`href="/profile/${poster}"`);
    expect(html).toContain("Pagewise Poster");
    expect((await page("/")).body).toContain('href="/community/top"');
    expect((await page("/community/top?page=99")).statusCode).toBe(404);
  });

  it("is cached for visitors until reputation changes", async () => {
    const newcomer = await createTestUser(t.deps.db, { name: "Late Riser" });
    await deal(newcomer, 60);
    // The cached page does not know of them yet…
    expect((await page("/community/top")).body).not.toContain("Late Riser");
    // …until the job counts them and reports the change.
    await recomputeReputation(t.deps);
    expect((await page("/community/top")).body).toContain("Late Riser");
  });
});

describe("Settings: level thresholds posted without JavaScript", () => {
  it("refuses thresholds that do not increase and saves increasing ones, audited", async () => {
    const adminId = await createTestUser(t.deps.db, { name: "Levels Admin" });
    await t.deps.db.updateTable("users").set({ role: "admin" }).where("id", "=", adminId).execute();
    const admin = new FormBrowser(t.app);
    await admin.signInAs(t.deps.db, adminId);
    await admin.open("/admin/settings");
    const refused = await admin.postForm("/admin/settings", {
      _csrf: admin.xsrf,
      intent: "reputation-levels",
      member_points: "30",
      regular_points: "20",
      trusted_points: "40",
    });
    expect(refused.body).toContain("Regular must begin at more points than Member.");
    const saved = await admin.postForm("/admin/settings", {
      _csrf: admin.xsrf,
      intent: "reputation-levels",
      member_points: "5",
      regular_points: "20",
      trusted_points: "400",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("The level thresholds have been saved.");
    const level = await t.deps.db
      .selectFrom("member_reputation")
      .select("level")
      .where("user_id", "=", poster)
      .executeTakeFirstOrThrow();
    expect(level.level).toBe("Regular");
    // The profile, cached for visitors, shows the new level at once.
    expect(textOf((await page(`/profile/${poster}`)).body)).toContain("Level: Regular");
  });
});
