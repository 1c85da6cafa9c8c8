import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_UPLOAD_BYTES } from "../../core/constants.ts";
import { IMAGE_MESSAGES } from "../../core/posts/submissions/schema.ts";
import type { UserRole } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { auditOf, insertPost } from "../helpers/console.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { multipartBody, pngImage } from "../helpers/multipart.ts";
import { createTestUser } from "../helpers/users.ts";

// The console's kit forms posted to their pages without JavaScript (docs/decisions/0079,
// app/lib/console-form.server.ts): the same schema, role and service as each form's JSON call.

let t: TestApp;
let moderator: FormBrowser;
let admin: FormBrowser;
let member: FormBrowser;

async function browserAs(role: UserRole, name: string) {
  const id = await createTestUser(t.deps.db, { name });
  if (role !== "member") {
    await t.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
  }
  const browser = new FormBrowser(t.app);
  await browser.signInAs(t.deps.db, id);
  return browser;
}

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  moderator = await browserAs("moderator", "Mo Form");
  admin = await browserAs("admin", "Ada Form");
  member = await browserAs("member", "Mem Form");
});
afterAll(async () => {
  await t?.close();
});

/** Opens the page and posts one of its forms with the page's token. */
async function post(browser: FormBrowser, url: string, fields: Record<string, string>) {
  await browser.open(url);
  return browser.postForm(url, { _csrf: browser.xsrf, ...fields });
}

const socialLinks = () => t.deps.db.selectFrom("social_links").selectAll().execute();

describe("console pages carry their forms as posts with the token", () => {
  it.each([
    "/admin/social?new=1",
    "/admin/wishlist?new=1",
    "/admin/forums?new=forum",
    "/admin/featured",
    "/admin/educators",
    "/admin/stores?new=1",
    "/admin/categories?new=1",
  ])("%s", async (url) => {
    const page = await moderator.open(url);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: url,
      hidden: false,
      csrf: moderator.xsrf,
    });
  });

  it("the settings page, for administrators", async () => {
    const page = await admin.open("/admin/settings");
    const posts = forms(page.body).filter((form) => form.action === "/admin/settings");
    // The settings, the three site images, the blocked domains, the weekly digest's time and the
    // reputation levels.
    expect(posts.length).toBe(7);
    for (const form of posts) expect(form.csrf).toBe(admin.xsrf);
  });
});

describe("social links and the Teachers Wishlist (OrderedRecordsConsole)", () => {
  it("refuses a bad link with the field messages (422) and stores nothing", async () => {
    const before = await socialLinks();
    const response = await post(moderator, "/admin/social?new=1", {
      intent: "create",
      name: "",
      social_url: "not a link",
      social_image: "",
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain("Please correct the fields marked below.");
    expect(response.body).toMatch(/aria-invalid="true"/);
    expect(response.body).toContain('value="not a link"');
    expect(await socialLinks()).toEqual(before);
  });

  it("adds a link, says so and goes back to the list; then edits it", async () => {
    const response = await post(moderator, "/admin/social?new=1", {
      intent: "create",
      name: "Mastodon Form",
      social_url: "https://mastodon.example/@chalkboard",
      social_image: "icon-twitter",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("The Mastodon Form link was added.");
    expect(response.body).toMatch(/<meta http-equiv="refresh" content="3;url=\/admin\/social"/);
    const row = (await socialLinks()).find((link) => link.name === "Mastodon Form");
    expect(row?.social_url).toBe("https://mastodon.example/@chalkboard");

    const edited = await post(moderator, `/admin/social?edit=${row!.id}`, {
      intent: "update",
      id: String(row!.id),
      name: "Mastodon Edited",
      social_url: "https://mastodon.example/@chalkboard",
      social_image: "icon-twitter",
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.body).toContain("The Mastodon Edited link was saved.");
    expect((await socialLinks()).find((link) => link.id === row!.id)?.name).toBe("Mastodon Edited");
  });

  it("adds a wishlist", async () => {
    const response = await post(moderator, "/admin/wishlist?new=1", {
      intent: "create",
      first_name: "Wanda",
      last_name: "Formless",
      school_location: "Lincoln Elementary, Austin, TX",
      amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/FORMLESS1",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Wanda Formless&#x27;s wishlist was added.");
    const row = await t.deps.db
      .selectFrom("teachers_wishlist")
      .select("school_location")
      .where("last_name", "=", "Formless")
      .executeTakeFirst();
    expect(row?.school_location).toBe("Lincoln Elementary, Austin, TX");
  });
});

describe("forums", () => {
  it("creates a forum, and adds a category in that forum's own form", async () => {
    const bad = await post(moderator, "/admin/forums?new=forum", {
      intent: "forum-create",
      title: "",
      slug: "",
      detail: "",
      type: "x",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("Please correct the fields marked below.");

    const created = await post(moderator, "/admin/forums?new=forum", {
      intent: "forum-create",
      title: "Posted Forum",
      slug: "",
      detail: "Made without scripts.",
      type: "g",
    });
    expect(created.statusCode).toBe(200);
    expect(created.body).toContain("The forum “Posted Forum” was created.");
    const forum = await t.deps.db
      .selectFrom("forums")
      .select("id")
      .where("title", "=", "Posted Forum")
      .executeTakeFirstOrThrow();

    const added = await post(moderator, "/admin/forums", {
      intent: `category-create:${forum.id}`,
      forum_id: String(forum.id),
      title: "Posted Category",
    });
    expect(added.statusCode).toBe(200);
    // Only the form of that forum shows the message.
    const shown = added.body.match(/class="alert alert-success">The category “Posted Category”/g);
    expect(shown?.length).toBe(1);
    const category = await t.deps.db
      .selectFrom("forum_categories")
      .select("forum_id")
      .where("title", "=", "Posted Category")
      .executeTakeFirst();
    expect(category?.forum_id).toBe(forum.id);
  });
});

describe("featured stores, school domains, messages", () => {
  it("features a store; an empty choice is 422", async () => {
    const bad = await post(moderator, "/admin/featured", { intent: "add", store_id: "" });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("store_id is not valid.");

    const store = await t.deps.db
      .selectFrom("stores")
      .select(["id", "title"])
      .where("id", "not in", t.deps.db.selectFrom("featured_stores").select("store_id"))
      .executeTakeFirstOrThrow();
    const response = await post(moderator, "/admin/featured", {
      intent: "add",
      store_id: String(store.id),
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("is now featured.");
    const row = await t.deps.db
      .selectFrom("featured_stores")
      .select("store_id")
      .where("store_id", "=", store.id)
      .executeTakeFirst();
    expect(row).toBeDefined();
  });

  it("adds a school domain; the service's refusal shows on the field", async () => {
    const free = await post(moderator, "/admin/educators", {
      intent: "add-domain",
      domain: "gmail.com",
    });
    expect(free.statusCode).toBe(422);
    expect(free.body).toContain("Free mail providers cannot be school domains");
    const domains = () => t.deps.db.selectFrom("school_domains").select("domain").execute();
    expect((await domains()).map((row) => row.domain)).not.toContain("gmail.com");

    const added = await post(moderator, "/admin/educators", {
      intent: "add-domain",
      domain: "formschools.example.org",
    });
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain("Addresses at formschools.example.org are now accepted.");
    expect((await domains()).map((row) => row.domain)).toContain("formschools.example.org");
  });

  it("replies to a message and resolves it", async () => {
    const sent = await t.app.inject({
      method: "POST",
      url: "/api/contact_us",
      payload: {
        name: "Dana Teacher",
        category: "inquiry",
        subject: "A question for the form",
        email: "dana-console@example.org",
        mobile: "555 123 4567",
        website: "",
        message: "Hello.",
      },
    });
    expect(sent.statusCode).toBe(200);
    const message = await t.deps.db
      .selectFrom("contact_messages")
      .select("id")
      .where("subject", "=", "A question for the form")
      .executeTakeFirstOrThrow();
    const url = `/admin/messages?view=${message.id}`;

    const empty = await post(moderator, url, {
      intent: "reply",
      id: String(message.id),
      body: " ",
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain("Write the reply.");

    const replied = await post(moderator, url, {
      intent: "reply",
      id: String(message.id),
      body: "Thank you, Dana.",
      resolve: "true",
    });
    expect(replied.statusCode).toBe(200);
    expect(replied.body).toContain("Your reply to dana-console@example.org is on its way.");
    const replies = await t.deps.db
      .selectFrom("contact_replies")
      .select("body")
      .where("message_id", "=", message.id)
      .execute();
    expect(replies.map((reply) => reply.body)).toEqual(["Thank you, Dana."]);
    const row = await t.deps.db
      .selectFrom("contact_messages")
      .select("status")
      .where("id", "=", message.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("resolved");
  });
});

describe("settings (administrators)", () => {
  it("saves the settings, the unticked box as false; a bad number is 422 and saves nothing", async () => {
    const name = async () =>
      (
        await t.deps.db
          .selectFrom("general_settings")
          .select("website_name")
          .executeTakeFirstOrThrow()
      ).website_name;
    const before = await name();
    const bad = await post(admin, "/admin/settings", {
      intent: "settings",
      website_name: "Never Saved",
      report_hide_threshold: "0",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("The number of reports must be a whole number");
    expect(await name()).toBe(before);

    const saved = await post(admin, "/admin/settings", {
      intent: "settings",
      website_name: "Chalkboard Posted",
      hold_new_user_posts: "false",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("The settings have been saved.");
    expect(await name()).toBe("Chalkboard Posted");
    await post(admin, "/admin/settings", { intent: "settings", website_name: before });
  });

  it("sets the weekly digest's day and hour; a bad one is 422 with its message", async () => {
    const schedule = () =>
      t.deps.db
        .selectFrom("general_settings")
        .select(["digest_weekday", "digest_hour"])
        .executeTakeFirstOrThrow();
    const before = await schedule();
    const bad = await post(admin, "/admin/settings", {
      intent: "digest",
      digest_weekday: "8",
      digest_hour: "24",
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain("Choose a day of the week");
    expect(bad.body).toContain("Choose an hour");
    expect(await schedule()).toEqual(before);

    const saved = await post(admin, "/admin/settings", {
      intent: "digest",
      digest_weekday: "3",
      digest_hour: "18",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("The weekly digest now goes out on Wednesday at 18:00 UTC.");
    expect(await schedule()).toEqual({ digest_weekday: 3, digest_hour: 18 });
  });

  it("blocks a domain", async () => {
    const response = await post(admin, "/admin/settings", {
      intent: "block-domain",
      domain: "https://www.spam-form.example/path",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Links to spam-form.example are now refused.");
    const row = await t.deps.db
      .selectFrom("blocked_domains")
      .select("domain")
      .where("domain", "=", "spam-form.example")
      .executeTakeFirst();
    expect(row).toBeDefined();
  });

  it("uploads the logo as multipart, byte-checked, and removes it with the Remove button", async () => {
    const logo = async () =>
      (
        await t.deps.db
          .selectFrom("general_settings")
          .select("website_logo")
          .executeTakeFirstOrThrow()
      ).website_logo;
    const send = async (fields: Record<string, string>, bytes?: Buffer) => {
      await admin.open("/admin/settings");
      const { payload, headers } = await multipartBody(
        { _csrf: admin.xsrf, intent: "image:website_logo", field: "website_logo", ...fields },
        bytes ? { name: "logo.png", type: "image/png", bytes } : undefined,
      );
      return admin.request({
        method: "POST",
        url: "/admin/settings",
        headers,
        payload,
        xsrf: false,
      });
    };
    const before = await logo();
    const fake = await send({}, Buffer.from("not an image"));
    expect(fake.statusCode).toBe(422);
    expect(fake.body).toContain("Please choose an image file (JPEG, PNG, GIF or WebP).");
    expect(await logo()).toBe(before);

    const saved = await send({}, await pngImage(180, 40));
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("The logo has been saved.");
    expect(await logo()).toMatch(/\S/);
    expect(await logo()).not.toBe(before);

    const removed = await send({ remove: "true" });
    expect(removed.statusCode).toBe(200);
    expect(removed.body).toContain("The logo has been removed.");
    expect(await logo()).toBe("");
  });

  it("is refused to a moderator, as its JSON call is", async () => {
    await moderator.open("/admin/featured");
    const response = await moderator.postForm("/admin/settings", {
      _csrf: moderator.xsrf,
      intent: "block-domain",
      domain: "moderator-blocked.example",
    });
    expect(response.statusCode).toBe(403);
    const row = await t.deps.db
      .selectFrom("blocked_domains")
      .select("domain")
      .where("domain", "=", "moderator-blocked.example")
      .executeTakeFirst();
    expect(row).toBeUndefined();
  });
});

describe("a deal's product merge (post edit)", () => {
  it("merges, audited; a missing deal is refused on the field", async () => {
    const into = await insertPost(t.deps.db, { link: "https://mergeform.example/p/1" });
    const deal = await insertPost(t.deps.db, { link: "https://otherform.example/item/2" });
    const url = `/admin/posts/${deal.unique_id}/edit`;

    const empty = await post(moderator, url, {
      intent: "merge",
      unique_id: deal.unique_id,
      into_unique_id: "",
      reason: "",
    });
    expect(empty.statusCode).toBe(422);
    expect(await auditOf(t.deps.db, "d", deal.unique_id)).toEqual([]);

    const merged = await post(moderator, url, {
      intent: "merge",
      unique_id: deal.unique_id,
      into_unique_id: into.unique_id,
      reason: "Same thing",
    });
    expect(merged.statusCode).toBe(200);
    expect(merged.body).toContain("Merged: this product now has 2 deals.");
    const [entry] = await auditOf(t.deps.db, "d", deal.unique_id);
    expect(entry).toMatchObject({ action: "post.merge_product", reason: "Same thing" });
  });
});

describe("pages and a post's edit (the rich editor's textarea posts HTML)", () => {
  const pageRow = (slug: string) =>
    t.deps.db.selectFrom("cms_pages").selectAll().where("slug", "=", slug).executeTakeFirst();

  it("creates a page; a reserved slug is 422 and stores nothing", async () => {
    const reserved = await post(moderator, "/admin/pages?new=1", {
      intent: "create",
      title: "Admin",
      slug: "admin",
      detail: "<p>Never stored.</p>",
    });
    expect(reserved.statusCode).toBe(422);
    expect(reserved.body).toContain("is an address of the site itself");
    expect(await pageRow("admin")).toBeUndefined();

    const created = await post(moderator, "/admin/pages?new=1", {
      intent: "create",
      title: "Posted Page",
      slug: "posted-page",
      detail: "<p>Written without scripts.</p>",
    });
    expect(created.statusCode).toBe(200);
    expect(created.body).toContain("The page “Posted Page” was created.");
    expect((await pageRow("posted-page"))?.detail).toContain("Written without scripts.");
  });

  it("edits the privacy policy, whose disabled slug field posts as a hidden one", async () => {
    const policy = await pageRow("privacy-policy");
    const url = `/admin/pages?edit=${policy!.id}`;
    const page = await moderator.open(url);
    // The editor's textarea holds the page's HTML, so a post without JavaScript keeps it.
    expect(page.body).toMatch(/<textarea[^>]*name="detail"/);
    const response = await moderator.postForm(url, {
      _csrf: moderator.xsrf,
      intent: "update",
      id: String(policy!.id),
      slug: "privacy-policy",
      title: "Privacy (posted)",
      detail: policy!.detail,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("The page “Privacy (posted)” was saved.");
    expect((await pageRow("privacy-policy"))?.title).toBe("Privacy (posted)");
  });

  it("edits a deal's fields: only what changed is checked and saved", async () => {
    const deal = await insertPost(t.deps.db, { title: "Posted edit deal" });
    const url = `/admin/posts/${deal.unique_id}/edit`;
    const page = await moderator.open(url);
    const field = (name: string) =>
      new RegExp(`name="${name}"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="${name}"`)
        .exec(page.body)
        ?.slice(1)
        .find((value) => value !== undefined) ?? "";
    const sent = {
      intent: "update",
      unique_id: deal.unique_id,
      title: "Posted edit deal",
      description: "<p>A test post.</p>",
      price: field("price"),
      reason: "",
    };

    const bad = await moderator.postForm(url, { _csrf: moderator.xsrf, ...sent, title: "" });
    expect(bad.statusCode).toBe(422);
    const unchanged = await t.deps.db
      .selectFrom("posts")
      .select(["title", "price"])
      .where("unique_id", "=", deal.unique_id)
      .executeTakeFirstOrThrow();
    expect(unchanged.title).toBe("Posted edit deal");

    const saved = await moderator.postForm(url, {
      _csrf: moderator.xsrf,
      ...sent,
      title: "Posted edit deal, renamed",
      reason: "Clearer",
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain("The post has been saved.");
    const [entry] = await auditOf(t.deps.db, "d", deal.unique_id);
    expect(entry).toMatchObject({ reason: "Clearer" });
    // The title (and the slug that follows it); the description and price posted as they were.
    expect(Object.keys(entry!.after as object).sort()).toEqual(["slug", "title"]);
  });
});

describe("stores and categories: a multipart form with the picture", () => {
  async function postMultipart(url: string, fields: Record<string, string>, bytes?: Buffer) {
    await moderator.open(url);
    const { payload, headers } = await multipartBody(
      { _csrf: moderator.xsrf, ...fields },
      bytes ? { name: "logo.png", type: "image/png", bytes } : undefined,
    );
    return moderator.request({ method: "POST", url, headers, payload, xsrf: false });
  }
  const store = (title: string) =>
    t.deps.db
      .selectFrom("stores")
      .select(["id", "image_url"])
      .where("title", "=", title)
      .executeTakeFirst();

  it("creates a store with its picture, byte-checked as the JSON call's", async () => {
    const notImage = await postMultipart(
      "/admin/stores?new=1",
      { intent: "create", title: "Posted Store Fake", slug: "", description: "", link: "" },
      Buffer.from("not an image at all"),
    );
    expect(notImage.statusCode).toBe(422);
    expect(notImage.body).toContain("Please choose an image file (JPEG, PNG, GIF or WebP).");
    expect(await store("Posted Store Fake")).toBeUndefined();

    const tooLarge = await postMultipart(
      "/admin/stores?new=1",
      { intent: "create", title: "Posted Store Huge", slug: "", description: "", link: "" },
      Buffer.alloc(MAX_UPLOAD_BYTES + 1),
    );
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.body).toContain(IMAGE_MESSAGES.tooLarge);
    expect(tooLarge.body).toContain('value="Posted Store Huge"');
    expect(await store("Posted Store Huge")).toBeUndefined();

    const created = await postMultipart(
      "/admin/stores?new=1",
      { intent: "create", title: "Posted Store", slug: "", description: "", link: "" },
      await pngImage(120, 80),
    );
    expect(created.statusCode).toBe(200);
    expect(created.body).toContain("Store “Posted Store” was created.");
    expect((await store("Posted Store"))?.image_url).toMatch(/\S/);
  });

  it("refuses a category without a title (422)", async () => {
    const response = await postMultipart("/admin/categories?new=1", {
      intent: "create",
      title: "",
      slug: "",
      description: "",
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain("Please correct the fields marked below.");
  });
});

describe("who may post", () => {
  it("refuses a post without the token (403) and stores nothing", async () => {
    await moderator.open("/admin/social?new=1");
    const response = await moderator.postForm("/admin/social?new=1", {
      intent: "create",
      name: "No Token",
      social_url: "https://notoken.example/",
      social_image: "icon-twitter",
    });
    expect(response.statusCode).toBe(403);
    expect((await socialLinks()).some((link) => link.name === "No Token")).toBe(false);
  });

  it("refuses a member (403) and sends a visitor to sign in", async () => {
    await member.open("/contact");
    const byMember = await member.postForm("/admin/social", {
      _csrf: member.xsrf,
      intent: "create",
      name: "By Member",
      social_url: "https://member.example/",
      social_image: "icon-twitter",
    });
    expect(byMember.statusCode).toBe(403);

    const visitor = new FormBrowser(t.app);
    await visitor.open("/contact");
    const byVisitor = await visitor.postForm("/admin/social", {
      _csrf: visitor.xsrf,
      intent: "create",
      name: "By Visitor",
      social_url: "https://visitor.example/",
      social_image: "icon-twitter",
    });
    expect(byVisitor.statusCode).toBe(302);
    expect(byVisitor.headers.location).toBe("/login");
    const names = (await socialLinks()).map((link) => link.name);
    expect(names).not.toContain("By Member");
    expect(names).not.toContain("By Visitor");
  });

  it("answers an unknown form with 400", async () => {
    const response = await post(moderator, "/admin/social", { intent: "delete", id: "1" });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain("This form is not known.");
  });
});
