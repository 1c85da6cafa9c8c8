import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESERVED_PAGE_SLUGS } from "../../core/cms/console-schema.ts";
import { XSRF_COOKIE } from "../../core/constants.ts";
import routes from "../../app/routes.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * The console's curated content: the Teachers Wishlist, social links, forums and their
 * categories, CMS pages. Each write is checked through the public call that shows it, at the
 * next request (the caches drop on the change).
 */

let t: TestApp;
let admin: TestClient;
let moderator: TestClient;
let adminId: number;

beforeAll(async () => {
  t = await createTestApp();
  ({ client: admin, id: adminId } = await signInWithRole(t, "admin", "Ada Admin"));
  ({ client: moderator } = await signInWithRole(t, "moderator"));
});

afterAll(async () => {
  await t?.close();
});

function publicGet(url: string) {
  return t.app.inject({ method: "GET", url, cookies: { [XSRF_COOKIE]: "returning-visitor" } });
}

function publicPost(url: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: "POST", url, payload });
}

async function lastAudit(action: string) {
  return t.deps.db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .orderBy("id", "desc")
    .executeTakeFirst();
}

describe("the Teachers Wishlist", () => {
  const homeWishlist = async () =>
    (await publicPost("/api/home", { user_id: "" })).json().teachers_wishlist as {
      id: number;
      last_name: string;
      amazon_wishlist: string;
    }[];

  it("adds, edits, orders and deletes entries; the home page follows at once", async () => {
    const before = await homeWishlist();
    const created = await moderator.post("/api/admin/wishlist/create", {
      first_name: "Grace",
      last_name: "Hopper",
      school_location: "Arlington Elementary, VA",
      amazon_wishlist: "amazon.com/hz/wishlist/ls/GRACE",
    });
    expect(created.statusCode, created.body).toBe(201);
    const entry = created.json().item;
    expect(entry).toMatchObject({
      amazon_wishlist: "https://amazon.com/hz/wishlist/ls/GRACE",
      position: before.length + 1,
    });
    expect((await homeWishlist()).at(-1)).toMatchObject({ id: entry.id, last_name: "Hopper" });

    const edited = await moderator.post("/api/admin/wishlist/update", {
      id: entry.id,
      first_name: "Grace",
      last_name: "Brewster Hopper",
      school_location: "Arlington Elementary, VA",
      amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/GRACE2",
    });
    expect(edited.statusCode).toBe(200);
    expect((await lastAudit("wishlist.update"))!.after).toEqual({
      last_name: "Brewster Hopper",
      amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/GRACE2",
    });

    await moderator.post("/api/admin/wishlist/move", { id: entry.id, direction: "up" });
    const moved = await homeWishlist();
    expect(moved.at(-2)!.id).toBe(entry.id);

    expect((await moderator.post("/api/admin/wishlist/delete", { id: entry.id })).statusCode).toBe(
      403,
    );
    const deleted = await admin.post("/api/admin/wishlist/delete", { id: entry.id });
    expect(deleted.statusCode).toBe(200);
    expect((await homeWishlist()).map((w) => w.id)).toEqual(before.map((w) => w.id));
  });

  it("checks the wishlist address is a web address and the names are given", async () => {
    const response = await admin.post("/api/admin/wishlist/create", {
      first_name: "",
      last_name: "X",
      school_location: "Y",
      amazon_wishlist: "not a url at all",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toMatchObject({
      first_name: "First name is required.",
      amazon_wishlist: "Please enter a valid web address (https://…).",
    });
    const script = await admin.post("/api/admin/wishlist/create", {
      first_name: "A",
      last_name: "B",
      school_location: "C",
      amazon_wishlist: "javascript:alert(1)",
    });
    expect(script.statusCode).toBe(422);
  });
});

describe("social links", () => {
  const footerLinks = async () =>
    (await publicGet("/api/social")).json().data as { name: string; social_image: string }[];

  it("adds, edits, orders and deletes links; the footer's settings follow at once", async () => {
    const before = await footerLinks();
    const created = await moderator.post("/api/admin/social/create", {
      name: "LinkedIn",
      social_url: "https://www.linkedin.com/company/chalkboard",
      social_image: "icon-linkedin",
    });
    expect(created.statusCode).toBe(201);
    const link = created.json().item;
    expect((await footerLinks()).at(-1)).toMatchObject({
      name: "LinkedIn",
      social_image: "icon-linkedin",
    });

    await moderator.post("/api/admin/social/move", { id: link.id, direction: "up" });
    expect((await footerLinks()).at(-2)!.name).toBe("LinkedIn");

    const edited = await moderator.post("/api/admin/social/update", {
      id: link.id,
      name: "<LinkedIn>",
      social_url: "linkedin.com/company/chalkboard",
      social_image: "icon-link",
    });
    expect(edited.json().item).toMatchObject({
      name: "<LinkedIn>",
      social_url: "https://linkedin.com/company/chalkboard",
    });

    const deleted = await admin.post("/api/admin/social/delete", { id: link.id });
    expect(deleted.statusCode).toBe(200);
    expect(await footerLinks()).toEqual(before);
  });

  it("accepts only the icons the footer can draw", async () => {
    const response = await admin.post("/api/admin/social/create", {
      name: "Mystery",
      social_url: "https://example.com",
      social_image: "icon-<script>",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.social_image).toBe("Choose an icon from the list.");
  });
});

describe("forums and their categories", () => {
  const forumList = async () =>
    (await publicGet("/api/forums")).json().froum_list as { title: string; slug: string }[];

  it("creates, edits, orders and deletes forums; the forum list follows at once", async () => {
    const before = await forumList();
    const created = await moderator.post("/api/admin/forums/create", {
      title: "Field Trips",
      detail: "Where to take a class.",
      type: "g",
    });
    expect(created.statusCode, created.body).toBe(201);
    const forum = created.json().forum;
    expect(forum.slug).toBe("field-trips");
    expect((await forumList()).map((f) => f.slug)).toEqual([
      ...before.map((f) => f.slug),
      "field-trips",
    ]);

    const duplicate = await moderator.post("/api/admin/forums/create", {
      title: "Field Trips",
      type: "d",
    });
    expect(duplicate.statusCode).toBe(422);
    expect(duplicate.json().errors.slug).toContain("already used by the forum “Field Trips”");

    await moderator.post("/api/admin/forums/move", { id: forum.id, direction: "up" });
    expect((await forumList()).at(-2)!.slug).toBe("field-trips");

    const renamed = await moderator.post("/api/admin/forums/update", {
      id: forum.id,
      title: "Field Trips & Visits",
      slug: "field-trips",
      detail: "",
      type: "g",
    });
    expect(renamed.statusCode).toBe(200);
    expect((await forumList()).map((f) => f.title)).toContain("Field Trips & Visits");

    // A forum with a category is kept until the category is gone.
    const category = (
      await moderator.post("/api/admin/forum_categories/create", {
        forum_id: forum.id,
        title: "Museums",
      })
    ).json().category;
    expect(category).toMatchObject({ kind: "discussion", position: 1, posts: 0 });
    const typeChange = await moderator.post("/api/admin/forums/update", {
      id: forum.id,
      title: "Field Trips & Visits",
      slug: "field-trips",
      type: "d",
    });
    expect(typeChange.statusCode).toBe(422);
    const refused = await admin.post("/api/admin/forums/delete", { id: forum.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain("still has 1 category");
    expect(
      (await admin.post("/api/admin/forum_categories/delete", { id: category.id })).statusCode,
    ).toBe(200);
    expect((await admin.post("/api/admin/forums/delete", { id: forum.id })).statusCode).toBe(200);
    expect(await forumList()).toEqual(before);
  });

  it("keeps a category with posts until they move to another of its kind", async () => {
    const used = await t.deps.db
      .selectFrom("posts")
      .innerJoin("forum_categories", "forum_categories.id", "posts.forum_category_id")
      .select(["forum_categories.id", "forum_categories.kind", "forum_categories.title"])
      .select((eb) => eb.fn.countAll<string>().as("posts"))
      .groupBy(["forum_categories.id", "forum_categories.kind", "forum_categories.title"])
      .orderBy("forum_categories.id")
      .executeTakeFirstOrThrow();
    const posts = Number(used.posts);
    const sameKind = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", used.kind)
      .where("id", "<>", used.id)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const otherKind = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "<>", used.kind)
      .orderBy("id")
      .executeTakeFirstOrThrow();

    // The console lists each category with its posts of every status (kept by the database).
    const listedPosts = async (id: number) => {
      const { forums } = (await moderator.get("/api/admin/forums")).json();
      const categories = forums.flatMap(
        (forum: { categories: { id: number }[] }) => forum.categories,
      );
      return Number(categories.find((category: { id: number }) => category.id === id)?.posts ?? 0);
    };
    expect(await listedPosts(used.id)).toBe(posts);
    const sameKindBefore = await listedPosts(sameKind.id);

    expect(
      (await moderator.post("/api/admin/forum_categories/delete", { id: used.id })).statusCode,
    ).toBe(403);
    const refused = await admin.post("/api/admin/forum_categories/delete", { id: used.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ in_use: posts });
    const wrongKind = await admin.post("/api/admin/forum_categories/delete", {
      id: used.id,
      move_to: otherKind.id,
    });
    expect(wrongKind.statusCode).toBe(422);

    const moved = await admin.post("/api/admin/forum_categories/delete", {
      id: used.id,
      move_to: sameKind.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().moved).toBe(posts);
    expect(await listedPosts(sameKind.id)).toBe(sameKindBefore + posts);
    const options = (await publicGet("/api/submit_deal")).json();
    expect(JSON.stringify(options)).not.toContain(`"${used.title}"`);
    const audit = await lastAudit("forum_category.delete");
    expect(audit).toMatchObject({ actor_id: adminId, item_id: String(used.id) });
  });
});

describe("CMS pages", () => {
  it("creates a page with sanitised HTML, readable through cms_page at once", async () => {
    const created = await moderator.post("/api/admin/pages/create", {
      slug: "terms-of-use",
      title: "Terms of Use",
      detail:
        '<h2>Terms</h2><p onclick="steal()">Be <strong>kind</strong>.<script>alert(1)</script></p>' +
        '<p><a href="javascript:alert(2)">bad</a> <a href="https://example.com">good</a></p>' +
        '<iframe src="https://evil.example"></iframe><p style="color:red">styled</p>',
    });
    expect(created.statusCode, created.body).toBe(201);
    const page = created.json().page;
    expect(page).toMatchObject({ slug: "terms-of-use", url: "/page/terms-of-use" });
    expect(page.detail).toContain("<strong>kind</strong>");
    for (const banned of ["script", "onclick", "javascript:", "iframe", "style="]) {
      expect(page.detail).not.toContain(banned);
    }
    expect(page.detail).toContain('href="https://example.com"');

    const read = await publicPost("/api/cms_page", { slug: "terms-of-use" });
    expect(read.statusCode).toBe(200);
    expect(read.json().cms_page[0]).toMatchObject({ title: "Terms of Use", detail: page.detail });
  });

  it("refuses a slug in use, a route of the site, a bad slug and an empty page", async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ slug: "terms-of-use" }, "slug", "already used by the page “Terms of Use”"],
      [{ slug: "admin" }, "slug", "an address of the site itself"],
      [{ slug: "store" }, "slug", "an address of the site itself"],
      [{ slug: "Upper-Case" }, "slug", "Use lower-case letters"],
      [{ slug: "" }, "slug", "The slug is required."],
      [{ detail: "<p>  </p><script>x()</script>" }, "detail", "cannot be empty"],
      [{ title: "" }, "title", "Title is required."],
    ];
    for (const [change, field, text] of cases) {
      const response = await admin.post("/api/admin/pages/create", {
        slug: "fresh-page",
        title: "Fresh",
        detail: "<p>Text.</p>",
        ...change,
      });
      expect(response.statusCode, JSON.stringify(change)).toBe(422);
      expect(response.json().errors[field], JSON.stringify(change)).toContain(text);
    }
    const made = await t.deps.db
      .selectFrom("cms_pages")
      .select("id")
      .where("slug", "=", "fresh-page")
      .execute();
    expect(made).toEqual([]);
  });

  it("edits the privacy policy, keeping its slug and refusing its deletion", async () => {
    const pages = (await moderator.get("/api/admin/pages")).json().pages as {
      id: number;
      slug: string;
      url: string;
    }[];
    const policy = pages.find((p) => p.slug === "privacy-policy")!;
    expect(policy.url).toBe("/privacy-policy");
    // The public page is read (and kept) before the edit.
    await publicPost("/api/cms_page", { slug: "privacy-policy" });

    const edited = await moderator.post("/api/admin/pages/update", {
      id: policy.id,
      slug: "privacy-policy",
      title: "Privacy Policy",
      detail: "<h2>Privacy Policy</h2><p>We changed this today.</p>",
    });
    expect(edited.statusCode).toBe(200);
    const read = (await publicPost("/api/cms_page", { slug: "privacy-policy" })).json();
    expect(read.cms_page[0].detail).toContain("We changed this today.");

    const moved = await admin.post("/api/admin/pages/update", {
      id: policy.id,
      slug: "privacy",
      title: "Privacy Policy",
      detail: "<p>x</p>",
    });
    expect(moved.statusCode).toBe(422);
    expect(moved.json().errors.slug).toContain("keeps its address");
    const deleted = await admin.post("/api/admin/pages/delete", { id: policy.id });
    expect(deleted.statusCode).toBe(409);
  });

  it("renames a page's slug, keeps the old one for the page, and deletes a page (admins)", async () => {
    const page = (
      await admin.post("/api/admin/pages/create", {
        slug: "faq",
        title: "Questions",
        detail: "<p>Ask us.</p>",
      })
    ).json().page;
    const renamed = await moderator.post("/api/admin/pages/update", {
      id: page.id,
      slug: "questions",
      title: "Questions and answers",
      detail: "<p>Ask us anything.</p>",
    });
    expect(renamed.statusCode).toBe(200);
    expect(
      await t.deps.db
        .selectFrom("slug_redirects")
        .select(["old_slug", "target_id"])
        .where("kind", "=", "page")
        .execute(),
    ).toContainEqual({ old_slug: "faq", target_id: page.id });

    expect((await moderator.post("/api/admin/pages/delete", { id: page.id })).statusCode).toBe(403);
    expect((await admin.post("/api/admin/pages/delete", { id: page.id })).statusCode).toBe(200);
    expect((await publicPost("/api/cms_page", { slug: "questions" })).statusCode).toBe(404);
    expect(
      await t.deps.db
        .selectFrom("slug_redirects")
        .select("old_slug")
        .where("kind", "=", "page")
        .where("target_id", "=", page.id)
        .execute(),
    ).toEqual([]);
  });

  it("lists the owner's pages in the sitemap", async () => {
    const xml = (await publicGet("/sitemaps/pages.xml")).body;
    expect(xml).toContain("<loc>http://localhost:3000/page/terms-of-use</loc>");
    expect(xml.match(/privacy-policy<\/loc>/g)).toHaveLength(1);
  });

  it("reserves the first segment of every route of the site", () => {
    const firstSegments = new Set<string>();
    const visit = (entries: { path?: string; children?: unknown[] }[]) => {
      for (const entry of entries) {
        const segment = entry.path?.split("/")[0];
        if (segment && segment !== "*" && !segment.startsWith(":")) firstSegments.add(segment);
        if (entry.children) visit(entry.children as typeof entries);
      }
    };
    visit(routes as { path?: string; children?: unknown[] }[]);
    expect([...firstSegments]).toEqual(expect.arrayContaining(["admin", "page", "store", "user"]));
    const allowed = new Set(["privacy-policy"]); // the one page the site serves at its own address
    for (const segment of firstSegments) {
      if (allowed.has(segment)) continue;
      expect(RESERVED_PAGE_SLUGS, segment).toContain(segment);
    }
  });
});
