import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SETTINGS_MESSAGES } from "../../core/settings/schema.ts";
import { BLOCKED_DOMAIN_MESSAGES } from "../../core/settings/blocked-domains.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { mediaFiles, multipartBody, pngImage } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * The console's settings page (core/settings): every field checked with nothing half-saved, each
 * save audited, the cached settings dropped at once, uploads checked by their bytes; and blocked
 * link domains, refused wherever a post is submitted.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let admin: TestClient;
let adminId: number;
let moderator: TestClient;
let member: TestClient;
let memberId: number;
const ids = { dealCategory: 0, discussionCategory: 0, store: 0, category: 0 };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.deps.db;
  const signed = async (role: "member" | "moderator" | "admin") => {
    const id = await createTestUser(db, { name: `Settings ${role}` });
    if (role !== "member")
      await db.updateTable("users").set({ role }).where("id", "=", id).execute();
    const client = new TestClient(t.app);
    await client.signInAs(db, id);
    return { id, client };
  };
  ({ id: adminId, client: admin } = await signed("admin"));
  ({ client: moderator } = await signed("moderator"));
  ({ id: memberId, client: member } = await signed("member"));
  const kinds = await db.selectFrom("forum_categories").select(["id", "kind"]).execute();
  ids.dealCategory = kinds.find((k) => k.kind === "deal")!.id;
  ids.discussionCategory = kinds.find((k) => k.kind === "discussion")!.id;
  ids.store = (await db.selectFrom("stores").select("id").executeTakeFirstOrThrow()).id;
  ids.category = (await db.selectFrom("categories").select("id").executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

async function publicSettings(): Promise<Json> {
  const response = await t.app.inject({ method: "GET", url: "/api/general_settings" });
  expect(response.statusCode).toBe(200);
  return response.json();
}

async function settingsAudit() {
  return t.deps.db
    .selectFrom("audit_log")
    .selectAll()
    .where("item_type", "=", "setting")
    .orderBy("id")
    .execute();
}

async function uploadImage(client: TestClient, field: string, bytes: Buffer, name = "logo.png") {
  const form = await multipartBody({ field }, { name, type: "image/png", bytes });
  return client.request({ method: "POST", url: "/api/admin/settings/image", ...form });
}

describe("GET and POST /api/admin/settings", () => {
  it("are the administrators' alone", async () => {
    expect((await moderator.get("/api/admin/settings")).statusCode).toBe(403);
    expect((await moderator.post("/api/admin/settings", { website_name: "Mine" })).statusCode).toBe(
      403,
    );
    const response = await admin.get("/api/admin/settings");
    expect(response.statusCode).toBe(200);
    expect(response.json().settings).toMatchObject({
      website_name: "Chalkboard Deals",
      report_hide_threshold: 3,
      hold_new_user_posts: false,
      hold_new_user_days: 7,
      // Newcomers' links (migration 036): on by default.
      newcomer_link_posts: 2,
      newcomer_until_level: "Member",
      newcomer_link_cap: 1,
      // The installed app's colours (migration 041): the header's navy and the page background.
      app_theme_color: "#353f66",
      app_background_color: "#f4f5f8",
    });
  });

  it("saves every field, shows it on the next public read, and audits what changed", async () => {
    const before = await publicSettings(); // fills the settings cache
    const posts = await t.deps.db
      .selectFrom("posts")
      .select("unique_id")
      .where("post_type", "=", "g")
      .where("status", "=", "active")
      .executeTakeFirstOrThrow();
    const saved = await admin.post("/api/admin/settings", {
      website_name: "  Classroom Bargains  ",
      website_keywords: "teachers, deals",
      website_description: "Deals for classrooms.",
      educator_post_unique_id: posts.unique_id,
      copyright_text: "Classroom Bargains Ltd.",
      playstore_url: "https://play.example.com/app",
      app_store_url: "",
      report_hide_threshold: "5",
      hold_new_user_posts: true,
      hold_new_user_days: 3,
      newcomer_link_posts: "3",
      newcomer_until_level: "Regular",
      newcomer_link_cap: 0,
      app_theme_color: " #1A7F4B ",
      app_background_color: "#fffaf0",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      status: "true",
      message: "The settings have been saved.",
      settings: {
        website_name: "Classroom Bargains",
        report_hide_threshold: 5,
        hold_new_user_posts: true,
        hold_new_user_days: 3,
        newcomer_link_posts: 3,
        newcomer_until_level: "Regular",
        newcomer_link_cap: 0,
        app_store_url: "",
        // Either case is accepted; stored lower case, as the manifest gives it.
        app_theme_color: "#1a7f4b",
        app_background_color: "#fffaf0",
      },
    });
    expect((await t.services.settings.get()).colors).toEqual({
      theme: "#1a7f4b",
      background: "#fffaf0",
    });

    const after = await publicSettings();
    expect(before.general_setting.Website_Name).toBe("Chalkboard Deals");
    expect(after.general_setting).toEqual({
      Website_Name: "Classroom Bargains",
      Website_Keywords: "teachers, deals",
      Website_Description: "Deals for classrooms.",
    });
    expect(after.footer_setting[0]).toMatchObject({
      Copyright_Text: "Classroom Bargains Ltd.",
      Playstore_URL: "https://play.example.com/app",
      App_Store_URL: "",
    });
    expect(after.educator_link).toMatch(new RegExp(`^/educator/${posts.unique_id}/`));
    expect(await t.services.settings.moderation()).toEqual({
      reportHideThreshold: 5,
      holdNewUserPosts: true,
      holdNewUserDays: 3,
      newcomer: { linkPosts: 3, untilLevel: "Regular", linkCap: 0 },
    });

    const entry = (await settingsAudit()).at(-1)!;
    expect(entry).toMatchObject({ actor_id: adminId, action: "settings.update", item_id: "site" });
    expect(entry.before).toMatchObject({
      website_name: "Chalkboard Deals",
      report_hide_threshold: 3,
      newcomer_link_posts: 2,
      newcomer_until_level: "Member",
      newcomer_link_cap: 1,
    });
    expect(entry.after).toMatchObject({
      website_name: "Classroom Bargains",
      report_hide_threshold: 5,
      newcomer_link_posts: 3,
      newcomer_until_level: "Regular",
      newcomer_link_cap: 0,
      app_theme_color: "#1a7f4b",
    });

    // A field left out keeps its value; saving the same values records nothing.
    const count = (await settingsAudit()).length;
    const same = await admin.post("/api/admin/settings", { website_name: "Classroom Bargains" });
    expect(same.json().settings.website_keywords).toBe("teachers, deals");
    expect(await settingsAudit()).toHaveLength(count);
  });

  it("refuses bad input field by field and saves nothing", async () => {
    const stored = (await admin.get("/api/admin/settings")).json().settings;
    const count = (await settingsAudit()).length;
    const response = await admin.post("/api/admin/settings", {
      website_name: "   ",
      website_keywords: "fine",
      playstore_url: "javascript:alert(1)",
      app_store_url: "not a link",
      report_hide_threshold: 0,
      hold_new_user_days: "1.5",
      hold_new_user_posts: "maybe",
      website_description: "x".repeat(301),
      newcomer_link_posts: -1,
      newcomer_until_level: "Newcomer",
      newcomer_link_cap: 101,
      app_theme_color: "navy",
      app_background_color: "#fff",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      website_name: SETTINGS_MESSAGES.websiteName,
      playstore_url: SETTINGS_MESSAGES.url,
      app_store_url: SETTINGS_MESSAGES.url,
      report_hide_threshold: SETTINGS_MESSAGES.threshold,
      hold_new_user_days: SETTINGS_MESSAGES.holdDays,
      hold_new_user_posts: SETTINGS_MESSAGES.holdPosts,
      website_description: SETTINGS_MESSAGES.descriptionTooLong,
      newcomer_link_posts: SETTINGS_MESSAGES.newcomerLinkPosts,
      newcomer_until_level: SETTINGS_MESSAGES.newcomerUntilLevel,
      newcomer_link_cap: SETTINGS_MESSAGES.newcomerLinkCap,
      app_theme_color: "The theme colour must be a colour such as #353f66.",
      app_background_color: "The background colour must be a colour such as #f4f5f8.",
    });
    // A bad colour alone is refused too, and the valid field sent with it is not saved.
    const colour = await admin.post("/api/admin/settings", {
      website_keywords: "changed",
      app_background_color: "#12345g",
    });
    expect(colour.statusCode).toBe(422);
    expect(colour.json().errors).toEqual({
      app_background_color: SETTINGS_MESSAGES.backgroundColor,
    });
    const educator = await admin.post("/api/admin/settings", {
      website_keywords: "changed",
      educator_post_unique_id: "nosuchpost",
    });
    expect(educator.statusCode).toBe(422);
    expect(educator.json().errors).toEqual({
      educator_post_unique_id: SETTINGS_MESSAGES.educatorPostMissing,
    });
    expect((await admin.get("/api/admin/settings")).json().settings).toEqual(stored);
    expect(await settingsAudit()).toHaveLength(count);
  });
});

describe("POST /api/admin/settings/image", () => {
  it("stores a checked, re-encoded logo and shows it on the next read", async () => {
    await publicSettings();
    const response = await uploadImage(admin, "website_logo", await pngImage(1200, 300));
    expect(response.statusCode).toBe(200);
    const { url, message } = response.json();
    expect(message).toBe("The logo has been saved.");
    expect(url).toMatch(/^\/media\/site\/[\w-]+\.webp$/);
    expect(fs.existsSync(path.join(t.mediaDir, url.slice("/media/".length)))).toBe(true);
    expect((await publicSettings()).site_setting[0].Website_Logo).toBe(url);
    const entry = (await settingsAudit()).at(-1)!;
    expect(entry).toMatchObject({ action: "settings.image", item_id: "website_logo" });
    expect(entry.after).toEqual({ website_logo: url });

    const badge = await uploadImage(admin, "app_store_image", await pngImage());
    expect(badge.statusCode).toBe(200);
    expect((await publicSettings()).footer_setting[0].app_store_image).toBe(badge.json().url);
  });

  it("refuses a file that is not an image, by its bytes, and stores nothing", async () => {
    const logo = (await publicSettings()).site_setting[0].Website_Logo;
    const files = mediaFiles(t.mediaDir, "site");
    const response = await uploadImage(
      admin,
      "website_logo",
      Buffer.from("<svg onload=alert(1)></svg>".padEnd(200, " ")),
      "logo.png",
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ image: IMAGE_MESSAGES.notImage });
    expect(mediaFiles(t.mediaDir, "site")).toEqual(files);
    expect((await publicSettings()).site_setting[0].Website_Logo).toBe(logo);

    const nothing = await admin.post("/api/admin/settings/image", { field: "website_logo" });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().errors).toEqual({ image: SETTINGS_MESSAGES.imageMissing });
    const unknownField = await uploadImage(admin, "favicon", await pngImage());
    expect(unknownField.json().errors).toEqual({ field: SETTINGS_MESSAGES.imageField });
    expect((await uploadImage(moderator, "website_logo", await pngImage())).statusCode).toBe(403);
  });

  it("removes an image on request", async () => {
    const response = await admin.post("/api/admin/settings/image", {
      field: "website_logo",
      remove: "true",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ url: "", message: "The logo has been removed." });
    expect((await publicSettings()).site_setting[0].Website_Logo).toBe("");
  });
});

describe("blocked link domains", () => {
  let posted = 0;
  const deal = (fields: Record<string, unknown>) => {
    posted += 1;
    return member.post("/api/save_deal", {
      user_id: memberId,
      deal_category: ids.dealCategory,
      store_id: ids.store,
      category_id: ids.category,
      title: `Blocked domain test ${posted}`,
      price: "9.99",
      deal_description: "<p>A fine deal.</p>",
      link: `https://allowed.example/deal-${posted}-${Date.now()}`,
      ...fields,
    });
  };

  it("are added normalised, listed, and audited; duplicates and bad domains are refused", async () => {
    const added = await admin.post("/api/admin/blocked_domains/add", {
      domain: "https://www.Spam-Deals.example/cheap",
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      message: "Links to spam-deals.example are now refused.",
      domain: "spam-deals.example",
    });
    expect(added.json().blocked_domains).toContainEqual(
      expect.objectContaining({ domain: "spam-deals.example", added_by: "Settings admin" }),
    );
    const again = await admin.post("/api/admin/blocked_domains/add", {
      domain: "spam-deals.example",
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("spam-deals.example is already on the list.");
    const bad = await admin.post("/api/admin/blocked_domains/add", { domain: "not a domain" });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({ domain: BLOCKED_DOMAIN_MESSAGES.invalid });
    expect(
      (await moderator.post("/api/admin/blocked_domains/add", { domain: "x.example" })).statusCode,
    ).toBe(403);
    const audit = await t.deps.db
      .selectFrom("audit_log")
      .selectAll()
      .where("item_type", "=", "blocked_domain")
      .execute();
    expect(audit).toEqual([
      expect.objectContaining({
        actor_id: adminId,
        action: "blocked_domain.add",
        item_id: "spam-deals.example",
        after: { domain: "spam-deals.example" },
      }),
    ]);
  });

  it("refuse a deal linking to the domain or a subdomain, on the field that links", async () => {
    const refusal = "Links to spam-deals.example are not allowed on this site.";
    const link = await deal({ link: "https://shop.SPAM-deals.example/item?id=1" });
    expect(link.statusCode).toBe(422);
    expect(link.json().errors).toEqual({ link: refusal });
    const image = await deal({ deal_image: "https://cdn.spam-deals.example/i.png" });
    expect(image.json().errors).toEqual({ deal_image: refusal });
    const inText = await deal({
      deal_description: '<p>See <a href="http://www.spam-deals.example/x">here</a></p>',
    });
    expect(inText.json().errors).toEqual({ deal_description: refusal });
    const discussion = await member.post("/api/save_discussion", {
      user_id: memberId,
      forum_category_id: ids.discussionCategory,
      title: "Where to buy?",
      detail: '<p><a href="https://spam-deals.example">cheap</a></p>',
    });
    expect(discussion.statusCode).toBe(422);
    expect(discussion.json().errors).toEqual({ detail: refusal });
    const stored = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("title", "like", "Blocked domain test%")
      .execute();
    expect(stored).toEqual([]);

    // Only the domain and its subdomains: a look-alike is fine.
    expect((await deal({ link: "https://notspam-deals.example/x" })).statusCode).toBe(200);
  });

  it("match internationalised names in their ASCII form", async () => {
    await admin.post("/api/admin/blocked_domains/add", { domain: "bücher-spam.example" });
    const response = await deal({ link: "https://www.BÜCHER-spam.example/angebot" });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.link).toBe(
      "Links to xn--bcher-spam-9db.example are not allowed on this site.",
    );
  });

  it("allow the domain again once removed", async () => {
    const removed = await admin.post("/api/admin/blocked_domains/remove", {
      domain: "SPAM-DEALS.example",
    });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().blocked_domains.map((d: Json) => d.domain)).not.toContain(
      "spam-deals.example",
    );
    expect((await deal({ link: "https://shop.spam-deals.example/ok" })).statusCode).toBe(200);
    const gone = await admin.post("/api/admin/blocked_domains/remove", {
      domain: "spam-deals.example",
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe("spam-deals.example is not on the list.");
  });
});
