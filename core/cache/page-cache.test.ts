import { describe, expect, it } from "vitest";
import { bodyWithNonce, PageCache, splitAtNonce } from "./page-cache.ts";

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
  it("serves a stored page with another nonce in every place the first one was", () => {
    const cache = cacheAt({ now: 0 }, {});
    cache.set("/", pageOf('<script nonce="{n}"></script><p>x</p><script nonce="{n}">'), 0);
    const entry = cache.get("/")!;
    const body = bodyWithNonce(entry, "fresh").toString();
    expect(body).toBe('<script nonce="fresh"></script><p>x</p><script nonce="fresh">');
    expect(body).not.toContain(NONCE);
    expect(cache.serve(entry, "fresh").body.toString()).toBe(body);
    expect(splitAtNonce(Buffer.from("no nonce here"), NONCE)).toHaveLength(1);
  });

  it("reuses a sent copy of a page for a later hit, with that hit's nonce", () => {
    const cache = cacheAt({ now: 0 }, { maxBytes: 10_000 });
    const text = '<script nonce="{n}"></script><p>x</p><link nonce="{n}">';
    const stored = cache.set("/", pageOf(text), 0)!;
    const first = cache.serve(stored, "AAAAAAAAAAAAAAAAAAAAAA==");
    const second = cache.serve(stored, "BBBBBBBBBBBBBBBBBBBBBB==");
    // Both in flight at once: two buffers, each with its own nonce.
    expect(second.body).not.toBe(first.body);
    expect(first.body.toString()).toBe(text.replaceAll("{n}", "AAAAAAAAAAAAAAAAAAAAAA=="));
    expect(second.body.toString()).toBe(text.replaceAll("{n}", "BBBBBBBBBBBBBBBBBBBBBB=="));
    const bytesBefore = cache.bytes;
    first.sent();
    expect(cache.bytes).toBe(bytesBefore + first.body.length); // a spare copy counts
    const third = cache.serve(stored, "CCCCCCCCCCCCCCCCCCCCCC==");
    expect(third.body).toBe(first.body);
    expect(third.body.toString()).toBe(text.replaceAll("{n}", "CCCCCCCCCCCCCCCCCCCCCC=="));
    expect(cache.bytes).toBe(bytesBefore);
    // The stored page itself is never written to.
    expect(stored.body.toString()).toBe(text.replaceAll("{n}", NONCE));
  });

  it("lets a copy go when its page has left the cache or the bound would be passed", () => {
    const cache = cacheAt({ now: 0 }, { maxBytes: 100 });
    const stored = cache.set("/", pageOf('<b nonce="{n}">'), 0)!; // 36 bytes
    const one = cache.serve(stored, "AAAAAAAAAAAAAAAAAAAAAA==");
    const two = cache.serve(stored, "BBBBBBBBBBBBBBBBBBBBBB==");
    const three = cache.serve(stored, "CCCCCCCCCCCCCCCCCCCCCC==");
    one.sent();
    two.sent();
    three.sent(); // a third copy (3 × 36 bytes) would pass 100
    expect(cache.bytes).toBe(72);
    cache.clear();
    const after = cache.serve(stored, "DDDDDDDDDDDDDDDDDDDDDD==");
    after.sent();
    expect(cache.bytes).toBe(0);
  });

  it("keeps the same ETag for the same page rendered with another nonce", () => {
    const cache = cacheAt({ now: 0 }, {});
    const one = cache.set("a", pageOf('<b nonce="{n}">', "first-nonce"), 0)!;
    const two = cache.set("b", pageOf('<b nonce="{n}">', "second-nonce"), 0)!;
    const other = cache.set("c", pageOf('<i nonce="{n}">', "first-nonce"), 0)!;
    expect(one.etag).toBe(two.etag);
    expect(other.etag).not.toBe(one.etag);
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
