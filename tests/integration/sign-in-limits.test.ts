import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { SIGN_IN_LIMITS, signInKey } from "../../core/auth/sign-in-attempts.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { DEFAULT_CLIENTS, startOidcProvider, type OidcProvider } from "../helpers/oidc.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";

// Guessing limits per account (docs/decisions/0073-sign-in-guessing-limits.md), with the limits
// per client address on, on the app's own clock.

const PASSWORD = "Right#Pass42";
const WRONG = "Wrong#Guess1";
const { slowAfter, lockAfter, firstDelayMs, lockMs } = SIGN_IN_LIMITS;

let t: TestApp;
let smtp: SmtpCapture;
let provider: OidcProvider;
/** How far the app's clock is ahead of the real one. */
let aheadMs = 0;
const later = (ms: number) => {
  aheadMs += ms;
};

beforeAll(async () => {
  provider = await startOidcProvider();
  smtp = await startSmtpCapture();
  t = await createTestApp({
    seed: "none",
    jobs: true,
    env: { RATE_LIMIT: "on", ...provider.env() },
    now: () => new Date(Date.now() + aheadMs),
    mailer: smtpMailer(smtp),
  });
});

afterAll(async () => {
  await t?.close();
  await provider?.close();
  await smtp?.close();
});

let counter = 0;
/** A member with a password, and a fresh address for each call. */
async function member(label: string) {
  counter += 1;
  const email = `${label}-${counter}-${Date.now()}@example.com`;
  const row = await t.deps.db
    .insertInto("users")
    .values({
      name: `Limited ${label}`,
      email,
      password_hash: await hashPassword(PASSWORD),
      email_verified_at: new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

let addressCount = 0;
/** A client address nobody used yet, so that the limits per address stay out of the way. */
function newAddress() {
  addressCount += 1;
  return `198.18.${Math.floor(addressCount / 250)}.${(addressCount % 250) + 1}`;
}

function signin(email: string, password: string, remoteAddress = newAddress()) {
  return t.app.inject({
    method: "POST",
    url: "/api/signin",
    payload: { email, password },
    remoteAddress,
  });
}

/** The delay the failure numbered `failures` sets before the next attempt is checked. */
function delayAfter(failures: number) {
  return failures >= lockAfter ? lockMs : firstDelayMs * 2 ** (failures - slowAfter);
}

/**
 * Fails `lockAfter` times, waiting out each delay on the app's clock, so that the address ends
 * locked; the last answer is returned.
 */
async function lockOut(email: string) {
  for (let failure = 1; failure <= lockAfter; failure++) {
    const response = await signin(email, WRONG);
    expect(response.statusCode, `failure ${failure}`).toBe(401);
    if (failure >= slowAfter && failure < lockAfter) later(delayAfter(failure) + 1000);
  }
}

function expectLocked(response: Awaited<ReturnType<typeof signin>>, label = "refused") {
  expect(response.statusCode, label).toBe(429);
  expect(response.json(), label).toEqual({ status: "False", message: M.signinLocked });
  expect(Number(response.headers["retry-after"]), label).toBeGreaterThan(0);
}

function lockMails(email: string) {
  return smtp.messages.filter(
    (m) => m.to.includes(email.toLowerCase()) && /paused/.test(m.subject),
  );
}

describe("guessing one account's password", () => {
  it("is slowed after a few failures, from 20 addresses at once: 200 guesses, 5 checked", async () => {
    const { email } = await member("spread");
    const addresses = Array.from({ length: 20 }, () => newAddress());
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => signin(email, WRONG, addresses[i % 20])),
    );
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(slowAfter);
    expect(statuses.filter((s) => s === 429)).toHaveLength(200 - slowAfter);
    for (const refused of answers.filter((a) => a.statusCode === 429)) {
      expectLocked(refused);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(firstDelayMs / 1000);
    }
    // The right password waits too, from yet another address.
    expectLocked(await signin(email, PASSWORD));
    later(firstDelayMs + 1000);
    expect((await signin(email, PASSWORD)).statusCode).toBe(200);
  });

  it("locks the account for a while, tells its owner once by mail, then lets the owner in", async () => {
    const { email } = await member("locked");
    await lockOut(email);
    const locked = await signin(email, PASSWORD);
    expectLocked(locked, "the right password while locked");
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(lockMs / 1000 - 60);
    expect(Number(locked.headers["retry-after"])).toBeLessThanOrEqual(lockMs / 1000);
    // More guesses while locked are refused without being counted, and mail nothing more.
    for (let i = 0; i < 5; i++) expectLocked(await signin(email, WRONG));

    const mail = await smtp.waitForMessage(email, { subject: /paused/ });
    expect(mail.text).toContain(`${lockMs / 60_000} minutes`);
    expect(mail.links.some((l) => l.startsWith("http://localhost:3000/reset-password/"))).toBe(
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(lockMails(email)).toHaveLength(1);

    later(lockMs - 60_000);
    expectLocked(await signin(email, PASSWORD), "a minute before the lock ends");
    later(60_000 + 1000);
    const back = await signin(email, PASSWORD);
    expect(back.statusCode).toBe(200);
    // The success starts the count again: a typo now is one failure, not an eleventh.
    expect((await signin(email, WRONG)).statusCode).toBe(401);
    expect((await signin(email, PASSWORD)).statusCode).toBe(200);
    expect(lockMails(email)).toHaveLength(1);
  });

  it("answers an unknown address exactly like a known one, counted by its normalised form", async () => {
    const known = await member("twin");
    const unknown = `Nobody-${Date.now()}@Example.com`;
    const spellings = [unknown, ` ${unknown.toLowerCase()} `, unknown.toUpperCase()];
    type Seen = { status: number; body: unknown }[];
    const seen: { known: Seen; unknown: Seen } = { known: [], unknown: [] };
    for (let attempt = 0; attempt < slowAfter + 2; attempt++) {
      for (const [who, email] of [
        ["known", known.email],
        ["unknown", spellings[attempt % spellings.length]!],
      ] as const) {
        const response = await signin(email, WRONG);
        seen[who].push({ status: response.statusCode, body: response.json() });
      }
    }
    expect(seen.unknown).toEqual(seen.known);
    expect(seen.known.map((s) => s.status)).toEqual([...Array(slowAfter).fill(401), 429, 429]);
    const row = await t.deps.db
      .selectFrom("sign_in_attempts")
      .select(["address_hash", "failures"])
      .where("address_hash", "=", signInKey(unknown))
      .executeTakeFirstOrThrow();
    // Only a hash of the address is kept.
    expect(row.address_hash).not.toContain("nobody");
    expect(row.failures).toBe(slowAfter);
  });

  it("ends with a password reset from the mailed link", async () => {
    const { email } = await member("reset");
    await lockOut(email);
    expectLocked(await signin(email, PASSWORD));
    const mail = await smtp.waitForMessage(email, { subject: /paused/ });
    const link = mail.links.find((l) => l.includes("/reset-password/"))!;
    const token = decodeURIComponent(new URL(link).pathname.slice("/reset-password/".length));
    const reset = await t.app.inject({
      method: "POST",
      url: "/api/reset_password",
      payload: { token, password: "Fresh#Pass77", password_confirmation: "Fresh#Pass77" },
      remoteAddress: newAddress(),
    });
    expect(reset.statusCode).toBe(200);
    expect((await signin(email, "Fresh#Pass77")).statusCode).toBe(200);
  });

  it("counts provider tokens that do not verify against the address they claim", async () => {
    const { email } = await member("social");
    const badToken = (remoteAddress: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/social_signin",
        payload: { provider: "google", email, id_token: "not-a-token" },
        remoteAddress,
      });
    for (let i = 0; i < slowAfter; i++) {
      const response = await badToken(newAddress());
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(M.socialFailed);
    }
    const refused = await badToken(newAddress());
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(M.signinLocked);
    // The same count as the password's: that door waits too.
    expectLocked(await signin(email, PASSWORD));
    later(firstDelayMs + 1000);
    expect((await signin(email, PASSWORD)).statusCode).toBe(200);

    // The deleting call counts too.
    for (let i = 0; i < slowAfter; i++) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/social_signin_deleted",
        payload: { provider: "google", email, id_token: "not-a-token" },
        remoteAddress: newAddress(),
      });
      expect(response.statusCode).toBe(401);
    }
    expectLocked(await signin(email, PASSWORD));
  });

  it("refuses a provider sign-in to a locked account too, whatever the door", async () => {
    const sub = `locked-social-${Date.now()}`;
    const email = `${sub}@example.com`;
    const token = () =>
      provider.idToken(DEFAULT_CLIENTS.google, { sub, email, email_verified: true, name: "S" });
    const created = await t.app.inject({
      method: "POST",
      url: "/api/social_signin",
      payload: { provider: "google", id_token: await token() },
      remoteAddress: newAddress(),
    });
    expect(created.statusCode).toBe(200);
    // Someone guesses passwords at the account's address (it has none: still counted).
    await lockOut(email);
    const refused = await t.app.inject({
      method: "POST",
      url: "/api/social_signin",
      payload: { provider: "google", id_token: await token() },
      remoteAddress: newAddress(),
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(M.signinLocked);
    // The owner is told, with a link that gives the account a password and ends the lock.
    await smtp.waitForMessage(email, { subject: /paused/ });
    later(lockMs + 1000);
    const after = await t.app.inject({
      method: "POST",
      url: "/api/social_signin",
      payload: { provider: "google", id_token: await token() },
      remoteAddress: newAddress(),
    });
    expect(after.statusCode).toBe(200);
  });
});
