import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes, PageCache, splitAtNonce } from "./page-cache-store.ts";

function sha256Source(script: string) {
  return `'sha256-${createHash("sha256").update(script).digest("base64")}'`;
}

const NONCE = "n0nceAAAAAAAAAAAAAAAAA==";

function pageOf(text: string, nonce = NONCE) {
  return { body: Buffer.from(text.replaceAll("{n}", nonce)), nonce, contentType: "text/html" };
}

function cacheAt(
  clock: { now: number },
  limits: Partial<{ maxEntries: number; maxBytes: number }>,
) {
  return new PageCache({
    maxEntries: 10,
    maxBytes: 1_000,
    maxAgeMs: 60_000,
    now: () => clock.now,
    ...limits,
  });
}

describe("PageCache", () => {
  it("keeps the hashes of the inline scripts that carry the render's nonce, and of no other", () => {
    const cache = cacheAt({ now: 0 }, {});
    const entry = cache.set(
      "/",
      pageOf(
        '<head><script nonce="{n}">held()</script></head><body><p>x</p>' +
          "<script>injected()</script>" +
          '<script nonce="guessed">guessed()</script>' +
          '<script nonce="{n}" src="/assets/a.js"></script>' +
          '<script nonce="{n}" type="module">import "/b.js";\r\nrun();</script>' +
          '<script nonce="{n}">held()</script></body>',
      ),
      0,
    )!;
    expect(entry.scriptHashes).toEqual([
      sha256Source("held()"),
      // As the browser reads it: HTML's input turns CR LF into LF.
      sha256Source('import "/b.js";\nrun();'),
    ]);
    expect(inlineScriptHashes(Buffer.from("<script>x()</script>"), "")).toEqual([]);
  });

  it("compresses a stored page once per encoding, its bytes counted while it is stored", () => {
    const cache = cacheAt({ now: 0 }, { maxBytes: 100_000 });
    const text = "<p>" + "a deal, ".repeat(500) + "</p>";
    const entry = cache.set("/", pageOf(text), 0)!;
    const br = cache.encoded(entry, "br");
    expect(zlib.brotliDecompressSync(br).toString()).toBe(text);
    expect(cache.encoded(entry, "br")).toBe(br);
    const gzip = cache.encoded(entry, "gzip");
    expect(zlib.gunzipSync(gzip).toString()).toBe(text);
    expect(cache.bytes).toBe(text.length + br.length + gzip.length);
    const other = cache.set("/other", pageOf(text), 0)!;
    cache.clear();
    expect(cache.bytes).toBe(0);
    // A hit of an entry that has left the cache meanwhile is served; its encoding is not kept.
    expect(zlib.brotliDecompressSync(cache.encoded(other, "br")).toString()).toBe(text);
    expect(other.encoded.br).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it("keeps the same ETag for the same page rendered with another nonce", () => {
    const cache = cacheAt({ now: 0 }, {});
    const one = cache.set("a", pageOf('<b nonce="{n}">', "first-nonce"), 0)!;
    const two = cache.set("b", pageOf('<b nonce="{n}">', "second-nonce"), 0)!;
    const other = cache.set("c", pageOf('<i nonce="{n}">', "first-nonce"), 0)!;
    expect(one.etag).toBe(two.etag);
    expect(other.etag).not.toBe(one.etag);
    expect(splitAtNonce(Buffer.from("no nonce here"), NONCE)).toHaveLength(1);
  });

  it("lets the least recently used pages go past the entry and byte bounds", () => {
    const cache = cacheAt({ now: 0 }, { maxEntries: 2, maxBytes: 25 });
    cache.set("a", pageOf("aaaaaaaaaa"), 0);
    cache.set("b", pageOf("bbbbbbbbbb"), 0);
    expect(cache.get("a")).toBeDefined(); // a is now the more recently used
    cache.set("c", pageOf("cccccccccc"), 0);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBeDefined();
    expect(cache.size).toBe(2);
    cache.set("d", pageOf("dddddddddddddddddddd"), 0); // 20 bytes: only it fits beside nothing
    expect(cache.bytes).toBeLessThanOrEqual(25);
    expect(cache.get("d")).toBeDefined();
    expect(cache.set("e", pageOf("e".repeat(26)), 0)).toBeUndefined();
  });

  it("forgets a page at its maximum age", () => {
    const clock = { now: 0 };
    const cache = cacheAt(clock, {});
    cache.set("/", pageOf("page"), 0);
    clock.now = 59_999;
    expect(cache.get("/")).toBeDefined();
    clock.now = 60_000;
    expect(cache.get("/")).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });

  it("drops everything on clear, and refuses a render begun before it", () => {
    const cache = cacheAt({ now: 0 }, {});
    const before = cache.generation;
    cache.set("/", pageOf("page"), before);
    cache.clear();
    expect(cache.get("/")).toBeUndefined();
    expect(cache.set("/", pageOf("stale"), before)).toBeUndefined();
    expect(cache.set("/", pageOf("fresh"), cache.generation)).toBeDefined();
  });
});
