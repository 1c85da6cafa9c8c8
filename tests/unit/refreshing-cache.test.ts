import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { RefreshingCache } from "../../core/cache/refreshing-cache.ts";

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("RefreshingCache", () => {
  it("shares a first load and answers from memory until the TTL", async () => {
    const cache = new RefreshingCache<number>(1000);
    const load = vi.fn(async () => 42);
    const [a, b] = await Promise.all([cache.get("k", load), cache.get("k", load)]);
    expect([a, b]).toEqual([42, 42]);
    expect(await cache.get("k", load)).toBe(42);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("after the TTL answers the last value at once while one refresh runs", async () => {
    const cache = new RefreshingCache<number>(1000);
    await cache.get("k", async () => 1);
    vi.advanceTimersByTime(1001);
    const refresh = deferred<number>();
    const load = vi.fn(() => refresh.promise);
    expect(await cache.get("k", load)).toBe(1);
    expect(await cache.get("k", load)).toBe(1);
    expect(load).toHaveBeenCalledTimes(1);
    refresh.resolve(2);
    await refresh.promise;
    await Promise.resolve();
    expect(await cache.get("k", load)).toBe(2);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps the last value when a refresh fails, and tries again next time", async () => {
    const cache = new RefreshingCache<number>(1000);
    await cache.get("k", async () => 1);
    vi.advanceTimersByTime(1001);
    const failing = vi.fn(() => Promise.reject(new Error("database busy")));
    expect(await cache.get("k", failing)).toBe(1);
    await Promise.resolve();
    await Promise.resolve();
    expect(await cache.get("k", async () => 3)).toBe(1);
    await Promise.resolve();
    await Promise.resolve();
    expect(await cache.get("k", async () => 4)).toBe(3);
  });

  it("does not cache a failed first load", async () => {
    const cache = new RefreshingCache<number>(1000);
    await expect(cache.get("k", () => Promise.reject(new Error("no")))).rejects.toThrow("no");
    await Promise.resolve();
    expect(await cache.get("k", async () => 5)).toBe(5);
  });

  it("drops every value on clear, so the next read waits for a fresh one", async () => {
    const cache = new RefreshingCache<number>(1000);
    await cache.get("k", async () => 1);
    cache.clear();
    expect(await cache.get("k", async () => 9)).toBe(9);
  });
});
