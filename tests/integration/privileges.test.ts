import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { FormBrowser } from "../helpers/form-browser.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Privileges by level: newcomers' links (docs/decisions/0089-newcomer-links.md). A newcomer's post
 * with a link waits for review and says why, the author sees it in My Account, descriptions and
 * comments carry at most the cap of links, every refusal names the thresholds, the settings
 * change all of it, and the help page states it.
 */

const HELD =
  "Your post has a link, so it waits for a moderator's review; until then only you can see it. New members' posts with links are checked: members can post links without review after 2 approved posts or on reaching the Member level.";
const COMMENT_CAP =
  "New members can put at most 1 link in a comment. Members can post more links after 2 approved posts or on reaching the Member level.";
const DESCRIPTION_CAP =
  "New members can put at most 1 link in a description. Members can post more links after 2 approved posts or on reaching the Member level.";

let t: TestApp;
let admin: TestClient;
let moderator: TestClient;
const ids = { dealCategory: 0, discussionCategory: 0, store: 0, category: 0 };
let deal: { id: number; unique_id: string; slug: string };

async function staff(role: "admin" | "moderator") {
  const id = await createTestUser(t.deps.db, { name: `Staff ${role}` });
  await t.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return client;
}

async function member() {
  const id = await createTestUser(t.deps.db);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

let linkCounter = 0;
function postDeal(
  who: { id: number; client: TestClient },
  extra: Record<string, string | number> = {},
) {
  linkCounter += 1;
  return who.client.post("/api/save_deal", {
    user_id: who.id,
    deal_category: ids.dealCategory,
    store_id: ids.store,
    category_id: ids.category,
    title: `Glue sticks for the whole class ${linkCounter}`,
    price: "4.50",
    link: `https://www.example-shop.com/p/glue-${linkCounter}-${Date.now()}`,
    type: "d",
    deal_description: "<p>Thirty glue sticks.</p>",
    ...extra,
  });
}

function postDiscussion(who: { id: number; client: TestClient }, detail: string) {
  return who.client.post("/api/save_discussion", {
    user_id: who.id,
    forum_category_id: ids.discussionCategory,
    title: "Where do you buy classroom supplies?",
    detail,
  });
}

function comment(who: { id: number; client: TestClient }, text: string) {
  return who.client.post("/api/product_add_comment", {
    user_id: who.id,
    post_id: deal.id,
    post_type: "d",
    comment_text: text,
  });
}

async function statusOf(uniqueId: string) {
  const row = await t.deps.db
    .selectFrom("posts")
    .select("status")
    .where("unique_id", "=", uniqueId)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function approve(uniqueId: string, type: "d" | "g" = "d") {
  const answer = await moderator.post("/api/admin/moderate", {
    item_type: type,
    item_id: uniqueId,
    action: "restore",
    reason: "",
  });
  expect(answer.statusCode).toBe(200);
}

async function setLevel(userId: number, level: string) {
  await t.deps.db
    .insertInto("member_reputation")
    .values({ user_id: userId, points: 0, level, computed_at: new Date() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ level }))
    .execute();
}

async function saveSettings(values: Record<string, unknown>) {
  const answer = await admin.post("/api/admin/settings", values);
  expect(answer.statusCode, answer.body).toBe(200);
  return answer;
}

/** Text as React writes it into a page. */
const inHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/'/g, "&#x27;").replace(/"/g, "&quot;");

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  const db = t.deps.db;
  admin = await staff("admin");
  moderator = await staff("moderator");
  const kinds = await db.selectFrom("forum_categories").select(["id", "kind"]).execute();
  ids.dealCategory = kinds.find((k) => k.kind === "deal")!.id;
  ids.discussionCategory = kinds.find((k) => k.kind === "discussion")!.id;
  ids.store = (
    await db.selectFrom("stores").select("id").orderBy("id").executeTakeFirstOrThrow()
  ).id;
  ids.category = (
    await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()
  ).id;
  deal = await db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug"])
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .executeTakeFirstOrThrow();
});
afterAll(async () => {
  await t?.close();
});

describe("a newcomer's post with a link (the migration's defaults)", () => {
  it("waits for review, says why naming the thresholds, and shows in the author's dashboard", async () => {
    const newcomer = await member();
    const answer = await postDeal(newcomer);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toMatchObject({
      status: "true",
      message: "Deal has been Submitted.",
      review_message: HELD,
    });
    const held = answer.json().response;
    expect(await statusOf(held.unique_id)).toBe("pending");

    const dashboard = await newcomer.client.post("/api/user_dashboard", {
      user_id: newcomer.id,
      page: 1,
    });
    expect(dashboard.statusCode).toBe(200);
    const page = dashboard.json().response;
    expect(page.waiting_for_review).toEqual([
      expect.objectContaining({
        unique_id: held.unique_id,
        title: held.title,
        url: held.url,
        review_status: "pending",
        label: "Waiting for review",
      }),
    ]);
    expect(page.deal_data).toEqual([]);

    // Nobody else is shown the list, not even on the author's public profile.
    const other = await member();
    const profile = await other.client.post("/api/user_profile", {
      user_id: newcomer.id,
      page: 1,
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().response).not.toHaveProperty("waiting_for_review");
  });

  it("holds a discussion with a link in its detail, and publishes one without", async () => {
    const newcomer = await member();
    const plain = await postDiscussion(newcomer, "<p>Any tips for glue sticks?</p>");
    expect(plain.json()).not.toHaveProperty("review_message");
    expect(await statusOf(plain.json().response.unique_id)).toBe("active");
    const linked = await postDiscussion(
      newcomer,
      '<p>Is <a href="https://shop.example.com/glue">this shop</a> any good?</p>',
    );
    expect(linked.json().review_message).toBe(HELD);
    expect(await statusOf(linked.json().response.unique_id)).toBe("pending");
  });

  it("ends after 2 approved posts", async () => {
    const newcomer = await member();
    const first = (await postDeal(newcomer)).json().response.unique_id;
    const second = (await postDeal(newcomer)).json().response.unique_id;
    expect(await statusOf(second)).toBe("pending");
    await approve(first);
    const third = await postDeal(newcomer);
    expect(third.json().review_message).toBe(HELD);
    await approve(second);
    const fourth = await postDeal(newcomer);
    expect(fourth.json()).not.toHaveProperty("review_message");
    expect(await statusOf(fourth.json().response.unique_id)).toBe("active");
  });

  it("does not apply to moderators and administrators, who review the queue", async () => {
    const id = await createTestUser(t.deps.db, { name: "New Moderator" });
    await t.deps.db.updateTable("users").set({ role: "moderator" }).where("id", "=", id).execute();
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, id);
    const answer = await postDeal({ id, client });
    expect(answer.json()).not.toHaveProperty("review_message");
    expect(await statusOf(answer.json().response.unique_id)).toBe("active");
    expect(
      (await comment({ id, client }, "https://a.example.com/ https://b.example.com/")).statusCode,
    ).toBe(201);
  });

  it("ends on reaching the Member level", async () => {
    const newcomer = await member();
    await setLevel(newcomer.id, "Member");
    const answer = await postDeal(newcomer);
    expect(answer.json()).not.toHaveProperty("review_message");
    expect(await statusOf(answer.json().response.unique_id)).toBe("active");
  });
});

describe("newcomers' link caps", () => {
  it("refuses a comment with more links than the cap, naming the thresholds", async () => {
    const newcomer = await member();
    const refused = await comment(
      newcomer,
      "Cheaper at https://a.example.com/glue and https://b.example.com/glue",
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: COMMENT_CAP,
      errors: { comment_text: COMMENT_CAP },
    });
    const one = await comment(newcomer, "Cheaper at https://a.example.com/glue");
    expect(one.statusCode).toBe(201);
  });

  it("refuses a description with more links than the cap, on its field", async () => {
    const newcomer = await member();
    const before = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("user_id", "=", newcomer.id)
      .execute();
    const refused = await postDeal(newcomer, {
      deal_description:
        '<p><a href="https://a.example.com/">One</a> and https://b.example.com/two</p>',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors).toEqual({ deal_description: DESCRIPTION_CAP });
    const discussion = await postDiscussion(
      newcomer,
      "<p>https://a.example.com/ and https://b.example.com/</p>",
    );
    expect(discussion.statusCode).toBe(422);
    expect(discussion.json().errors).toEqual({ detail: DESCRIPTION_CAP });
    expect(
      await t.deps.db.selectFrom("posts").select("id").where("user_id", "=", newcomer.id).execute(),
    ).toEqual(before);
  });

  it("lets a member past the thresholds post more links", async () => {
    const regular = await member();
    await setLevel(regular.id, "Regular");
    const answer = await comment(
      regular,
      "https://a.example.com/ https://b.example.com/ https://c.example.com/",
    );
    expect(answer.statusCode).toBe(201);
  });

  it("shows the refusal at the comment box of the page form", async () => {
    const newcomerId = await createTestUser(t.deps.db);
    const browser = new FormBrowser(t.app);
    await browser.signInAs(t.deps.db, newcomerId);
    const path = `/post/${deal.unique_id}/${deal.slug}`;
    await browser.open(path);
    const response = await browser.postForm(path, {
      _csrf: browser.xsrf,
      intent: "comment",
      post_id: String(deal.id),
      post_type: "d",
      comment_id: "",
      comment_text: "See https://a.example.com/ and https://b.example.com/",
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(inHtml(COMMENT_CAP));
    expect(response.body).toMatch(/<textarea[^>]*aria-invalid="true"/);
  });
});

describe("the settings", () => {
  afterAll(async () => {
    await saveSettings({
      newcomer_link_posts: 2,
      newcomer_until_level: "Member",
      newcomer_link_cap: 1,
    });
  });

  it("change who is a newcomer and the cap, and the messages follow", async () => {
    await saveSettings({
      newcomer_link_posts: 1,
      newcomer_until_level: "Regular",
      newcomer_link_cap: 2,
    });
    const memberLevel = await member();
    await setLevel(memberLevel.id, "Member");
    const held = await postDeal(memberLevel);
    expect(held.json().review_message).toBe(
      "Your post has a link, so it waits for a moderator's review; until then only you can see it. New members' posts with links are checked: members can post links without review after 1 approved post or on reaching the Regular level.",
    );
    expect(await statusOf(held.json().response.unique_id)).toBe("pending");
    expect(
      (await comment(memberLevel, "https://a.example.com/ https://b.example.com/")).statusCode,
    ).toBe(201);
    const three = await comment(
      memberLevel,
      "https://a.example.com/ https://b.example.com/ https://c.example.com/",
    );
    expect(three.json().errors).toEqual({
      comment_text:
        "New members can put at most 2 links in a comment. Members can post more links after 1 approved post or on reaching the Regular level.",
    });
  });

  it("turn the rules off with 0 approved posts", async () => {
    await saveSettings({ newcomer_link_posts: 0 });
    const newcomer = await member();
    const answer = await postDeal(newcomer);
    expect(answer.json()).not.toHaveProperty("review_message");
    expect(await statusOf(answer.json().response.unique_id)).toBe("active");
    const many = await comment(newcomer, "https://a.example.com/ https://b.example.com/");
    expect(many.statusCode).toBe(201);
  });
});

describe("the help page", () => {
  it("states the rules with the current settings, the levels and the vote weights", async () => {
    await saveSettings({ newcomer_link_posts: 3, newcomer_until_level: "Trusted" });
    const page = await t.app.inject({ method: "GET", url: "/help" });
    expect(page.statusCode).toBe(200);
    const body = page.body;
    expect(body).toContain("How Chalkboard Deals works");
    expect(body).toContain(
      inHtml("You are a new member until you have 3 approved posts or reach the Trusted level."),
    );
    expect(body).toContain(
      inHtml("A new member's description or comment can carry at most 1 link."),
    );
    expect(body).toMatch(/<th scope="row">Trusted<\/th><td>3 votes<\/td>/);
    expect(body).toMatch(/<th scope="row">Member<\/th><td>10<\/td>/);
    expect(body).toContain('href="/help"');
  });

  it("is a reserved page slug", async () => {
    const { RESERVED_PAGE_SLUGS } = await import("../../core/cms/console-schema.ts");
    expect(RESERVED_PAGE_SLUGS).toContain("help");
  });
});
