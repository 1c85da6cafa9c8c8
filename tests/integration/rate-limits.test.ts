import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../../db/demo/seed.ts";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * On PostgreSQL the app runs as production does there, counting in the database (migration 026,
 * docs/decisions/0076); on the embedded database it counts in memory.
 */
const onPostgres: Record<string, string> = process.env.DATABASE_URL
  ? { DATABASE_URL: process.env.DATABASE_URL }
  : {};

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT: "on", ...onPostgres } });
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
  it("limits sign-in per client address, whichever accounts it tries", async () => {
    // Other accounts each time: one account's failures meet its own limit after five
    // (tests/integration/sign-in-limits.test.ts).
    await exhaust(
      "/api/signin",
      RATE_LIMITS.signin.max,
      (i) => ({ email: `guess-${i}-${Date.now()}@example.com`, password: "Wrong#Guess1" }),
      "203.0.113.10",
    );
    // Anyone else, from their own address, still signs in.
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

describe("likes, unlikes and follows: per account and per address", () => {
  let postId: number;
  let followee: number;

  beforeAll(async () => {
    const post = await t.deps.db
      .selectFrom("posts")
      .select("id")
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    postId = post.id;
    followee = await createTestUser(t.deps.db);
  });

  async function member() {
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, await createTestUser(t.deps.db));
    return client;
  }

  /** One press of the like button (a second press takes it back, a third likes again…). */
  const like = (client: TestClient, address: string) =>
    client.request({
      method: "POST",
      url: "/api/product_like_unlike",
      payload: { post_id: postId, btn_type: "like" },
      remoteAddress: address,
    });

  let followStep = 0;
  const follow = (client: TestClient, address: string) =>
    client.request({
      method: "POST",
      url: "/api/profile_follow",
      payload: { user_id: followee, status: followStep++ % 2 === 0 ? "Follow" : "UN FOLLOW" },
      remoteAddress: address,
    });

  type Call = (client: TestClient, address: string) => ReturnType<TestClient["request"]>;

  function expectLimited(response: Awaited<ReturnType<Call>>, label: string) {
    expect(response.statusCode, label).toBe(429);
    expect(Number(response.headers["retry-after"]), label).toBeGreaterThan(0);
    expect(response.json(), label).toMatchObject({
      status: false,
      message: expect.stringMatching(/^Too many requests\. Please try again in \d+ \w+\.$/),
    });
  }

  const cases: [string, Call, { max: number; perAddress: { max: number } }][] = [
    ["likes and unlikes", like, RATE_LIMITS.reaction],
    ["follows", follow, RATE_LIMITS.follow],
  ];

  for (const [label, call, limit] of cases) {
    it(`limits ${label} per account, from however many addresses`, async () => {
      const client = await member();
      for (let i = 0; i < limit.max; i++) {
        const response = await call(client, `198.18.${i}.1`);
        expect(response.statusCode, `${label} ${i + 1}`).toBe(200);
      }
      expectLimited(await call(client, "198.18.200.1"), `${label} over the account's allowance`);
      // Another member is not held back by it.
      expect((await call(await member(), "198.18.201.1")).statusCode).toBe(200);
    });

    it(`limits ${label} per address, across however many accounts`, async () => {
      const address = label === "follows" ? "198.19.0.2" : "198.19.0.1";
      let sent = 0;
      while (sent < limit.perAddress.max) {
        const client = await member();
        for (let i = 0; i < limit.max && sent < limit.perAddress.max; i++, sent++) {
          expect((await call(client, address)).statusCode, `${label} ${sent + 1}`).toBe(200);
        }
      }
      // A fresh account, with its own allowance untouched, from the same address.
      const fresh = await member();
      expectLimited(await call(fresh, address), `${label} over the address's allowance`);
      // The same account from another address goes through.
      expect((await call(fresh, "198.19.1.1")).statusCode).toBe(200);
    });
  }
  // Reports (record 0031): a repeat answers 409, which counts like any other call.
  const report = (client: TestClient, address: string) =>
    client.request({
      method: "POST",
      url: "/api/report",
      payload: { item_type: "user", item_id: followee, reason: "spam" },
      remoteAddress: address,
    });

  it("limits reports per account, and per address across accounts", async () => {
    const client = await member();
    for (let i = 0; i < RATE_LIMITS.report.max; i++) {
      expect([201, 409], `report ${i + 1}`).toContain(
        (await report(client, `198.18.${i}.9`)).statusCode,
      );
    }
    expectLimited(await report(client, "198.18.250.9"), "reports over the account's allowance");

    const address = "198.19.0.3";
    for (let sent = 0; sent < RATE_LIMITS.report.perAddress.max;) {
      const someone = await member();
      for (let i = 0; i < RATE_LIMITS.report.max && sent < RATE_LIMITS.report.perAddress.max; i++) {
        expect([201, 409]).toContain((await report(someone, address)).statusCode);
        sent++;
      }
    }
    expectLimited(await report(await member(), address), "reports over the address's allowance");
  });
});

describe.runIf(process.env.DATABASE_URL)("two server processes on one PostgreSQL database", () => {
  // Two apps on one schema, as two processes (on one machine or two) share one database.
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    const env = { RATE_LIMIT: "on", ...onPostgres };
    first = await createTestApp({ env, seed: "none" });
    second = await createTestApp({ env, seed: "none", sameDatabaseAs: first });
  }, 180_000); // two apps, twice the usual setup
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("counts one client's sign-ins across two server processes", async () => {
    const address = "10.7.0.1";
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
    const address = "10.7.0.2";
    const { perAddress } = RATE_LIMITS.follow;
    // One follow per account, so that only the address's allowance can run out.
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
