import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/env.ts";
import { buildApp } from "../../server/app.ts";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * TRUST_PROXY (docs/decisions/0023): rate limits count the real client, whatever X-Forwarded-For a
 * client makes up. Wrong sign-ins are the probe: the limit allows RATE_LIMITS.signin.max of them.
 */
const MAX = RATE_LIMITS.signin.max;
const ATTEMPTS = MAX + 5;

let tries = 0;
function wrongSignIn(app: FastifyInstance, remoteAddress: string, forwardedFor?: string) {
  // Another account each time: one account's failures meet its own limit after five, whatever
  // the address (docs/decisions/0073-sign-in-guessing-limits.md).
  tries += 1;
  return app.inject({
    method: "POST",
    url: "/api/signin",
    payload: { email: `nobody-${tries}@example.com`, password: "Wrong#Guess1" },
    remoteAddress,
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  });
}

/** Status of each of ATTEMPTS wrong sign-ins; `forwardedFor(i)` is the header of attempt i. */
async function statuses(
  app: FastifyInstance,
  remoteAddress: string,
  forwardedFor: (i: number) => string | undefined,
) {
  const result: number[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    result.push((await wrongSignIn(app, remoteAddress, forwardedFor(i))).statusCode);
  }
  return result;
}

/** The first MAX attempts are answered (a wrong password), every later one is 429. */
function expectLimitedAfterMax(result: number[]) {
  expect(result.slice(0, MAX)).not.toContain(429);
  expect(result.slice(MAX)).toEqual(Array.from({ length: ATTEMPTS - MAX }, () => 429));
}

// One database; an app per TRUST_PROXY setting, each with its own rate-limit counters.
let base: TestApp;
beforeAll(async () => {
  base = await createTestApp({ seed: "none" });
});
afterAll(() => base?.close());

async function appWith(env: Record<string, string>) {
  const config = loadConfig({
    ...env,
    NODE_ENV: "test",
    DATA_DIR: base.dataDir,
    LOG_LEVEL: "silent",
    RATE_LIMIT: "on",
    PUBLIC_URL: "https://deals.example.com",
  });
  return (
    await buildApp({
      config,
      db: base.deps.db,
      readiness: base.readiness,
      jobs: base.jobs,
      pages: false,
      logger: false,
    })
  ).app;
}

describe("without TRUST_PROXY (the default), even behind https://", () => {
  let t: FastifyInstance;
  beforeAll(async () => {
    t = await appWith({});
  });
  afterAll(() => t?.close());

  it("ignores X-Forwarded-For: a new forged address on every attempt still reaches 429", async () => {
    const result = await statuses(t, "203.0.113.50", (i) => `198.51.100.${i + 1}`);
    expectLimitedAfterMax(result);
  });
});

describe("with TRUST_PROXY naming the proxy's address", () => {
  let t: FastifyInstance;
  const PROXY = "10.0.0.7";
  beforeAll(async () => {
    t = await appWith({ TRUST_PROXY: `${PROXY}, 10.1.0.0/16` });
  });
  afterAll(() => t?.close());

  it("counts each forwarded client on its own", async () => {
    const result = await statuses(t, PROXY, (i) => `198.51.100.${i + 1}`);
    expect(result).not.toContain(429);
  });

  it("limits one forwarded client, whatever it puts in front of its real address", async () => {
    // The client forges a first entry; the proxy appends the address it really saw.
    const result = await statuses(t, PROXY, (i) => `192.0.2.${i + 1}, 198.51.100.200`);
    expectLimitedAfterMax(result);
  });

  it("walks back through several trusted proxies to the client", async () => {
    const result = await statuses(t, PROXY, (i) => `192.0.2.${i + 1}, 198.51.100.201, 10.1.2.3`);
    expectLimitedAfterMax(result);
  });

  it("believes no header from a client that is not the proxy", async () => {
    const result = await statuses(t, "203.0.113.51", (i) => `198.51.100.${i + 1}`);
    expectLimitedAfterMax(result);
  });
});

describe("with TRUST_PROXY as a hop count", () => {
  let t: FastifyInstance;
  beforeAll(async () => {
    t = await appWith({ TRUST_PROXY: "1" });
  });
  afterAll(() => t?.close());

  it("takes the address the last proxy saw, not the forged ones before it", async () => {
    const result = await statuses(t, "10.9.9.9", (i) => `192.0.2.${i + 1}, 198.51.100.202`);
    expectLimitedAfterMax(result);
  });

  it("counts different clients behind the proxy apart", async () => {
    const result = await statuses(t, "10.9.9.9", (i) => `198.51.100.${i + 1}`);
    expect(result).not.toContain(429);
  });
});
