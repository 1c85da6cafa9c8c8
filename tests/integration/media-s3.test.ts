import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageVariants, variantFiles } from "../../core/media/variants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signedInStaff } from "../helpers/console.ts";
import { demoPictureUrl, postDealWithImage } from "../helpers/deal-uploads.ts";
import { multipartBody, pngImage } from "../helpers/multipart.ts";
import { startLocalS3, type LocalS3 } from "../helpers/s3-server.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Media in an S3-compatible bucket (docs/decisions/0046-media-storage.md): with S3_BUCKET set, the
 * real API stores uploads and their variants in the bucket (here a local s3rver), /media/ serves
 * them from it, a removal deletes them there, and nothing is written to DATA_DIR/media.
 */
const MEDIA_BASE_URL = "http://media.chalkboard.test:8080/media";

let s3: LocalS3;
let t: TestApp;
let admin: { id: number; client: TestClient };

beforeAll(async () => {
  s3 = await startLocalS3();
  t = await createTestApp({ env: { ...s3.env, MEDIA_BASE_URL } });
  admin = await signedInStaff(t.app, t.deps.db, "admin");
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

async function signedInMember() {
  const id = await createTestUser(t.deps.db);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

function photo(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();
}

const MARKERS = {
  title: "Whiteboard markers, 24 colours",
  description: "<p>Low-odour dry-erase markers.</p>",
  linkStem: "markers",
  price: 12.5,
  fileName: "markers.jpg",
};

describe("uploads with S3_BUCKET", () => {
  it("land in the bucket with their variants, are served at /media/, and leave no file on disk", async () => {
    expect(t.deps.media.kind).toBe("s3");
    const member = await signedInMember();
    const post = await postDealWithImage(t.deps.db, member, await photo(1200, 900), MARKERS);
    // The database keeps /media/ URLs whichever storage holds the bytes.
    expect(post.image_url).toMatch(/^\/media\/deals\/[\w-]+\.1200x900\.webp$/);
    const stored = post.image_url.slice("/media/".length);
    const expected = [stored, ...variantFiles(stored)].sort();
    expect(expected).toHaveLength(7);
    expect(await s3.keys(stored.replace(/\.webp$/, ""))).toEqual(expected);
    expect(fs.existsSync(path.join(t.dataDir, "media", "deals"))).toBe(false);

    const original = await t.app.inject({ method: "GET", url: post.image_url });
    expect(original.statusCode).toBe(200);
    expect(original.headers["content-type"]).toBe("image/webp");
    expect(original.headers["cache-control"]).toBe("public, max-age=604800");
    expect(original.headers["x-content-type-options"]).toBe("nosniff");
    expect(await sharp(original.rawPayload).metadata()).toMatchObject({
      format: "webp",
      width: 1200,
      height: 900,
    });
    expect(original.rawPayload.equals((await t.deps.media.get(stored))!)).toBe(true);

    // Conditional requests: the bucket's ETag answers 304.
    const etag = original.headers["etag"] as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      method: "GET",
      url: post.image_url,
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);

    // Every variant of the srcset is served from the bucket with its type.
    for (const file of variantFiles(stored)) {
      const served = await t.app.inject({ method: "GET", url: `/media/${file}` });
      expect(served.statusCode, file).toBe(200);
      expect(served.headers["content-type"]).toBe(
        file.endsWith(".avif") ? "image/avif" : "image/webp",
      );
    }
  });

  it("are deleted from the bucket, variants and all, when their post is deleted", async () => {
    const member = await signedInMember();
    const post = await postDealWithImage(t.deps.db, member, await photo(800, 600), MARKERS);
    const stored = post.image_url.slice("/media/".length);
    const stem = stored.replace(/\.webp$/, "");
    expect(await s3.keys(stem)).toHaveLength(7);

    const response = await admin.client.post("/api/admin/posts/delete", {
      ids: [post.unique_id],
      reason: "Duplicate",
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await s3.keys(stem)).toEqual([]);
    const gone = await t.app.inject({ method: "GET", url: post.image_url });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ status: false, message: "No such image." });
  });

  it("a member's avatar leaves the bucket with their account", async () => {
    const member = await signedInMember();
    const body = await multipartBody(
      { user_id: String(member.id), name: "Riley Park", mobile: "5551234567" },
      { name: "me.png", type: "image/png", bytes: await pngImage(200, 200) },
    );
    const update = await member.client.request({
      method: "POST",
      url: "/api/profile_update",
      ...body,
    });
    expect(update.statusCode, update.body).toBe(200);
    const avatar = update.json().data.user_image as string;
    expect(avatar).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
    const key = avatar.slice("/media/".length);
    expect(await s3.keys(key)).toEqual([key]);
    expect((await t.app.inject({ method: "GET", url: avatar })).statusCode).toBe(200);

    const deleted = await member.client.post("/api/user_deleted", { user_id: member.id });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(await s3.keys(key)).toEqual([]);
  });
});

describe("/media/ from the bucket", () => {
  it("makes a demo picture's missing variant from the bucket's original, and keeps it there", async () => {
    const picture = await demoPictureUrl(t.deps.db);
    // The demo content's pictures were drawn into the bucket too.
    expect(await s3.keys(picture.slice("/media/".length))).toHaveLength(1);
    const variantUrl = imageVariants(picture)!.srcset.webp.split(" ")[0]!;
    const key = variantUrl.slice("/media/".length);
    expect(await s3.keys(key)).toEqual([]);

    const made = await t.app.inject({ method: "GET", url: variantUrl });
    expect(made.statusCode).toBe(200);
    expect(made.headers["content-type"]).toBe("image/webp");
    expect(await sharp(made.rawPayload).metadata()).toMatchObject({ width: 320, height: 240 });
    expect(await s3.keys(key)).toEqual([key]);
    const kept = await t.app.inject({ method: "GET", url: variantUrl });
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.equals(made.rawPayload)).toBe(true);
  });

  it("answers a variant's format-less URL with the bucket's AVIF or WebP, Vary: Accept, 304s too", async () => {
    const member = await signedInMember();
    const post = await postDealWithImage(t.deps.db, member, await photo(800, 600), MARKERS);
    const url = imageVariants(post.image_url)!.srcset.negotiated.split(" ")[0]!;
    expect(url).toMatch(/\.800x600\.w320$/);
    const key = (format: string) => `${url.slice("/media/".length)}.${format}`;
    const vary = (response: { headers: Record<string, unknown> }) =>
      String(response.headers["vary"] ?? "").toLowerCase();

    for (const [accept, format] of [
      ["image/avif,image/webp,*/*;q=0.8", "avif"],
      ["image/webp,*/*", "webp"],
    ] as const) {
      const served = await t.app.inject({ method: "GET", url, headers: { accept } });
      expect(served.statusCode, accept).toBe(200);
      expect(served.headers["content-type"]).toBe(`image/${format}`);
      expect(vary(served)).toContain("accept");
      expect(served.headers["x-content-type-options"]).toBe("nosniff");
      expect(served.rawPayload.equals((await t.deps.media.get(key(format)))!)).toBe(true);

      const etag = served.headers["etag"] as string;
      expect(etag).toBeTruthy();
      const again = await t.app.inject({
        method: "GET",
        url: `${url}?v=1`,
        headers: { accept, "if-none-match": etag },
      });
      expect(again.statusCode).toBe(304);
      expect(vary(again)).toContain("accept");
    }

    // A demo picture's missing variant is made from the bucket in the format asked for.
    const picture = await demoPictureUrl(t.deps.db, "newest");
    const demo = imageVariants(picture)!.srcset.negotiated.split(", ")[2]!.split(" ")[0]!;
    const demoKey = `${demo.slice("/media/".length)}.avif`;
    expect(await s3.keys(demoKey)).toEqual([]);
    const made = await t.app.inject({
      method: "GET",
      url: demo,
      headers: { accept: "image/avif,image/webp" },
    });
    expect(made.statusCode).toBe(200);
    expect(made.headers["content-type"]).toBe("image/avif");
    expect(vary(made)).toContain("accept");
    expect(await s3.keys(demoKey)).toEqual([demoKey]);

    const unknown = await t.app.inject({
      method: "GET",
      url: "/media/demo/deal-no-such-thing.800x600.w320",
      headers: { accept: "image/avif" },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it("answers 404 for anything not stored, and for paths that are not media paths", async () => {
    for (const url of [
      "/media/deals/missing.webp",
      "/media/demo/deal-no-such-thing.800x600.w320.webp",
      "/media/demo/%2e%2e/deal.800x600.w320.webp",
      "/media/deals/../../etc/passwd",
      "/media/",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it("links pages to MEDIA_BASE_URL, which the Content-Security-Policy admits", async () => {
    expect(t.deps.media.publicUrl("deals/a.webp")).toBe(`${MEDIA_BASE_URL}/deals/a.webp`);
    const response = await t.app.inject({ method: "GET", url: "/api/general_settings" });
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain(
      "img-src 'self' data: blob: https://*.stripe.com http://media.chalkboard.test:8080;",
    );
  });
});
