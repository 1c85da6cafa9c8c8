import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * The client build's files as the server sends them (docs/decisions/0054): compressed once at build
 * time, brotli at quality 11 and gzip at level 9, beside each file (scripts/production-build.ts),
 * and sent as they are to a browser that accepts them.
 */

const client = path.resolve(import.meta.dirname, "../../build/client");
const assets = path.join(client, "assets");

let t: TestApp;
/** The largest script of the build (the framework chunk) and its URL. */
let script: { url: string; body: Buffer };
beforeAll(async () => {
  t = await createTestApp({ pages: true, seed: "none" });
  const largest = fs
    .readdirSync(assets)
    .filter((file) => file.endsWith(".js"))
    .map((file) => ({ file, size: fs.statSync(path.join(assets, file)).size }))
    .sort((a, b) => b.size - a.size)[0]!;
  script = {
    url: `/assets/${largest.file}`,
    body: fs.readFileSync(path.join(assets, largest.file)),
  };
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: "GET", url, headers });

/** Headers that say what the answer is, rather than how its bytes travel. */
function policyHeaders(headers: Record<string, unknown>) {
  // What differs by encoding or by request: X-Request-Id is each request's own (server/request-id.ts).
  const travel = new Set([
    "content-encoding",
    "content-length",
    "etag",
    "last-modified",
    "date",
    "x-request-id",
  ]);
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => !travel.has(name))
      .map(([name, value]) => [name, String(value).replace(/'nonce-[^']+'/g, "'nonce'")]),
  );
}

describe("pre-compressed static files (production build)", () => {
  it("sends brotli to a browser that accepts it: the file's exact bytes, cached as before", async () => {
    const response = await get(script.url, { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers["content-type"]).toMatch(/javascript/);
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(response.headers["content-length"])).toBe(response.rawPayload.length);
    expect(response.rawPayload.equals(fs.readFileSync(path.join(client, `${script.url}.br`)))).toBe(
      true,
    );
    expect(zlib.brotliDecompressSync(response.rawPayload).equals(script.body)).toBe(true);
    // Quality 11, not what compressing on the fly would send (quality 4).
    const quality4 = zlib.brotliCompressSync(script.body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 },
    });
    expect(response.rawPayload.length).toBeLessThan(quality4.length);
  });

  it("sends gzip to one that accepts only gzip, and the plain file to one that accepts neither", async () => {
    const gzip = await get(script.url, { "accept-encoding": "gzip" });
    expect(gzip.statusCode).toBe(200);
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gzip.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(gzip.headers["content-length"])).toBe(gzip.rawPayload.length);
    expect(zlib.gunzipSync(gzip.rawPayload).equals(script.body)).toBe(true);

    for (const headers of [{}, { "accept-encoding": "identity" }] as Record<string, string>[]) {
      const plain = await get(script.url, headers);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers["content-encoding"]).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(plain.headers["content-length"])).toBe(script.body.length);
      expect(plain.rawPayload.equals(script.body)).toBe(true);
    }
  });

  it("answers 304 to If-None-Match, for each encoding", async () => {
    for (const encoding of ["br", "gzip", "identity"]) {
      const first = await get(script.url, { "accept-encoding": encoding });
      const etag = first.headers.etag as string;
      expect(etag).toBeTruthy();
      const again = await get(script.url, { "accept-encoding": encoding, "if-none-match": etag });
      expect(again.statusCode, encoding).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    }
    // Each encoding is a representation of its own, with a validator of its own.
    const br = await get(script.url, { "accept-encoding": "br" });
    const plain = await get(script.url);
    expect(br.headers.etag).not.toBe(plain.headers.etag);
  });

  it("keeps every other header, the security headers included, whatever the encoding", async () => {
    const plain = await get(script.url);
    expect(plain.headers["x-content-type-options"]).toBe("nosniff");
    expect(plain.headers["cross-origin-resource-policy"]).toBe("same-site");
    for (const encoding of ["br", "gzip"]) {
      const compressed = await get(script.url, { "accept-encoding": encoding });
      expect(policyHeaders(compressed.headers), encoding).toEqual(policyHeaders(plain.headers));
    }
  });

  it("scripts and style sheets carry the security headers they use, not a document's (0059)", async () => {
    const sheet = fs.readdirSync(assets).find((file) => file.endsWith(".css"))!;
    const page = await get("/");
    for (const url of [script.url, `/assets/${sheet}`]) {
      const file = await get(url, { "accept-encoding": "br" });
      expect(file.statusCode, url).toBe(200);
      expect(file.headers["x-content-type-options"], url).toBe("nosniff");
      expect(file.headers["cross-origin-resource-policy"], url).toBe("same-site");
      expect(file.headers["referrer-policy"], url).toBe("strict-origin-when-cross-origin");
      for (const name of [
        "content-security-policy",
        "cross-origin-opener-policy",
        "x-frame-options",
        "origin-agent-cluster",
        "x-xss-protection",
      ]) {
        expect(file.headers[name], `${url} ${name}`).toBeUndefined();
        // A page keeps every one of them.
        expect(page.headers[name], `/ ${name}`).toBeTruthy();
      }
    }
    // Anything else under /assets/ is answered with the usual headers (a missing file, say).
    const missing = await get("/assets/no-such-file.js");
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["x-frame-options"]).toBe("SAMEORIGIN");
  });

  it("style sheets and the site's icon travel pre-compressed too; pages are still compressed", async () => {
    const sheet = fs.readdirSync(assets).find((file) => file.endsWith(".css"))!;
    const css = await get(`/assets/${sheet}`, { "accept-encoding": "br" });
    expect(css.headers["content-encoding"]).toBe("br");
    expect(css.headers["content-type"]).toMatch(/^text\/css/);
    const icon = await get("/favicon.svg", { "accept-encoding": "br" });
    expect(icon.headers["content-encoding"]).toBe("br");
    expect(icon.headers["cache-control"]).toBe("public, max-age=3600");
    expect(zlib.brotliDecompressSync(icon.rawPayload)).toEqual(
      fs.readFileSync(path.join(client, "favicon.svg")),
    );
    // Pages are not files: @fastify/compress still compresses them as they stream.
    const page = await get("/", { "accept-encoding": "br" });
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.headers["content-encoding"]).toBe("br");
    expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toContain("</html>");
  });

  it("the build has a .br and a .gz beside each script and style sheet, and none without its file", () => {
    const files = fs.readdirSync(assets);
    const names = new Set(files);
    for (const file of files) {
      if (/\.(js|css)$/.test(file)) {
        const size = fs.statSync(path.join(assets, file)).size;
        // Tiny files may not shrink: then the plain file is all there is.
        if (size > 200) expect(names.has(`${file}.br`) && names.has(`${file}.gz`), file).toBe(true);
      } else {
        expect(file).toMatch(/\.(js|css)\.(br|gz)$/);
        expect(names.has(file.replace(/\.(br|gz)$/, "")), file).toBe(true);
      }
    }
  });
});
