import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shortNameOf } from "../../core/app-install/manifest.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * The installable app's server side (docs/decisions/0108-installable-app.md): the manifest from
 * the settings and PUBLIC_URL, icons drawn by sharp from the logo and redrawn when it changes,
 * the service worker's script and headers, and the offline list's call (the member's own).
 */

let t: TestApp;
let admin: TestClient;
let member: TestClient;
let memberId: number;

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  const db = t.deps.db;
  const adminId = await createTestUser(db, { name: "Install admin" });
  await db.updateTable("users").set({ role: "admin" }).where("id", "=", adminId).execute();
  admin = new TestClient(t.app);
  await admin.signInAs(db, adminId);
  memberId = await createTestUser(db, { name: "Install member" });
  member = new TestClient(t.app);
  await member.signInAs(db, memberId);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: "GET", url });

async function manifest() {
  const response = await get("/manifest.webmanifest");
  expect(response.statusCode).toBe(200);
  expect(response.headers["content-type"]).toBe("application/manifest+json; charset=utf-8");
  return response.json();
}

/** The RGB of an icon's pixel. */
async function pixel(png: Buffer, x: number, y: number): Promise<number[]> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [...data.subarray(at, at + 3)];
}

/** Whether two colours are the same but for a re-encoding's rounding (the upload is re-encoded). */
function near(actual: number[], expected: number[]): boolean {
  return actual.every((value, i) => Math.abs(value - expected[i]!) <= 6);
}

async function uploadLogo(bytes: Buffer) {
  const form = await multipartBody(
    { field: "website_logo" },
    { name: "logo.png", type: "image/png", bytes },
  );
  const response = await admin.request({
    method: "POST",
    url: "/api/admin/settings/image",
    ...form,
  });
  expect(response.statusCode, response.body).toBe(200);
}

describe("the web app manifest", () => {
  it("names the site from its settings, opens standalone at PUBLIC_URL's root", async () => {
    const body = await manifest();
    expect(body).toMatchObject({
      id: "/",
      name: "Chalkboard Deals",
      short_name: "Chalkboard",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#353f66",
      background_color: "#f4f5f8",
    });
    expect(body.description).toBeTruthy();
    const response = await get("/manifest.webmanifest");
    expect(response.headers["cache-control"]).toBe("public, max-age=300");
  });

  it("cuts a long name at a word for the home screen", () => {
    expect(shortNameOf("Deals")).toBe("Deals");
    expect(shortNameOf("Chalkboard Deals")).toBe("Chalkboard");
    expect(shortNameOf("The Teachers Deal Club")).toBe("The Teachers");
    expect(shortNameOf("Supercalifragilistic")).toBe("Supercalifra");
  });
});

describe("the app's icons", () => {
  it("are PNGs of the sizes the manifest says, cached for good under their version", async () => {
    const { icons } = await manifest();
    expect(icons).toHaveLength(4);
    for (const icon of icons as { src: string; sizes: string; purpose: string }[]) {
      const response = await get(icon.src);
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("image/png");
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
      const meta = await sharp(response.rawPayload).metadata();
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
    }
    const unversioned = await get("/app-icons/apple-touch-icon.png");
    expect(unversioned.headers["cache-control"]).toBe("public, max-age=3600");
    const again = await t.app.inject({
      method: "GET",
      url: "/app-icons/apple-touch-icon.png",
      headers: { "if-none-match": String(unversioned.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    expect((await sharp(unversioned.rawPayload).metadata()).width).toBe(180);
    expect((await get("/app-icons/other.png")).statusCode).toBe(404);
  });

  it("are redrawn from a new logo, under a new version", async () => {
    const before = await manifest();
    // A red square logo: the "any" icon is red at its centre; the maskable one keeps the
    // theme colour in its corners (the safe zone's padding) and red at its centre.
    await uploadLogo(
      await sharp({
        create: { width: 300, height: 300, channels: 3, background: { r: 220, g: 20, b: 20 } },
      })
        .png()
        .toBuffer(),
    );
    const after = await manifest();
    const src = (purpose: string, body: typeof before) =>
      (body.icons as { src: string; sizes: string; purpose: string }[]).find(
        (icon) => icon.purpose === purpose && icon.sizes === "512x512",
      )!.src;
    expect(src("any", after)).not.toBe(src("any", before));

    const any = (await get(src("any", after))).rawPayload;
    expect(near(await pixel(any, 256, 256), [220, 20, 20])).toBe(true);
    const maskable = (await get(src("maskable", after))).rawPayload;
    expect(near(await pixel(maskable, 256, 256), [220, 20, 20])).toBe(true);
    expect(await pixel(maskable, 5, 5)).toEqual([0x35, 0x3f, 0x66]);
    // The logo stays inside the safe zone: the circle of 80 % of the side.
    expect(await pixel(maskable, 256, 256 - Math.round(512 * 0.4) + 4)).toEqual([0x35, 0x3f, 0x66]);
    // The old version's address no longer claims to be for good.
    const stale = await get(src("any", before));
    expect(stale.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("follow the colours of the settings: manifest, maskable padding, theme-color, offline page", async () => {
    const before = await manifest();
    const src = (purpose: string, body: typeof before) =>
      (body.icons as { src: string; sizes: string; purpose: string }[]).find(
        (icon) => icon.purpose === purpose && icon.sizes === "512x512",
      )!.src;
    const saved = await admin.post("/api/admin/settings", {
      app_theme_color: "#1A7F4B",
      app_background_color: "#fffaf0",
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const after = await manifest();
    expect(after).toMatchObject({ theme_color: "#1a7f4b", background_color: "#fffaf0" });
    // The maskable icons are drawn on the theme colour: new bytes, so a new version.
    expect(src("maskable", after)).not.toBe(src("maskable", before));
    const maskable = (await get(src("maskable", after))).rawPayload;
    expect(await pixel(maskable, 5, 5)).toEqual([0x1a, 0x7f, 0x4b]);
    const apple = (await get("/app-icons/apple-touch-icon.png")).rawPayload;
    expect(await pixel(apple, 2, 2)).toEqual([0xff, 0xfa, 0xf0]);

    expect((await get("/")).body).toContain('<meta name="theme-color" content="#1a7f4b"/>');
    const offline = (await get("/offline")).body;
    expect(offline).toContain('<meta name="theme-color" content="#1a7f4b">');
    expect(offline).toContain("header { background: #1a7f4b; color: #ffffff;");

    // A light theme colour gets dark text on the offline page's header, to stay readable.
    await admin.post("/api/admin/settings", { app_theme_color: "#ffd84d" });
    expect((await get("/offline")).body).toContain("header { background: #ffd84d; color: #1f2330;");

    // Back to the defaults, for the tests after.
    const reset = await admin.post("/api/admin/settings", {
      app_theme_color: "#353f66",
      app_background_color: "#f4f5f8",
    });
    expect(reset.statusCode).toBe(200);
    // The same logo on the same colours draws the same bytes: the version of before.
    expect(src("maskable", await manifest())).toBe(src("maskable", before));
  });
});

describe("the service worker", () => {
  it("is served at /sw.js for scope /, revalidated on every check", async () => {
    const response = await get("/sw.js");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.body).toContain('"offlinePath":"/offline"');
    expect(response.body).toContain('"savedDealsPath":"/api/offline_saved_deals"');
    // It parses as a script.
    expect(() => new Function(response.body)).not.toThrow();
  });

  it("has an offline page with no script and the place for the saved deals", async () => {
    const response = await get("/offline");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-cache");
    expect(response.body).toContain("<h1>You are offline</h1>");
    expect(response.body).toContain("<!--offline-saved-deals-->");
    expect(response.body).not.toContain("<script");
  });

  it("pages may register it and read the manifest", async () => {
    const policy = String((await get("/")).headers["content-security-policy"]);
    expect(policy).toContain("worker-src 'self'");
    expect(policy).toContain("manifest-src 'self'");
  });
});

describe("the footer's app badges", () => {
  it("lead to the Install page where the owner set no store address", async () => {
    const badges = (html: string) =>
      [...html.matchAll(/<a href="([^"]*)"[^>]*><img[^>]*alt="([^"]+)"/g)]
        .filter((match) => /Google Play|App Store/.test(match[2]!))
        .map((match) => [match[2], match[1]]);
    expect(badges((await get("/")).body)).toEqual([
      ["Get it on Google Play", expect.stringMatching(/^https:\/\/play\.google\.com\//)],
      ["Download on the App Store", expect.stringMatching(/^https:\/\/apps\.apple\.com\//)],
    ]);
    await t.deps.db.updateTable("footer_settings").set({ playstore_url: "" }).execute();
    t.deps.changes.emit("settings");
    expect(badges((await get("/")).body)).toEqual([
      ["Get it on Google Play", "/install"],
      ["Download on the App Store", expect.stringMatching(/^https:\/\/apps\.apple\.com\//)],
    ]);
    const page = await get("/install");
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Install the app");
  });
});

describe("GET /api/offline_saved_deals", () => {
  it("answers the member's own saved deals, for no cache but the member's worker", async () => {
    const deal = await t.deps.db
      .selectFrom("posts")
      .select(["id", "unique_id", "slug", "title"])
      .where("post_type", "=", "d")
      .where("status", "=", "active")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    const saved = await member.post("/api/save_deal_toggle", { unique_id: deal.unique_id });
    expect(saved.statusCode, saved.body).toBe(200);

    const response = await member.get("/api/offline_saved_deals");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("private, no-store");
    const body = response.json();
    expect(body.member).toBe(memberId);
    expect(body.deals[0]).toMatchObject({
      title: deal.title,
      url: `/post/${deal.unique_id}/${deal.slug}`,
    });
    expect(body.deals[0].price).toMatch(/^(\$[\d,]+\.\d{2}|)$/);

    const visitor = await get("/api/offline_saved_deals");
    expect(visitor.statusCode).toBe(401);
  });
});
