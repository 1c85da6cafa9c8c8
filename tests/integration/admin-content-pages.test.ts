import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * The public side of the console's content, served from the production build: old store and
 * category slugs answer 301, the owner's pages are reachable at /page/<slug>, names typed with
 * HTML show as text; and the console pages themselves, by role.
 */

let t: TestApp;
let admin: TestClient;
let moderator: TestClient;
let member: TestClient;

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  ({ client: admin } = await signInWithRole(t, "admin"));
  ({ client: moderator } = await signInWithRole(t, "moderator"));
  ({ client: member } = await signInWithRole(t, "member"));
});

afterAll(async () => {
  await t?.close();
});

function visit(url: string) {
  return t.app.inject({ method: "GET", url, cookies: { [XSRF_COOKIE]: "returning-visitor" } });
}

describe("old slugs", () => {
  it("answers 301 from a store's and a category's old address to the new one", async () => {
    const store = await t.deps.db
      .selectFrom("stores")
      .select(["id", "slug", "title"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const renamed = await admin.post("/api/admin/stores/update", {
      id: store.id,
      title: store.title,
      slug: `${store.slug}-shop`,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);

    const old = await visit(`/store/${store.slug}?page=1&min_price=5`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/store/${store.slug}-shop?page=1&min_price=5`);
    const current = await visit(`/store/${store.slug}-shop`);
    expect(current.statusCode).toBe(200);
    expect(current.body).toContain(store.title);

    const category = await t.deps.db
      .selectFrom("categories")
      .select(["id", "slug", "title"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    await admin.post("/api/admin/categories/update", {
      id: category.id,
      title: category.title,
      slug: `${category.slug}-corner`,
    });
    const oldCategory = await visit(`/category/${category.slug}`);
    expect(oldCategory.statusCode).toBe(301);
    expect(oldCategory.headers.location).toBe(`/category/${category.slug}-corner`);
    expect((await visit("/category/never-existed")).statusCode).toBe(404);
  });

  it("shows a name typed with HTML as text", async () => {
    const created = await admin.post("/api/admin/stores/create", {
      title: "<em>Shiny</em> Pens <script>alert(1)</script>",
      slug: "shiny-pens",
    });
    expect(created.statusCode).toBe(201);
    const page = await visit("/store/shiny-pens");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      "&lt;em&gt;Shiny&lt;/em&gt; Pens &lt;script&gt;alert(1)&lt;/script&gt;",
    );
    expect(page.body).not.toContain("<em>Shiny</em>");
    expect(page.body).not.toContain("<script>alert(1)</script>");
  });
});

describe("the owner's pages", () => {
  it("serves a new page at /page/<slug> at once, and 404 for an unknown one", async () => {
    const created = await moderator.post("/api/admin/pages/create", {
      slug: "community-rules",
      title: "Community Rules",
      detail: "<h2>Community Rules</h2><p>Share <strong>real</strong> deals only.</p>",
    });
    expect(created.statusCode, created.body).toBe(201);
    const page = await visit("/page/community-rules");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("<strong>real</strong> deals only.");
    expect(page.body).toContain("<title>Community Rules |");
    expect(page.body).toContain('href="http://localhost:3000/page/community-rules"');
    expect((await visit("/page/no-such-page")).statusCode).toBe(404);
    expect((await visit("/page/Not_A_Slug")).statusCode).toBe(404);
  });

  it("sends the privacy policy's and a renamed page's other addresses on", async () => {
    const policy = await visit("/page/privacy-policy");
    expect(policy.statusCode).toBe(301);
    expect(policy.headers.location).toBe("/privacy-policy");

    const page = (
      await admin.post("/api/admin/pages/create", {
        slug: "faq",
        title: "FAQ",
        detail: "<p>Questions.</p>",
      })
    ).json().page;
    await admin.post("/api/admin/pages/update", {
      id: page.id,
      slug: "questions",
      title: "FAQ",
      detail: "<p>Questions.</p>",
    });
    const old = await visit("/page/faq");
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe("/page/questions");
  });

  it("shows the edited privacy policy on /privacy-policy at the next request", async () => {
    expect((await visit("/privacy-policy")).body).not.toContain("Edited by the console test.");
    const { pages } = (await admin.get("/api/admin/pages")).json();
    const policy = pages.find((p: { slug: string }) => p.slug === "privacy-policy");
    const edited = await admin.post("/api/admin/pages/update", {
      id: policy.id,
      slug: "privacy-policy",
      title: "Privacy Policy",
      detail: "<h2>Privacy Policy</h2><p>Edited by the console test.</p>",
    });
    expect(edited.statusCode).toBe(200);
    const page = await visit("/privacy-policy");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Edited by the console test.");
  });
});

describe("the console's content pages", () => {
  const PAGES = [
    ["/admin/stores", "Stores"],
    ["/admin/categories", "Categories"],
    ["/admin/featured", "Featured stores"],
    ["/admin/wishlist", "Teachers Wishlist"],
    ["/admin/social", "Social links"],
    ["/admin/forums", "Forums"],
    ["/admin/pages", "Pages"],
    ["/admin/messages", "Messages"],
  ] as const;

  it("shows each page to moderators and admins, refuses members and sends visitors to log in", async () => {
    for (const [url, heading] of PAGES) {
      for (const client of [admin, moderator]) {
        const response = await client.get(url);
        expect(response.statusCode, url).toBe(200);
        expect(response.body, url).toContain(`<h1>${heading}</h1>`);
        expect(response.body, url).toContain('content="noindex"');
      }
      expect((await member.get(url)).statusCode, url).toBe(403);
      const visitor = await visit(url);
      expect(visitor.statusCode, url).toBe(302);
      expect(visitor.headers.location, url).toBe("/login");
    }
  });

  it("offers deletes to admins only", async () => {
    expect((await admin.get("/admin/stores")).body).toContain(">Delete<");
    expect((await moderator.get("/admin/stores")).body).not.toContain(">Delete<");
  });

  it("opens the edit form of ?edit=<id> and a message of ?view=<id>", async () => {
    const store = await t.deps.db
      .selectFrom("stores")
      .select(["id", "title"])
      .where("slug", "=", "shiny-pens")
      .executeTakeFirstOrThrow();
    const edit = await admin.get(`/admin/stores?edit=${store.id}`);
    expect(edit.body).toContain("Edit store “&lt;em&gt;Shiny&lt;/em&gt;");

    await t.app.inject({
      method: "POST",
      url: "/api/contact_us",
      payload: {
        name: "Sam",
        category: "deal-issue",
        subject: "Broken deal",
        email: "sam@example.org",
        mobile: "5551234567",
        message: "See /store/shiny-pens please",
      },
    });
    const message = await t.deps.db
      .selectFrom("contact_messages")
      .select("id")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const view = await moderator.get(`/admin/messages?view=${message.id}`);
    expect(view.statusCode).toBe(200);
    expect(view.body).toContain("Broken deal");
    expect(view.body).toContain('href="/store/shiny-pens"');
    expect((await moderator.get("/admin/messages?view=abc")).statusCode).toBe(200);
  });
});
