import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { mediaFiles, multipartBody, pngImage } from "../helpers/multipart.ts";
import type { TestClient } from "../helpers/session.ts";

/**
 * The console's stores and categories (/api/admin/stores/*, /api/admin/categories/*) and featured
 * stores: slugs, pictures, old slugs that keep answering, deals moved before a delete, roles,
 * audit entries, and every public list showing a change at the next request.
 */

let t: TestApp;
let admin: TestClient;
let moderator: TestClient;
let member: TestClient;
let adminId: number;
let mediaDir: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ client: admin, id: adminId } = await signInWithRole(t, "admin", "Ada Admin"));
  ({ client: moderator } = await signInWithRole(t, "moderator", "Mo Moderator"));
  ({ client: member } = await signInWithRole(t, "member"));
  mediaDir = t.mediaDir;
});

afterAll(async () => {
  await t?.close();
});

/** A returning visitor's GET: a first visit sets the XSRF cookie and is never public. */
function publicGet(url: string) {
  return t.app.inject({ method: "GET", url, cookies: { [XSRF_COOKIE]: "returning-visitor" } });
}

async function send(
  client: TestClient,
  url: string,
  fields: Record<string, string | number>,
  file?: { name: string; type: string; bytes: Buffer },
) {
  const form = await multipartBody(fields, file);
  return client.request({ method: "POST", url: `/api${url}`, ...form });
}

async function png() {
  return { name: "logo.png", type: "image/png", bytes: await pngImage(120, 80) };
}

async function storeRow(id: number) {
  return t.deps.db.selectFrom("stores").selectAll().where("id", "=", id).executeTakeFirst();
}

async function lastAudit(action: string) {
  return t.deps.db
    .selectFrom("audit_log")
    .selectAll()
    .where("action", "=", action)
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/** A store of the demo data that has deals, and how many posts name it. */
async function storeWithDeals() {
  const row = await t.deps.db
    .selectFrom("posts")
    .innerJoin("stores", "stores.id", "posts.store_id")
    .select(["stores.id", "stores.slug", "stores.title"])
    .select((eb) => eb.fn.countAll<string>().as("deals"))
    .groupBy(["stores.id", "stores.slug", "stores.title"])
    .orderBy("stores.id")
    .executeTakeFirstOrThrow();
  return { ...row, deals: Number(row.deals) };
}

describe("creating stores", () => {
  it("creates a store with its picture and a slug made from the title; lists show it at once", async () => {
    // The cached store lists are filled first, so the new store shows only if they were dropped.
    const before = await publicGet("/api/stores_list");
    expect(before.statusCode).toBe(200);

    const response = await send(
      admin,
      "/admin/stores/create",
      {
        title: "Crayon Corner & Co",
        slug: "",
        description: "Crayons, markers\nand more.",
        link: "crayons.example.com",
      },
      await png(),
    );
    expect(response.statusCode, response.body).toBe(201);
    const { item, message } = response.json();
    expect(message).toBe("Store “Crayon Corner & Co” was created.");
    expect(item).toMatchObject({
      title: "Crayon Corner & Co",
      slug: "crayon-corner-and-co",
      link: "https://crayons.example.com/",
      description: "Crayons, markers\nand more.",
      deals: 0,
    });
    expect(item.image_url).toMatch(/^\/media\/stores\/[\w-]+\.webp$/);
    expect(fs.existsSync(path.join(mediaDir, item.image_url.slice("/media/".length)))).toBe(true);
    const media = await t.deps.db
      .selectFrom("media")
      .selectAll()
      .where("path", "=", item.image_url.slice("/media/".length))
      .executeTakeFirstOrThrow();
    expect(media.user_id).toBe(adminId);

    const after = (await publicGet("/api/stores_list")).json();
    expect(after.response.selected_data.map((s: { slug: string }) => s.slug)).toContain(
      "crayon-corner-and-co",
    );

    const audit = await lastAudit("store.create");
    expect(audit).toMatchObject({
      actor_id: adminId,
      actor_name: "Ada Admin",
      item_type: "store",
      item_id: String(item.id),
    });
    expect(audit!.after).toMatchObject({
      title: "Crayon Corner & Co",
      slug: "crayon-corner-and-co",
    });
  });

  it("lets a moderator create, and refuses a member and a visitor", async () => {
    const byModerator = await send(moderator, "/admin/categories/create", {
      title: "Moderated Category",
    });
    expect(byModerator.statusCode).toBe(201);
    expect(byModerator.json().item.slug).toBe("moderated-category");
    expect((await send(member, "/admin/stores/create", { title: "No" })).statusCode).toBe(403);
    const visitor = await t.app.inject({
      method: "POST",
      url: "/api/admin/stores/create",
      payload: { title: "No" },
    });
    expect(visitor.statusCode).toBe(401);
  });

  it("refuses an empty title, a bad slug and a bad link with field messages, saving nothing", async () => {
    const count = async () =>
      Number(
        (
          await t.deps.db
            .selectFrom("stores")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stores = await count();
    const cases: [Record<string, string>, string, string][] = [
      [{ title: "   " }, "title", "Title is required."],
      [{ title: "Fine", slug: "Not A Slug" }, "slug", "Use lower-case letters"],
      [{ title: "Fine", slug: "double--dash" }, "slug", "Use lower-case letters"],
      [{ title: "Fine", link: "javascript:alert(1)" }, "link", "valid web address"],
      [{ title: "!!!" }, "slug", "no letters or digits"],
      [{ title: "a\u0000b" }, "title", "control characters"],
    ];
    for (const [fields, field, text] of cases) {
      const response = await send(admin, "/admin/stores/create", fields, await png());
      expect(response.statusCode, JSON.stringify(fields)).toBe(422);
      expect(response.json().errors[field], JSON.stringify(fields)).toContain(text);
    }
    expect(await count()).toBe(stores);
  });

  it("refuses a slug in use with a clear message, also when two requests race", async () => {
    const taken = await send(admin, "/admin/stores/create", {
      title: "Another Crayon Corner",
      slug: "crayon-corner-and-co",
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.slug).toBe(
      "The slug “crayon-corner-and-co” is already used by the store “Crayon Corner & Co”. Choose another.",
    );

    const racing = await Promise.all(
      [1, 2].map(() => send(admin, "/admin/stores/create", { title: "Racing Store" })),
    );
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 422]);
    const refused = racing.find((r) => r.statusCode === 422)!;
    expect(refused.json().errors.slug).toMatch(/“racing-store” (is already used|was just taken)/);
    const rows = await t.deps.db
      .selectFrom("stores")
      .select("id")
      .where("slug", "=", "racing-store")
      .execute();
    expect(rows).toHaveLength(1);
  });

  it("keeps HTML in names as the text typed", async () => {
    const title = `<b>Bold</b> & <img src=x onerror="alert(1)">`;
    const response = await send(admin, "/admin/categories/create", { title, slug: "html-name" });
    expect(response.statusCode).toBe(201);
    expect(response.json().item.title).toBe(title);
    const list = (await publicGet("/api/category_list")).json();
    expect(
      list.response.selected_data.find((c: { slug: string }) => c.slug === "html-name").title,
    ).toBe(title);
  });

  it("refuses a file that is not an image and keeps nothing of the request", async () => {
    const files = mediaFiles(mediaDir, "stores");
    const mediaRows = await t.deps.db.selectFrom("media").select("id").execute();
    const fake = {
      name: "logo.png",
      type: "image/png",
      bytes: Buffer.from("<?php echo 'not an image'; ?>".repeat(20)),
    };
    const response = await send(admin, "/admin/stores/create", { title: "Fake Picture" }, fake);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.image).toBe(
      "Please choose an image file (JPEG, PNG, GIF or WebP).",
    );
    expect(
      await t.deps.db
        .selectFrom("stores")
        .where("slug", "=", "fake-picture")
        .select("id")
        .execute(),
    ).toEqual([]);
    expect(mediaFiles(mediaDir, "stores")).toEqual(files);
    expect(await t.deps.db.selectFrom("media").select("id").execute()).toHaveLength(
      mediaRows.length,
    );
  });
});

describe("editing stores", () => {
  it("keeps a changed slug, which finds the store in JSON calls and answers 301 for its feed", async () => {
    const created = (
      await send(admin, "/admin/stores/create", { title: "Glue Galaxy", slug: "glue-galaxy" })
    ).json().item;
    const renamed = await send(admin, "/admin/stores/update", {
      id: created.id,
      title: "Glue Universe",
      slug: "glue-universe",
      description: "",
      link: "",
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().item).toMatchObject({ slug: "glue-universe", title: "Glue Universe" });

    const byOldSlug = await t.app.inject({
      method: "POST",
      url: "/api/category_page",
      payload: { slug: "glue-galaxy", type: "store", page: 1 },
    });
    expect(byOldSlug.statusCode).toBe(200);
    expect(byOldSlug.json().response.selected[0]).toMatchObject({
      id: created.id,
      slug: "glue-universe",
    });
    const feed = await publicGet("/rss/store/glue-galaxy.xml");
    expect(feed.statusCode).toBe(301);
    expect(feed.headers.location).toBe("/rss/store/glue-universe.xml");

    const audit = await lastAudit("store.update");
    expect(audit!.before).toEqual({ title: "Glue Galaxy", slug: "glue-galaxy" });
    expect(audit!.after).toEqual({ title: "Glue Universe", slug: "glue-universe" });

    // Back to the first slug: it is the store's own again, and the second one leads to it.
    await send(admin, "/admin/stores/update", {
      id: created.id,
      title: "Glue Galaxy",
      slug: "glue-galaxy",
    });
    const redirects = await t.deps.db
      .selectFrom("slug_redirects")
      .select(["old_slug", "target_id"])
      .where("kind", "=", "store")
      .where("target_id", "=", created.id)
      .execute();
    expect(redirects).toEqual([{ old_slug: "glue-universe", target_id: created.id }]);
  });

  it("replaces and removes the picture, deleting the file it replaced", async () => {
    const created = (
      await send(admin, "/admin/categories/create", { title: "Picture Frames" }, await png())
    ).json().item;
    const first = path.join(mediaDir, created.image_url.slice("/media/".length));
    expect(fs.existsSync(first)).toBe(true);

    const replaced = (
      await send(
        moderator,
        "/admin/categories/update",
        { id: created.id, title: "Picture Frames", slug: created.slug },
        await png(),
      )
    ).json().item;
    expect(replaced.image_url).not.toBe(created.image_url);
    expect(fs.existsSync(first)).toBe(false);

    const removed = await send(admin, "/admin/categories/update", {
      id: created.id,
      title: "Picture Frames",
      slug: created.slug,
      remove_image: "true",
    });
    expect(removed.json().item.image_url).toBe("");
    expect(fs.existsSync(path.join(mediaDir, replaced.image_url.slice("/media/".length)))).toBe(
      false,
    );
  });

  it("answers 404 for a store that does not exist", async () => {
    const response = await send(admin, "/admin/stores/update", { id: 999999, title: "Ghost" });
    expect(response.statusCode).toBe(404);
  });

  it("shows a renamed store on the home page's cards at once", async () => {
    const store = await storeWithDeals();
    await publicGet("/api/home"); // fills the five-second home lists cache
    const response = await send(admin, "/admin/stores/update", {
      id: store.id,
      title: `${store.title} Outlet`,
      slug: store.slug,
    });
    expect(response.statusCode).toBe(200);
    const home = (
      await t.app.inject({ method: "POST", url: "/api/home", payload: { user_id: "" } })
    ).json();
    const cards = [...home.trending_deals.deals_arr, ...home.recent_deals.recent_arr].filter(
      (card: { store_id: number | null }) => card.store_id === store.id,
    );
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) expect(card.store_title).toBe(`${store.title} Outlet`);
    await send(admin, "/admin/stores/update", {
      id: store.id,
      title: store.title,
      slug: store.slug,
    });
  });
});

describe("deleting stores and categories", () => {
  it("is an admin's: a moderator gets 403", async () => {
    const created = (await send(admin, "/admin/stores/create", { title: "Keep Me" })).json().item;
    const response = await moderator.post("/api/admin/stores/delete", { id: created.id });
    expect(response.statusCode).toBe(403);
    expect(await storeRow(created.id)).toBeDefined();
  });

  it("refuses a store with deals, saying how many, then moves them with move_to", async () => {
    const store = await storeWithDeals();
    const refused = await admin.post("/api/admin/stores/delete", { id: store.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      status: false,
      in_use: store.deals,
      message: `“${store.title}” still has ${store.deals} deal${store.deals === 1 ? "" : "s"}. Choose another store to move ${store.deals === 1 ? "it" : "them"} to, then delete it.`,
    });
    expect(await storeRow(store.id)).toBeDefined();

    const itself = await admin.post("/api/admin/stores/delete", {
      id: store.id,
      move_to: store.id,
    });
    expect(itself.statusCode).toBe(422);
    expect(itself.json().errors.move_to).toBeTruthy();
    const nowhere = await admin.post("/api/admin/stores/delete", {
      id: store.id,
      move_to: 999999,
    });
    expect(nowhere.statusCode).toBe(422);
    expect(await storeRow(store.id)).toBeDefined();

    const target = (await send(admin, "/admin/stores/create", { title: "Takes Over" })).json().item;
    const deleted = await admin.post("/api/admin/stores/delete", {
      id: store.id,
      move_to: target.id,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().moved).toBe(store.deals);
    expect(await storeRow(store.id)).toBeUndefined();
    const moved = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("store_id", "=", target.id)
      .execute();
    expect(moved).toHaveLength(store.deals);

    // The deleted store's address leads to the store that took its deals.
    const byOldSlug = await t.app.inject({
      method: "POST",
      url: "/api/category_page",
      payload: { slug: store.slug, type: "store", page: 1 },
    });
    expect(byOldSlug.json().response.selected[0].id).toBe(target.id);
    expect(byOldSlug.json().response.deal_data_pagination.total).toBeGreaterThan(0);

    const audit = await lastAudit("store.delete");
    expect(audit).toMatchObject({ item_id: String(store.id), actor_id: adminId });
    expect(audit!.before).toMatchObject({ title: store.title, deals: store.deals });
    expect(audit!.after).toMatchObject({ moved_deals_to: target.id });
  });

  it("deletes a store without deals with its picture, and its address is gone", async () => {
    const created = (
      await send(admin, "/admin/stores/create", { title: "Short Lived" }, await png())
    ).json().item;
    const file = path.join(mediaDir, created.image_url.slice("/media/".length));
    const response = await admin.post("/api/admin/stores/delete", { id: created.id });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: "true",
      message: "Store “Short Lived” was deleted.",
      moved: 0,
    });
    expect(fs.existsSync(file)).toBe(false);
    const gone = await t.app.inject({
      method: "POST",
      url: "/api/category_page",
      payload: { slug: "short-lived", type: "store", page: 1 },
    });
    expect(gone.statusCode).toBe(404);
  });

  it("moves a category's deals the same way", async () => {
    const row = await t.deps.db
      .selectFrom("posts")
      .innerJoin("categories", "categories.id", "posts.category_id")
      .select(["categories.id", "categories.title"])
      .select((eb) => eb.fn.countAll<string>().as("deals"))
      .groupBy(["categories.id", "categories.title"])
      .orderBy("categories.id")
      .executeTakeFirstOrThrow();
    const refused = await admin.post("/api/admin/categories/delete", { id: row.id });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().in_use).toBe(Number(row.deals));
    const target = (await send(admin, "/admin/categories/create", { title: "Catch All" })).json()
      .item;
    const deleted = await admin.post("/api/admin/categories/delete", {
      id: row.id,
      move_to: target.id,
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toContain(`moved to “Catch All”`);
    const list = (await publicGet("/api/category_list")).json();
    expect(list.response.selected_data.map((c: { id: number }) => c.id)).not.toContain(row.id);
  });
});

describe("featured stores", () => {
  async function featuredSlugs() {
    const body = (await publicGet("/api/featured_stores")).json();
    return body.response.featured_data_arr.map((s: { slug: string }) => s.slug) as string[];
  }

  it("adds, orders and removes featured stores; the public list follows at once", async () => {
    const before = await featuredSlugs();
    expect(before.length).toBeGreaterThan(1);
    const store = (await send(admin, "/admin/stores/create", { title: "Now Featured" })).json()
      .item;

    const added = await moderator.post("/api/admin/featured/add", { store_id: store.id });
    expect(added.statusCode).toBe(200);
    expect(added.json().message).toBe("“Now Featured” is now featured.");
    expect(await featuredSlugs()).toEqual([...before, "now-featured"]);

    const again = await moderator.post("/api/admin/featured/add", { store_id: store.id });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.store_id).toBe("“Now Featured” is already featured.");

    const up = await moderator.post("/api/admin/featured/move", {
      store_id: store.id,
      direction: "up",
    });
    expect(up.statusCode).toBe(200);
    const moved = await featuredSlugs();
    expect(moved.at(-2)).toBe("now-featured");
    expect(moved.at(-1)).toBe(before.at(-1));

    const removed = await moderator.post("/api/admin/featured/remove", { store_id: store.id });
    expect(removed.statusCode).toBe(200);
    expect(await featuredSlugs()).toEqual(before);
    const positions = await t.deps.db
      .selectFrom("featured_stores")
      .select("position")
      .orderBy("position")
      .execute();
    expect(positions.map((p) => p.position)).toEqual(positions.map((_, i) => i + 1));
  });

  it("refuses a store that does not exist, and members", async () => {
    const missing = await admin.post("/api/admin/featured/add", { store_id: 999999 });
    expect(missing.statusCode).toBe(422);
    expect((await member.post("/api/admin/featured/add", { store_id: 1 })).statusCode).toBe(403);
  });
});

describe("the console lists", () => {
  it("searches and pages stores, with their deal counts", async () => {
    const response = await moderator.get("/api/admin/stores?search=crayon&page=1");
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.items.map((s: { slug: string }) => s.slug)).toContain("crayon-corner-and-co");
    for (const item of body.items) expect(item.title.toLowerCase()).toContain("crayon");
    expect(body.pagination).toMatchObject({ current_page: 1, per_page: 20 });
    const wild = await moderator.get("/api/admin/stores?search=%25&page=abc");
    expect(wild.statusCode).toBe(200);
    expect(wild.json().pagination.current_page).toBe(1);
  });

  it("counts each store's and category's posts whatever their status", async () => {
    const db = t.deps.db;
    const store = await storeWithDeals();
    const listed = async (kind: "stores" | "categories", title: string, id: number) => {
      const response = await moderator.get(
        `/api/admin/${kind}?search=${encodeURIComponent(title)}&page=1`,
      );
      return response.json().items.find((item: { id: number }) => item.id === id).deals;
    };
    const category = await db
      .selectFrom("categories")
      .select(["id", "title"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const counted = async (column: "store_id" | "category_id", id: number) =>
      Number(
        (
          await db
            .selectFrom("posts")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where(column, "=", id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const { id } = await db
      .insertInto("posts")
      .values({
        unique_id: "cntstatus01",
        slug: "held-counted-deal",
        post_type: "d",
        kind: "deal",
        title: "Held counted deal",
        link: "https://example.com/held-counted",
        price: 5,
        status: "pending",
        store_id: store.id,
        category_id: category.id,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect(await listed("stores", store.title, store.id)).toBe(store.deals + 1);
    expect(await listed("categories", category.title, category.id)).toBe(
      await counted("category_id", category.id),
    );
    await db.deleteFrom("posts").where("id", "=", id).execute();
    expect(await listed("stores", store.title, store.id)).toBe(store.deals);
    expect(await listed("categories", category.title, category.id)).toBe(
      await counted("category_id", category.id),
    );
  });
});
