import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

// Rate-limit counters in Redis are shared by every server process. Runs where a Redis server is
// reachable (CI starts one on 127.0.0.1:6379; REDIS_URL overrides).
const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
  });
  probe.on("error", () => {});
  try {
    await probe.connect();
    return (await probe.ping()) === "PONG";
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

describe.skipIf(!(await redisReachable()))("rate limits shared through Redis", () => {
  // Two server processes sharing one Redis (each with its own database).
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = { RATE_LIMIT: "on", REDIS_URL };
    first = await createTestApp({ env, seed: "none" });
    second = await createTestApp({ env, seed: "none" });
  }, 180_000); // two apps, twice the usual setup
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
  });

  it("counts one client's sign-ins across two server processes", async () => {
    // A fresh address per run, so earlier runs' counters in the same Redis do not count.
    const address = `10.${randomBytes(3).join(".")}`;
    // Another account each time: one account's failures meet its own limit after five
    // (docs/decisions/0073-sign-in-guessing-limits.md).
    let tries = 0;
    const attempt = (app: TestApp) =>
      app.app.inject({
        method: "POST",
        url: "/api/signin",
        payload: { email: `nobody-${++tries}@example.com`, password: "Wrong#1234" },
        remoteAddress: address,
      });
    for (let i = 0; i < RATE_LIMITS.signin.max; i++) {
      const response = await attempt(i % 2 === 0 ? first : second);
      expect(response.statusCode, `attempt ${i + 1}`).not.toBe(429);
    }
    const limited = await attempt(second);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });

  it("counts one address's follows across accounts and server processes", async () => {
    const address = `10.${randomBytes(3).join(".")}`;
    const { perAddress } = RATE_LIMITS.follow;
    // One follow per account, so the per-account counters (keyed by user id, which repeats in
    // every fresh test database) stay far below their own allowance across runs.
    const follower = async (app: TestApp) => {
      const client = new TestClient(app.app);
      await client.signInAs(app.deps.db, await createTestUser(app.deps.db));
      return client;
    };
    const followees = [await createTestUser(first.deps.db), await createTestUser(second.deps.db)];
    const attempt = async (i: number) => {
      const app = i % 2 === 0 ? first : second;
      return (await follower(app)).request({
        method: "POST",
        url: "/api/profile_follow",
        payload: { user_id: followees[i % 2], status: "Follow" },
        remoteAddress: address,
      });
    };
    for (let i = 0; i < perAddress.max; i++) {
      expect((await attempt(i)).statusCode, `follow ${i + 1}`).toBe(200);
    }
    const limited = await attempt(perAddress.max);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});
