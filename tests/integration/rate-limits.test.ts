import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../../db/demo/seed.ts";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT: "on" } });
});

afterAll(async () => {
  await t?.close();
});

function post(url: string, payload: Record<string, unknown>, remoteAddress: string) {
  return t.app.inject({ method: "POST", url, payload, remoteAddress });
}

/** Sends `max` requests (none limited), then one more, which must answer 429 with Retry-After. */
async function exhaust(
  url: string,
  max: number,
  payload: (i: number) => Record<string, unknown>,
  address: string,
) {
  for (let i = 0; i < max; i++) {
    const response = await post(url, payload(i), address);
    expect(response.statusCode, `${url} request ${i + 1}`).not.toBe(429);
  }
  const limited = await post(url, payload(max), address);
  expect(limited.statusCode).toBe(429);
  expect(Number(limited.headers["retry-after"])).toBeGreaterThan(0);
  expect(limited.json()).toMatchObject({
    status: false,
    message: expect.stringMatching(/Too many requests/),
  });
}

describe("rate limits (docs/decisions/0007-rate-limits.md)", () => {
  it("limits sign-in per client address, so nobody can lock another person out", async () => {
    await exhaust(
      "/api/signin",
      RATE_LIMITS.signin.max,
      () => ({ email: DEMO_EMAIL, password: "Wrong#Guess1" }),
      "203.0.113.10",
    );
    // The account's owner, from their own address, still signs in.
    const owner = await post(
      "/api/signin",
      { email: DEMO_EMAIL, password: DEMO_PASSWORD },
      "198.51.100.7",
    );
    expect(owner.statusCode).toBe(200);
  });

  it("limits sign-up", async () => {
    await exhaust(
      "/api/signup",
      RATE_LIMITS.signup.max,
      (i) => ({
        name: "Rate Test",
        email: `rate-${i}-${Date.now()}@example.com`,
        password: "Chalk#Board42",
      }),
      "203.0.113.20",
    );
  });

  it("limits forgot password", async () => {
    await exhaust(
      "/api/forgot_password",
      RATE_LIMITS.forgotPassword.max,
      (i) => ({ email: `nobody-${i}@example.com` }),
      "203.0.113.30",
    );
  });

  it("limits social sign-in", async () => {
    await exhaust(
      "/api/social_signin",
      RATE_LIMITS.social.max,
      () => ({ provider: "google", id_token: "not-a-token" }),
      "203.0.113.40",
    );
  });

  it("counts each call separately", async () => {
    const address = "203.0.113.50";
    await exhaust(
      "/api/forgot_password",
      RATE_LIMITS.forgotPassword.max,
      () => ({ email: "x@example.com" }),
      address,
    );
    const signin = await post(
      "/api/signin",
      { email: DEMO_EMAIL, password: DEMO_PASSWORD },
      address,
    );
    expect(signin.statusCode).toBe(200);
  });
});
