import fs from "node:fs";
import type http from "node:http";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { imageLinkCopyJob } from "../../core/media/image-link-job.ts";
import { postPath } from "../../core/posts/paths.ts";
import { insertPost } from "../helpers/console.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { startLocalHttps, type LocalHttps } from "../helpers/local-https.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { mediaFiles, multipartBody, pngImage } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";

/*
 * Images in user HTML are the site's own (docs/decisions/0074-images-in-user-html.md): an outside
 * image is copied once when a deal, discussion, console edit or CMS page is written, from an HTTPS
 * server on 127.0.0.1 that this file starts (reached through the tests' loopback switch,
 * LINK_CHECK_ALLOW_LOOPBACK); every other image that is not site media is dropped, when written
 * and when shown.
 */

let t: TestApp;
let images: LocalHttps;
let png: Buffer;
/** Requests the image server saw. */
const seen: string[] = [];
/** The app's log lines (LOG_LEVEL info): an image that is dropped is logged. */
const logLines: string[] = [];
let posterId: number;
let poster: TestClient;
const ids = { dealCategory: 0, discussionCategory: 0, store: 0, category: 0 };

function route(request: http.IncomingMessage, response: http.ServerResponse) {
  seen.push(request.url ?? "/");
  if (/^\/[\w-]+\.png$/.test(request.url ?? "") && !request.url!.startsWith("/text")) {
    response.writeHead(200, { "content-type": "image/png" });
    return response.end(png);
  }
  response.writeHead(200, { "content-type": "text/html" });
  response.end("<p>a page, not an image</p>");
}

beforeAll(async () => {
  png = await sharp({
    create: { width: 60, height: 40, channels: 3, background: { r: 20, g: 90, b: 200 } },
  })
    .png()
    .toBuffer();
  images = await startLocalHttps(route);
  t = await createTestApp({
    // Pages too: a picture stored before it was copied is not shown on them either.
    pages: true,
    jobs: true,
    env: { LINK_CHECK_ALLOW_LOOPBACK: "on", LOG_LEVEL: "info" },
    logStream: { write: (line) => void logLines.push(line) },
  });
  const db = t.deps.db;
  const users = await db.selectFrom("users").select("id").orderBy("id").limit(2).execute();
  posterId = users[1]!.id;
  poster = new TestClient(t.app);
  await poster.signInAs(db, posterId);
  const kinds = await db.selectFrom("forum_categories").select(["id", "kind"]).execute();
  ids.dealCategory = kinds.find((k) => k.kind === "deal")!.id;
  ids.discussionCategory = kinds.find((k) => k.kind === "discussion")!.id;
  ids.store = (await db.selectFrom("stores").select("id").executeTakeFirstOrThrow()).id;
  ids.category = (await db.selectFrom("categories").select("id").executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
  await images?.close();
});
beforeEach(() => {
  seen.length = 0;
  logLines.length = 0;
});

async function postForm(
  url: string,
  fields: Record<string, string | number>,
  file?: Parameters<typeof multipartBody>[1],
) {
  const body = await multipartBody(fields, file);
  return poster.request({ method: "POST", url, payload: body.payload, headers: body.headers });
}

let linkCounter = 0;
function dealFields(description: string) {
  linkCounter += 1;
  return {
    user_id: posterId,
    deal_category: ids.dealCategory,
    store_id: ids.store,
    category_id: ids.category,
    title: "Laminating pouches, 200 pack",
    price: "12.99",
    link: `https://www.example-shop.com/p/pouches-${linkCounter}-${Date.now()}`,
    type: "d",
    deal_description: description,
  };
}

async function storedPost(uniqueId: string) {
  return t.deps.db
    .selectFrom("posts")
    .select(["id", "description", "description_text", "user_id"])
    .where("unique_id", "=", uniqueId)
    .executeTakeFirstOrThrow();
}

/** The src of every <img> in `html`. */
const sources = (html: string) => [...html.matchAll(/<img[^>]*\ssrc="([^"]*)"/g)].map((m) => m[1]!);

async function mediaRow(url: string) {
  return t.deps.db
    .selectFrom("media")
    .select(["user_id", "mime"])
    .where("path", "=", url.replace(/^\/media\//, ""))
    .executeTakeFirst();
}

describe("posting a deal or a discussion", () => {
  it("copies an outside image once and drops /go/, other site paths and http images", async () => {
    const outside = `${images.base}/pouches.png`;
    const response = await postForm(
      "/api/save_deal",
      dealFields(
        `<p>Pouches <img src="${outside}" alt="pouches"></p>` +
          '<p><img src="/go/abc123"><img src="/go/abc123"><img src="/api/user_deleted">' +
          `<img src="http://img.example/x.png"><img src="${outside}"></p>`,
      ),
    );
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual(["/pouches.png"]);

    const post = await storedPost(response.json().response.unique_id);
    const [copy, again, ...rest] = sources(post.description);
    expect(rest).toEqual([]);
    expect(copy).toMatch(/^\/media\/deals\/[\w-]+\.webp$/);
    expect(again).toBe(copy);
    expect(post.description).not.toMatch(/\/go\/|127\.0\.0\.1|img\.example|user_deleted/);
    expect(post.description_text).toBe("Pouches");
    expect(mediaFiles(t.mediaDir, "deals")).toContain(path.basename(copy!));
    expect(await mediaRow(copy!)).toEqual({ user_id: posterId, mime: "image/webp" });

    // Showing the post asks nothing of the outside server: it shows the site's copy.
    const uniqueId = response.json().response.unique_id as string;
    await t.deps.db
      .updateTable("posts")
      .set({ status: "active" })
      .where("id", "=", post.id)
      .execute();
    const shown = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: uniqueId },
    });
    expect(sources(shown.json().response.product_details.description)).toEqual([copy, copy]);
    expect(seen).toEqual(["/pouches.png"]);
    const served = await t.app.inject({ method: "GET", url: copy! });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/webp");
  });

  it("saves the post without an image that is not one", async () => {
    const response = await postForm(
      "/api/save_deal",
      dealFields(`<p>Still posted</p><img src="${images.base}/text-page.html">`),
    );
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual(["/text-page.html"]);
    const post = await storedPost(response.json().response.unique_id);
    expect(post.description).toBe("<p>Still posted</p>");
  });

  it("copies a discussion's images into its own folder", async () => {
    const response = await postForm("/api/save_discussion", {
      forum_category_id: ids.discussionCategory,
      title: "Our classroom library",
      detail: `<p>Shelves</p><img src="${images.base}/shelves.png">`,
    });
    expect(response.statusCode).toBe(200);
    const post = await storedPost(response.json().response.unique_id);
    const [copy] = sources(post.description);
    expect(copy).toMatch(/^\/media\/discussions\/[\w-]+\.webp$/);
    expect(mediaFiles(t.mediaDir, "discussions")).toContain(path.basename(copy!));
  });

  it("fetches nothing for a deal it refuses before saving", async () => {
    const response = await postForm(
      "/api/save_deal",
      dealFields(`<p> </p><img src="${images.base}/never.png">`),
    );
    expect(response.statusCode).toBe(422);
    expect(seen).toEqual([]);
  });
});

describe("a deal's image link", () => {
  async function storedImage(uniqueId: string) {
    const row = await t.deps.db
      .selectFrom("posts")
      .select("image_url")
      .where("unique_id", "=", uniqueId)
      .executeTakeFirstOrThrow();
    return row.image_url;
  }

  it("is copied once, with the variants of an upload, and shown as the copy", async () => {
    const response = await postForm("/api/save_deal", {
      ...dealFields("<p>Pouches</p>"),
      deal_image: `${images.named}/picture.png`,
    });
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual(["/picture.png"]);
    const uniqueId = response.json().response.unique_id as string;
    const image = await storedImage(uniqueId);
    expect(image).toMatch(/^\/media\/deals\/[\w-]+\.60x40\.webp$/);
    expect(await mediaRow(image)).toEqual({ user_id: posterId, mime: "image/webp" });
    const files = mediaFiles(t.mediaDir, "deals");
    const stem = path.basename(image).replace(/\.webp$/, "");
    expect(files).toContain(`${stem}.w60.avif`);
    expect(files).toContain(`${stem}.w60.webp`);
  });

  it("is dropped and logged when it is not an image: the deal is posted without a picture", async () => {
    const before = mediaFiles(t.mediaDir, "deals");
    const response = await postForm("/api/save_deal", {
      ...dealFields("<p>No picture</p>"),
      deal_image: `${images.named}/text-page.html`,
    });
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual(["/text-page.html"]);
    expect(await storedImage(response.json().response.unique_id)).toBe("");
    expect(mediaFiles(t.mediaDir, "deals")).toEqual(before);
    expect(logLines.join("\n")).toMatch(
      /A picture link was dropped \(https:\/\/images\.chalkboard\.test:\d+\/text-page\.html\)/,
    );
  });

  it("is not fetched when a file is chosen too: the upload is the picture", async () => {
    const response = await postForm(
      "/api/save_deal",
      { ...dealFields("<p>Both</p>"), deal_image: `${images.named}/unused.png` },
      { name: "mine.png", type: "image/png", bytes: await pngImage(80, 60) },
    );
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual([]);
    expect(await storedImage(response.json().response.unique_id)).toMatch(/\.80x60\.webp$/);
  });
});

describe("pictures stored as outside addresses before they were copied", () => {
  it("are not shown, and the image-link job copies each once, in batches", async () => {
    const outside = `${images.base}/old-picture.png`;
    const copied = await insertPost(t.deps.db, { user_id: posterId, image_url: outside });
    const broken = await insertPost(t.deps.db, {
      user_id: posterId,
      image_url: `${images.base}/text-old.html`,
    });
    const insecure = await insertPost(t.deps.db, { image_url: "http://img.example/x.png" });
    const kept = await insertPost(t.deps.db, { image_url: "/media/demo/kept.webp" });
    const member = await t.deps.db
      .insertInto("users")
      .values({
        name: "Avery Avatar",
        email: `avery-${Date.now()}@example.com`,
        image_url: outside,
      })
      .returning("id")
      .executeTakeFirstOrThrow();

    // Until copied, neither the deal page nor a card nor a profile points at the outside address.
    const shown = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: copied.unique_id },
    });
    expect(shown.json().response.product_details.image_url).toBe("");
    const page = await t.app.inject({ method: "GET", url: postPath(copied) });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain("127.0.0.1");
    const profile = await t.app.inject({ method: "GET", url: `/profile/${member.id}` });
    expect(profile.statusCode).toBe(200);
    expect(profile.body).not.toContain("127.0.0.1");
    expect(seen).toEqual([]);

    await t.jobs.send(imageLinkCopyJob, {});
    await waitForJobs(t.jobs, { kind: imageLinkCopyJob });
    expect(seen.filter((p) => p === "/old-picture.png")).toHaveLength(2); // the post, the member
    const rows = await t.deps.db
      .selectFrom("posts")
      .select(["id", "image_url"])
      .where("id", "in", [copied.id, broken.id, insecure.id, kept.id])
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row.image_url]));
    expect(byId.get(copied.id)).toMatch(/^\/media\/deals\/[\w-]+\.60x40\.webp$/);
    expect(await mediaRow(byId.get(copied.id)!)).toEqual({ user_id: posterId, mime: "image/webp" });
    expect(byId.get(broken.id)).toBe("");
    expect(byId.get(insecure.id)).toBe("");
    expect(byId.get(kept.id)).toBe("/media/demo/kept.webp");
    const avatar = await t.deps.db
      .selectFrom("users")
      .select("image_url")
      .where("id", "=", member.id)
      .executeTakeFirstOrThrow();
    expect(avatar.image_url).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
    expect(logLines.join("\n")).toMatch(
      /The picture of post \d+ \(https:\/\/127\.0\.0\.1:\d+\/text-old\.html\) was not copied/,
    );

    const after = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: copied.unique_id },
    });
    expect(after.json().response.product_details.image_url).toBe(byId.get(copied.id));

    // Once: a second run finds nothing to copy and asks nothing of the outside server.
    seen.length = 0;
    await t.jobs.send(imageLinkCopyJob, {});
    await waitForJobs(t.jobs, { kind: imageLinkCopyJob });
    expect(seen).toEqual([]);
  });
});

describe("the console", () => {
  it("copies the images of an edited description; a refused edit leaves no copy behind", async () => {
    const { client: moderator, id: moderatorId } = await signInWithRole(t, "moderator");
    const deal = await insertPost(t.deps.db, { user_id: posterId });
    const edited = await moderator.post("/api/admin/posts/update", {
      unique_id: deal.unique_id,
      description: `<p>Edited</p><img src="${images.base}/edited.png"><img src="/go/x">`,
      reason: "Better picture",
    });
    expect(edited.statusCode).toBe(200);
    const [copy, ...rest] = sources((await storedPost(deal.unique_id)).description);
    expect(rest).toEqual([]);
    expect(copy).toMatch(/^\/media\/deals\/[\w-]+\.webp$/);
    expect(await mediaRow(copy!)).toEqual({ user_id: moderatorId, mime: "image/webp" });

    const discussion = await insertPost(t.deps.db, { post_type: "g", user_id: posterId });
    const before = mediaFiles(t.mediaDir, "discussions");
    const refused = await moderator.post("/api/admin/posts/update", {
      unique_id: discussion.unique_id,
      description: `<p>Edited</p><img src="${images.base}/refused.png">`,
      price: "3",
      reason: "A deal's field on a discussion",
    });
    expect(refused.statusCode).toBe(422);
    expect(mediaFiles(t.mediaDir, "discussions")).toEqual(before);
  });

  it("copies a CMS page's images into the site's folder", async () => {
    const { client: admin } = await signInWithRole(t, "admin");
    const created = await admin.post("/api/admin/pages/create", {
      slug: "our-classroom",
      title: "Our classroom",
      detail: `<img src="${images.base}/classroom.png" alt="The classroom">`,
    });
    expect(created.statusCode).toBe(201);
    const detail = created.json().page.detail as string;
    const [copy] = sources(detail);
    expect(copy).toMatch(/^\/media\/site\/[\w-]+\.webp$/);
    expect(seen).toEqual(["/classroom.png"]);
  });
});

describe("HTML stored before", () => {
  it("shows only the site's media: outside images and /go/ are dropped when shown", async () => {
    const post = await insertPost(t.deps.db, {
      user_id: posterId,
      description:
        '<p>Old</p><img src="https://tracker.example/pixel.gif"><img src="/go/abc123">' +
        '<img src="/media/deals/kept.webp" alt="kept">',
    });
    const response = await t.app.inject({
      method: "POST",
      url: "/api/product_details",
      payload: { unique_id: post.unique_id },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().response.product_details.description).toBe(
      '<p>Old</p><img src="/media/deals/kept.webp" alt="kept" loading="lazy" />',
    );
  });
});

describe("with the tests' loopback switch off", () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp();
  });
  afterAll(async () => {
    await off?.close();
  });

  it("refuses a loopback image without connecting, and saves the post without it", async () => {
    const client = new TestClient(off.app);
    await client.signInAs(off.deps.db, posterId);
    const body = await multipartBody({
      forum_category_id: ids.discussionCategory,
      title: "Loopback image",
      detail: `<p>Text</p><img src="${images.base}/loopback.png">`,
    });
    const response = await client.request({
      method: "POST",
      url: "/api/save_discussion",
      payload: body.payload,
      headers: body.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(seen).toEqual([]);
    const post = await off.deps.db
      .selectFrom("posts")
      .select("description")
      .where("unique_id", "=", response.json().response.unique_id)
      .executeTakeFirstOrThrow();
    expect(post.description).toBe("<p>Text</p>");
    expect(fs.existsSync(path.join(off.mediaDir, "discussions"))).toBe(false);
  });
});
