import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

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

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
});

describe.skipIf(!(await redisReachable()))("rate limits shared through Redis", () => {
  it("counts one client's sign-ins across two server processes", async () => {
    const env = { RATE_LIMIT: "on", REDIS_URL };
    const [first, second] = [
      await createTestApp({ env, seed: "none" }),
      await createTestApp({ env, seed: "none" }),
    ];
    apps.push(first!, second!);
    // A fresh address per run, so earlier runs' counters in the same Redis do not count.
    const address = `10.${randomBytes(3).join(".")}`;
    const attempt = (app: TestApp) =>
      app.app.inject({
        method: "POST",
        url: "/api/signin",
        payload: { email: "nobody@example.com", password: "Wrong#1234" },
        remoteAddress: address,
      });
    for (let i = 0; i < RATE_LIMITS.signin.max; i++) {
      const response = await attempt(i % 2 === 0 ? first! : second!);
      expect(response.statusCode, `attempt ${i + 1}`).not.toBe(429);
    }
    const limited = await attempt(second!);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  });
});
