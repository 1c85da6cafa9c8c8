import fs from "node:fs";
import path from "node:path";
import Fastify from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertMediaRecord } from "../../core/media/image-records.ts";
import { storeUploadedImage } from "../../core/media/images.ts";
import { imageVariants, variantFiles } from "../../core/media/variants.ts";
import { addVary } from "../../server/plugins/media.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost, signedInStaff } from "../helpers/console.ts";
import { demoPictureUrl, postDealWithImage } from "../helpers/deal-uploads.ts";
import { mediaFiles } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * Responsive variants (docs/decisions/0036-responsive-images.md): made at upload in 320, 640 and
 * 960 px (never wider than the image) as AVIF and WebP, named so a URL says which exist, served,
 * deleted with their image, and made on first request for demo pictures drawn without them. A
 * variant's URL without its format is answered in AVIF or WebP by the request's Accept header
 * (docs/decisions/0064-negotiated-image-formats.md).
 */
let t: TestApp;
let admin: { id: number; client: TestClient };
let member: { id: number; client: TestClient };

beforeAll(async () => {
  t = await createTestApp();
  admin = await signedInStaff(t.app, t.deps.db, "admin");
  const memberId = await createTestUser(t.deps.db);
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, memberId);
  member = { id: memberId, client };
});
afterAll(async () => {
  await t?.close();
});

/** A photo-like JPEG with EXIF (camera and GPS) data, as phones send them. */
function photo(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg()
    .withExif({ IFD0: { Make: "PhoneCo", Model: "Snap 9" }, IFD3: { GPSLatitudeRef: "N" } })
    .toBuffer();
}

function mediaPath(url: string): string {
  return path.join(t.mediaDir, url.slice("/media/".length));
}

const LAMINATOR = {
  title: "Laminator with 50 pouches",
  description: "<p>Classroom laminator, 9 inch, with pouches.</p>",
  linkStem: "laminator",
  price: 24.99,
  fileName: "laminator.jpg",
};

const dealWithImage = (image: Buffer) => postDealWithImage(t.deps.db, member, image, LAMINATOR);

describe("variants at upload", () => {
  it("stores a deal image in 320, 640 and 960 px as AVIF and WebP, without EXIF", async () => {
    const post = await dealWithImage(await photo(2400, 1800));
    // Bounded to 1600 px, and named with its size.
    expect(post.image_url).toMatch(/^\/media\/deals\/[\w-]+\.1600x1200\.webp$/);
    const variants = imageVariants(post.image_url)!;
    expect(variants).toMatchObject({ width: 1600, height: 1200 });

    const files = variantFiles(post.image_url.slice("/media/".length));
    expect(files).toHaveLength(6);
    for (const file of files) {
      const [, width, format] = /\.w(\d+)\.(avif|webp)$/.exec(file)!;
      const meta = await sharp(path.join(t.mediaDir, file)).metadata();
      expect(meta.format).toBe(format === "avif" ? "heif" : "webp");
      if (format === "avif") expect(meta.compression).toBe("av1");
      expect(meta.width).toBe(Number(width));
      expect(meta.height).toBe((Number(width) * 3) / 4);
      expect(meta.exif).toBeUndefined();
    }
    expect((await sharp(mediaPath(post.image_url)).metadata()).exif).toBeUndefined();

    // Every URL the srcset lists is served, with its type and a long cache life.
    for (const entry of [
      ...variants.srcset.avif.split(", "),
      ...variants.srcset.webp.split(", "),
    ]) {
      const url = entry.split(" ")[0]!;
      const served = await t.app.inject({ method: "GET", url });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toBe(
        url.endsWith(".avif") ? "image/avif" : "image/webp",
      );
      expect(served.headers["cache-control"]).toContain("max-age=604800");
    }
  });

  it("never upscales: a 500 px image gets 320 and 500, nothing wider", async () => {
    const post = await dealWithImage(await photo(500, 375));
    expect(post.image_url).toMatch(/\.500x375\.webp$/);
    const stem = path.basename(post.image_url, ".500x375.webp");
    const files = mediaFiles(t.mediaDir, "deals").filter((file) => file.startsWith(stem));
    expect(files).toEqual(
      [
        `${stem}.500x375.webp`,
        `${stem}.500x375.w320.avif`,
        `${stem}.500x375.w320.webp`,
        `${stem}.500x375.w500.avif`,
        `${stem}.500x375.w500.webp`,
      ].sort(),
    );
    expect(imageVariants(post.image_url)!.srcset.webp).not.toMatch(/640w|960w/);
  });

  it("keeps images that need no variants (avatars, store tiles) as before", async () => {
    const avatar = await storeUploadedImage(t.deps.media, "avatars", await photo(300, 300));
    expect(avatar.url).toMatch(/^\/media\/avatars\/[\w-]+\.webp$/);
    expect(imageVariants(avatar.url)).toBeNull();
    expect(mediaFiles(t.mediaDir, "avatars")).toEqual([path.basename(avatar.path)]);
  });
});

describe("deleting an image", () => {
  it("removes its variants with it", async () => {
    const image = await storeUploadedImage(t.deps.media, "deals", await photo(1000, 750), {
      variants: true,
    });
    const author = await createTestUser(t.deps.db);
    await insertMediaRecord(t.deps.db, author, image);
    const deal = await insertPost(t.deps.db, { user_id: author, image_url: image.url });
    const files = [image.path, ...variantFiles(image.path)];
    expect(files).toHaveLength(7);
    for (const file of files) expect(fs.existsSync(path.join(t.mediaDir, file))).toBe(true);

    const response = await admin.client.post("/api/admin/posts/delete", {
      ids: [deal.unique_id],
      reason: "Duplicate",
    });
    expect(response.statusCode).toBe(200);
    for (const file of files) expect(fs.existsSync(path.join(t.mediaDir, file))).toBe(false);
  });
  // A request that fails after storing leaves no file, variants included: uploads.test.ts.
});

describe("demo pictures", () => {
  it("are named with their size, and each variant is made on its first request and kept", async () => {
    const row = await t.deps.db
      .selectFrom("posts")
      .select("image_url")
      .where("post_type", "=", "d")
      .where("image_url", "like", "/media/demo/%")
      .executeTakeFirstOrThrow();
    expect(row.image_url).toMatch(/^\/media\/demo\/deal-[\w-]+\.800x600\.webp$/);
    const url = imageVariants(row.image_url)!.srcset.avif.split(" ")[0]!;
    expect(url).toMatch(/\.w320\.avif$/);
    const file = mediaPath(url);
    expect(fs.existsSync(file)).toBe(false);

    const [first, second] = await Promise.all([
      t.app.inject({ method: "GET", url }),
      t.app.inject({ method: "GET", url }),
    ]);
    for (const response of [first, second]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-type"]).toBe("image/avif");
    }
    expect(first.rawPayload.equals(second.rawPayload)).toBe(true);
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta).toMatchObject({ width: 320, height: 240, compression: "av1" });
    expect(fs.existsSync(file)).toBe(true);
    const again = await t.app.inject({ method: "GET", url });
    expect(again.statusCode).toBe(200);
    expect(again.headers["etag"]).toBeDefined(); // now a plain file
  });

  it("make nothing for a width or format the image does not have, or an unknown image", async () => {
    const picture = await demoPictureUrl(t.deps.db);
    const stem = picture.replace(/\.webp$/, "");
    for (const url of [
      `${stem}.w960.avif`,
      `${stem}.w321.webp`,
      `${stem}.w320.png`,
      "/media/demo/deal-no-such-thing.800x600.w320.webp",
      "/media/demo/%2e%2e/deal.800x600.w320.webp",
      "/media/demo/missing.webp",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ status: false, message: "No such image." });
    }
    expect(mediaFiles(t.mediaDir, "demo").filter((f) => /\.w(960|321)\./.test(f))).toEqual([]);
  });
});

/** What Chromium sends for an <img>. */
const CHROME_ACCEPT = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

/** The Vary header's fields, lower-cased. */
function varyOf(response: { headers: Record<string, unknown> }): string[] {
  return String(response.headers["vary"] ?? "")
    .split(",")
    .map((field) => field.trim().toLowerCase())
    .filter(Boolean);
}

async function decoded(response: { rawPayload: Buffer }) {
  const meta = await sharp(response.rawPayload).metadata();
  return { format: meta.format, compression: meta.compression, width: meta.width };
}

describe("negotiated variant URLs (no format in the name)", () => {
  it("answer AVIF to a browser that names it, WebP to one that does not, and say Vary: Accept", async () => {
    const post = await dealWithImage(await photo(1200, 900));
    const variants = imageVariants(post.image_url)!;
    const urls = variants.srcset.negotiated.split(", ").map((entry) => entry.split(" ")[0]!);
    expect(urls).toEqual([320, 640, 960].map((w) => post.image_url.replace(/\.webp$/, `.w${w}`)));

    for (const url of urls) {
      const width = Number(/\.w(\d+)$/.exec(url)![1]);
      const avif = await t.app.inject({ method: "GET", url, headers: { accept: CHROME_ACCEPT } });
      expect(avif.statusCode, url).toBe(200);
      expect(avif.headers["content-type"]).toBe("image/avif");
      expect(varyOf(avif)).toContain("accept");
      expect(avif.headers["cache-control"]).toContain("max-age=604800");
      expect(avif.headers["x-content-type-options"]).toBe("nosniff");
      expect(await decoded(avif)).toEqual({ format: "heif", compression: "av1", width });
      // The very bytes of the explicit .avif file.
      expect(avif.rawPayload.equals(fs.readFileSync(mediaPath(`${url}.avif`)))).toBe(true);

      for (const accept of ["image/webp,*/*", undefined, "image/avif;q=0, image/webp"]) {
        const webp = await t.app.inject({
          method: "GET",
          url,
          headers: accept === undefined ? {} : { accept },
        });
        expect(webp.statusCode, `${url} ${accept}`).toBe(200);
        expect(webp.headers["content-type"]).toBe("image/webp");
        expect(varyOf(webp)).toContain("accept");
        expect(webp.headers["x-content-type-options"]).toBe("nosniff");
        expect(await decoded(webp)).toMatchObject({ format: "webp", width });
      }
    }
  });

  it("revalidate per format: a 304 says Vary: Accept too, and AVIF's ETag is not WebP's", async () => {
    const post = await dealWithImage(await photo(800, 600));
    const url = imageVariants(post.image_url)!.srcset.negotiated.split(" ")[0]!;
    const avif = await t.app.inject({ method: "GET", url, headers: { accept: CHROME_ACCEPT } });
    const webp = await t.app.inject({ method: "GET", url, headers: { accept: "image/webp" } });
    const etag = String(avif.headers["etag"]);
    expect(etag).toBeTruthy();
    expect(webp.headers["etag"]).not.toBe(etag);

    const again = await t.app.inject({
      method: "GET",
      url,
      headers: { accept: CHROME_ACCEPT, "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(varyOf(again)).toContain("accept");
    // The WebP answer is not the AVIF one the browser holds.
    const other = await t.app.inject({
      method: "GET",
      url,
      headers: { accept: "image/webp", "if-none-match": etag },
    });
    expect(other.statusCode).toBe(200);
    expect(other.headers["content-type"]).toBe("image/webp");

    const head = await t.app.inject({ method: "HEAD", url, headers: { accept: CHROME_ACCEPT } });
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-type"]).toBe("image/avif");
    expect(varyOf(head)).toContain("accept");
  });

  it("keep their query string", async () => {
    const post = await dealWithImage(await photo(800, 600));
    const url = imageVariants(post.image_url)!.srcset.negotiated.split(" ")[0]!;
    const response = await t.app.inject({
      method: "GET",
      url: `${url}?v=2&x=%2F`,
      headers: { accept: CHROME_ACCEPT },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/avif");
    expect(varyOf(response)).toContain("accept");
  });

  it("make a demo picture's missing variant in the format asked for, with Vary: Accept", async () => {
    const picture = await demoPictureUrl(t.deps.db, "newest");
    const url = imageVariants(picture)!.srcset.negotiated.split(", ")[1]!.split(" ")[0]!;
    expect(url).toMatch(/\.800x600\.w640$/);
    for (const [accept, format, type] of [
      [CHROME_ACCEPT, "heif", "image/avif"],
      ["image/webp", "webp", "image/webp"],
    ] as const) {
      expect(fs.existsSync(mediaPath(`${url}.${type.slice(6)}`))).toBe(false);
      const made = await t.app.inject({ method: "GET", url, headers: { accept } });
      expect(made.statusCode).toBe(200);
      expect(made.headers["content-type"]).toBe(type);
      expect(made.headers["x-content-type-options"]).toBe("nosniff");
      expect(varyOf(made)).toContain("accept");
      expect(await decoded(made)).toMatchObject({ format, width: 640 });
      expect(fs.existsSync(mediaPath(`${url}.${type.slice(6)}`))).toBe(true);
    }
  });

  it("are 404s for names that are no variant, and never leave the media folder", async () => {
    const post = await dealWithImage(await photo(800, 600));
    const stem = post.image_url.replace(/\.webp$/, "");
    for (const url of [
      `${stem}.w960`, // wider than the image
      `${stem}.w321`,
      `${stem}.w320.png`,
      `${stem}.w320.`,
      `${stem}.w320/`,
      `${stem}.w0320`,
      stem,
      "/media/demo/deal-no-such-thing.800x600.w320",
      "/media/demo/%2e%2e/deal.800x600.w320",
      "/media/demo/..%2f..%2fdeal.800x600.w320",
      "/media/deals/a.b.800x600.w320",
    ]) {
      const response = await t.app.inject({
        method: "GET",
        url,
        headers: { accept: CHROME_ACCEPT },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ status: false, message: "No such image." });
    }
    // A well-formed name of an image that does not exist was negotiated: its 404 varies too.
    const missing = await t.app.inject({
      method: "GET",
      url: "/media/demo/deal-no-such-thing.800x600.w320",
      headers: { accept: CHROME_ACCEPT },
    });
    expect(varyOf(missing)).toContain("accept");
  });

  it("leave explicit .avif and .webp URLs as they were, without Vary: Accept", async () => {
    const post = await dealWithImage(await photo(800, 600));
    const variants = imageVariants(post.image_url)!;
    for (const [srcset, type] of [
      [variants.srcset.avif, "image/avif"],
      [variants.srcset.webp, "image/webp"],
    ] as const) {
      const url = srcset.split(" ")[0]!;
      // Whatever the browser accepts, the named format is what it gets.
      for (const accept of [CHROME_ACCEPT, "image/webp"]) {
        const response = await t.app.inject({ method: "GET", url, headers: { accept } });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers["content-type"]).toBe(type);
        expect(varyOf(response)).not.toContain("accept");
      }
    }
    const original = await t.app.inject({
      method: "GET",
      url: post.image_url,
      headers: { accept: CHROME_ACCEPT },
    });
    expect(original.headers["content-type"]).toBe("image/webp");
    expect(varyOf(original)).not.toContain("accept");
  });
});

describe("addVary", () => {
  it("adds a field to the Vary an answer already has, once, and leaves Vary: * alone", async () => {
    const app = Fastify();
    app.get("/", (request, reply) => {
      const before = request.headers["x-vary"];
      if (typeof before === "string") reply.header("vary", before);
      addVary(reply, "Accept");
      addVary(reply, "Accept");
      return "ok";
    });
    const varyAfter = async (before?: string) =>
      (await app.inject({ url: "/", headers: before === undefined ? {} : { "x-vary": before } }))
        .headers["vary"];
    expect(await varyAfter()).toBe("Accept");
    expect(await varyAfter("Accept-Encoding")).toBe("Accept-Encoding, Accept");
    expect(await varyAfter("Cookie,Accept-Encoding")).toBe("Cookie, Accept-Encoding, Accept");
    expect(await varyAfter("accept")).toBe("accept");
    expect(await varyAfter("*")).toBe("*");
    await app.close();
  });
});
