import fs from "node:fs";
import type http from "node:http";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/env.ts";
import { startLocalHttps, type LocalHttps } from "../../tests/helpers/local-https.ts";
import { sanitizeRichHtml } from "../content/sanitize.ts";
import { copyOutsideImages, IMAGE_COPY_USER_AGENT, withCopiedImages } from "./outside-images.ts";
import { createFolderStorage, type MediaStorage } from "./storage.ts";

/*
 * Copying the outside images of user HTML (docs/decisions/0074-images-in-user-html.md) from an
 * HTTPS server on 127.0.0.1 that this file starts: the tests' loopback switch
 * (LINK_CHECK_ALLOW_LOOPBACK) lets the guarded fetch reach it; nothing reaches the internet.
 */

let server: LocalHttps;
let png: Buffer;
/** Requests the server saw, as "/path", and the user agents they came with. */
const seen: string[] = [];
const agents = new Set<string>();
const hanging = new Set<http.ServerResponse>();

function route(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = request.url ?? "/";
  seen.push(url);
  agents.add(String(request.headers["user-agent"]));
  if (/^\/(n\/\d+|a)\.png$/.test(url)) {
    response.writeHead(200, { "content-type": "image/png" });
    return response.end(png);
  }
  switch (url.split("?")[0]) {
    case "/not-image.png":
      // Said to be an image; its bytes say otherwise.
      response.writeHead(200, { "content-type": "image/png" });
      return response.end("<p>not an image at all, whatever the header says</p>");
    case "/huge.png":
      response.writeHead(200, { "content-type": "image/png" });
      return response.end(Buffer.concat([png, Buffer.alloc(6 * 1024 * 1024)]));
    case "/redirect.png":
      response.writeHead(302, { location: "/a.png" });
      return response.end();
    case "/to-private.png":
      response.writeHead(302, { location: "http://10.0.0.5/x.png" });
      return response.end();
    case "/missing.png":
      response.writeHead(404);
      return response.end();
    case "/hang.png":
      hanging.add(response);
      return;
    default:
      response.writeHead(500);
      return response.end();
  }
}

const dirs: string[] = [];
function deps(env: Record<string, string> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-copy-"));
  dirs.push(dir);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dir,
    PUBLIC_URL: "https://deals.example",
    LINK_CHECK_ALLOW_LOOPBACK: "on",
    ...env,
  });
  const lines: string[] = [];
  return {
    config,
    media: createFolderStorage(path.join(dir, "media")) as MediaStorage,
    mediaDir: path.join(dir, "media"),
    log: { info: (line: string) => lines.push(line), warn: () => {}, error: () => {} },
    lines,
  };
}

const filesIn = (dir: string) =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).sort() : [];

beforeAll(async () => {
  png = await sharp({
    create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 40, b: 40 } },
  })
    .png()
    .toBuffer();
  server = await startLocalHttps(route);
});
afterAll(async () => {
  for (const response of hanging) response.destroy();
  await server?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
});

describe("copyOutsideImages", () => {
  it("fetches an outside image once, stores it re-encoded under a name of its own", async () => {
    const d = deps();
    const src = `${server.base}/a.png`;
    const html = `<p><img src="${src}" alt="red"> and again <img src=" ${src} "></p>`;
    const copied = await copyOutsideImages(d, html, "deals");
    expect(seen).toEqual(["/a.png"]);
    expect(agents).toEqual(new Set([IMAGE_COPY_USER_AGENT]));
    expect(copied.stored).toHaveLength(1);
    const stored = copied.stored[0]!;
    expect(stored.url).toMatch(/^\/media\/deals\/[A-Za-z0-9_-]{16}\.webp$/);
    expect(copied.sources).toEqual(new Map([[src, stored.url]]));
    const bytes = fs.readFileSync(path.join(d.mediaDir, stored.path));
    expect((await sharp(bytes).metadata()).format).toBe("webp");
    expect(sanitizeRichHtml(html, { images: copied.sources })).toBe(
      `<p><img src="${stored.url}" alt="red" loading="lazy" /> and again ` +
        `<img src="${stored.url}" loading="lazy" /></p>`,
    );
  });

  it("follows a redirect, and drops what is not an image, too large, missing or refused", async () => {
    const d = deps();
    const names = ["redirect", "not-image", "huge", "missing", "to-private"];
    const html = names.map((name) => `<img src="${server.base}/${name}.png">`).join("");
    const copied = await copyOutsideImages(d, html, "discussions");
    expect(copied.stored).toHaveLength(1);
    expect(copied.sources.get(`${server.base}/redirect.png`)).toBe(copied.stored[0]!.url);
    expect(
      Object.fromEntries(copied.dropped.map((d) => [d.src.split("/").pop(), d.reason])),
    ).toEqual({
      "not-image.png": "Please choose an image file (JPEG, PNG, GIF or WebP).",
      "huge.png": "the answer is larger than 5 MB",
      "missing.png": `${new URL(server.base).host} answered 404 (Not Found)`,
      "to-private.png": "not fetched: 10.0.0.5 is a private or reserved address",
    });
    // Only the copy that succeeded is stored.
    expect(filesIn(path.join(d.mediaDir, "discussions"))).toEqual([
      copied.stored[0]!.path.split("/")[1],
    ]);
    const html2 = sanitizeRichHtml(html, { images: copied.sources });
    expect(html2).toBe(`<img src="${copied.stored[0]!.url}" loading="lazy" />`);
  });

  it("refuses a loopback image when the tests' switch is off, without connecting", async () => {
    const d = deps({ LINK_CHECK_ALLOW_LOOPBACK: "off" });
    const copied = await copyOutsideImages(d, `<img src="${server.base}/a.png">`, "deals");
    expect(copied.stored).toEqual([]);
    expect(copied.dropped).toEqual([
      {
        src: `${server.base}/a.png`,
        reason: "not fetched: 127.0.0.1 is a private or reserved address",
      },
    ]);
    expect(seen).toEqual([]);
  });

  it("copies at most maxImages and drops the rest", async () => {
    const d = deps();
    const html = Array.from({ length: 12 }, (_, i) => `<img src="${server.base}/n/${i}.png">`);
    const copied = await copyOutsideImages(d, html.join(""), "deals", {
      limits: { maxImages: 10 },
    });
    expect(copied.stored).toHaveLength(10);
    expect(seen).toHaveLength(10);
    expect(copied.dropped).toEqual([
      { src: `${server.base}/n/10.png`, reason: "more than 10 images to copy" },
      { src: `${server.base}/n/11.png`, reason: "more than 10 images to copy" },
    ]);
  });

  it("gives up on slow images when the write's time budget is spent", async () => {
    const d = deps();
    const html = Array.from({ length: 6 }, () => `<img src="${server.base}/hang.png">`)
      .map((img, i) => img.replace("hang.png", `hang.png?${i}`))
      .join("");
    const started = Date.now();
    const copied = await copyOutsideImages(d, html + `<img src="${server.base}/a.png">`, "deals", {
      limits: { budgetMs: 400, concurrency: 2 },
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(copied.stored).toHaveLength(0);
    expect(copied.dropped).toHaveLength(7);
    for (const { reason } of copied.dropped) {
      expect(reason).toBe("out of time (0.4 s for the post's images)");
    }
    // The ones never started are not requested at all.
    expect(seen.length).toBeLessThanOrEqual(2);
  });

  it("takes the site's own media by their address, and never fetches another page of the site", async () => {
    const d = deps({ MEDIA_BASE_URL: "https://cdn.deals.example/media" });
    const html =
      '<img src="https://deals.example/media/deals/a1.webp">' +
      '<img src="https://cdn.deals.example/media/deals/b2.webp">' +
      '<img src="https://deals.example/go/abc123">' +
      '<img src="https://cdn.deals.example/other/../../go/x">' +
      '<img src="/go/abc123"><img src="/media/deals/c3.webp">';
    const copied = await copyOutsideImages(d, html, "deals");
    expect(copied.sources).toEqual(
      new Map([
        ["https://deals.example/media/deals/a1.webp", "/media/deals/a1.webp"],
        ["https://cdn.deals.example/media/deals/b2.webp", "/media/deals/b2.webp"],
      ]),
    );
    expect(copied.dropped.map((x) => x.src)).toEqual([
      "https://deals.example/go/abc123",
      "https://cdn.deals.example/other/../../go/x",
      "/go/abc123",
    ]);
    expect(seen).toEqual([]);
    expect(sanitizeRichHtml(html, { images: copied.sources })).toBe(
      '<img src="/media/deals/a1.webp" loading="lazy" />' +
        '<img src="/media/deals/b2.webp" loading="lazy" />' +
        '<img src="/media/deals/c3.webp" loading="lazy" />',
    );
  });
});

describe("withCopiedImages", () => {
  it("removes the copies when the write fails, and logs what it dropped", async () => {
    const d = deps();
    const html = `<img src="${server.base}/a.png"><img src="/go/abc">`;
    await expect(
      withCopiedImages(d, html, "deals", async (copied) => {
        expect(copied.stored).toHaveLength(1);
        expect(filesIn(path.join(d.mediaDir, "deals"))).toHaveLength(1);
        throw new Error("the transaction failed");
      }),
    ).rejects.toThrow("the transaction failed");
    expect(filesIn(path.join(d.mediaDir, "deals"))).toEqual([]);
    expect(d.lines).toEqual([
      "An image in user HTML was dropped (/go/abc): not an outside https image.",
    ]);
  });

  it("removes what it stored when the storage fails part way, and throws", async () => {
    const d = deps();
    let puts = 0;
    const media: MediaStorage = {
      ...d.media,
      async put(relative, bytes, type) {
        if (++puts === 2) throw new Error("disk full");
        return d.media.put(relative, bytes, type);
      },
    };
    const html = [0, 1, 2].map((i) => `<img src="${server.base}/n/${i}.png">`).join("");
    await expect(
      copyOutsideImages({ ...d, media }, html, "deals", { limits: { concurrency: 1 } }),
    ).rejects.toThrow("disk full");
    expect(filesIn(path.join(d.mediaDir, "deals"))).toEqual([]);
  });
});
