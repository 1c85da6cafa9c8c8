import type { FastifyRateLimitOptions, FastifyRateLimitStore } from "@fastify/rate-limit";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../tests/helpers/app.ts";
import { postgresRateLimitStore } from "./rate-limit-store.ts";

const WINDOW_MS = 15 * 60 * 1000;

/** The plugin's store type, with the read its newer versions call (and this store has). */
type Store = FastifyRateLimitStore & { read: FastifyRateLimitStore["incr"] };

function hit(store: Store, key: string) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), WINDOW_MS, 10),
  );
}

function peek(store: Store, key: string) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.read(key, (error, result) => (error ? reject(error) : resolve(result!)), WINDOW_MS, 10),
  );
}

/** A route's store, as the plugin makes it in one process. */
function routeStore(app: TestApp, method: string, url: string): Store {
  const Store = postgresRateLimitStore(app.deps.db);
  const root = new Store({} as FastifyRateLimitOptions);
  return root.child({ routeInfo: { method, url } } as never) as Store;
}

describe("the PostgreSQL rate-limit store (every process on one database)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await createTestApp({ seed: "none" });
  });
  afterAll(() => app.close());

  it("counts one key's hits across stores, as two processes would", async () => {
    const first = routeStore(app, "POST", "/api/signin");
    const second = routeStore(app, "POST", "/api/signin");
    const counts = [];
    for (const store of [first, second, first, second]) counts.push(await hit(store, "10.0.0.1"));
    expect(counts.map((c) => c.current)).toEqual([1, 2, 3, 4]);
    for (const { ttl } of counts) {
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WINDOW_MS);
    }
    expect(await peek(second, "10.0.0.1")).toMatchObject({ current: 4 });
    expect((await hit(first, "10.0.0.1")).current).toBe(5); // reading counted nothing
  });

  it("keeps routes and keys apart", async () => {
    expect((await hit(routeStore(app, "POST", "/api/signup"), "10.0.0.1")).current).toBe(1);
    expect((await hit(routeStore(app, "POST", "/api/signin"), "10.0.0.2")).current).toBe(1);
    expect(await peek(routeStore(app, "POST", "/api/contact"), "10.0.0.1")).toEqual({
      current: 0,
      ttl: 0,
    });
  });

  it("starts a window again once it has ended", async () => {
    const store = routeStore(app, "POST", "/api/forgot_password");
    await hit(store, "10.0.0.3");
    await hit(store, "10.0.0.3");
    await sql`UPDATE rate_limit_counters SET expires_at = now() - interval '1 second'
              WHERE key LIKE ${"%/api/forgot_password-10.0.0.3"}`.execute(app.deps.db);
    expect(await peek(store, "10.0.0.3")).toEqual({ current: 0, ttl: 0 });
    expect((await hit(store, "10.0.0.3")).current).toBe(1);
  });
});
