import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES as M } from "../../core/people/accounts/schema.ts";
import { CONFIRM_EMAIL_FIRST, requireConfirmedUser } from "../../core/auth/policy.ts";
import { findSessionUser, hashToken } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import { ForbiddenError, UnauthenticatedError } from "../../core/errors.ts";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../../db/demo/seed.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { startSmtpCapture, type SmtpCapture, smtpMailer } from "../helpers/smtp.ts";

let t: TestApp;
let smtp: SmtpCapture;

const STRONG = "Chalk#Board42";

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    jobs: true,
    mailer: smtpMailer(smtp),
  });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let counter = 0;
function newEmail(label: string) {
  counter += 1;
  return `${label}-${counter}-${Date.now()}@example.com`;
}

function post(url: string, payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url,
    payload: payload as Record<string, unknown>,
    headers,
  });
}

async function register(email: string, password = STRONG, name = "Test Person") {
  const response = await post("/api/signup", { name, email, password });
  expect(response.statusCode).toBe(201);
  return response.json();
}

function codeFrom(link: string, prefix: string) {
  const url = new URL(link);
  expect(url.origin).toBe("http://localhost:3000");
  expect(url.pathname.startsWith(prefix)).toBe(true);
  return decodeURIComponent(url.pathname.slice(prefix.length));
}

describe("POST /api/signup", () => {
  it("answers 201, stores an argon2id hash, and mails a confirmation link in text and HTML", async () => {
    const email = newEmail("signup");
    const body = await register(email, STRONG, "Nora <b>Teacher</b>");
    expect(body).toMatchObject({
      status: "true",
      message: "Registered Successfully !",
      response: { name: "Nora <b>Teacher</b>", email, email_verified: false },
    });
    expect(body.response).not.toHaveProperty("password_hash");

    const row = await t.deps.db
      .selectFrom("users")
      .select(["password_hash", "email_verified_at"])
      .where("id", "=", body.response.user_id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.email_verified_at).toBeNull();

    const mail = await smtp.waitForMessage(email, { subject: /Confirm your email/ });
    expect(mail.subject).toContain("Chalkboard Deals");
    const link = mail.links.find((l) => l.includes("/confirm/"))!;
    expect(mail.text).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
    // Names are escaped in the HTML part.
    expect(mail.html).toContain("Nora &lt;b&gt;Teacher&lt;/b&gt;");
    expect(mail.html).not.toContain("<b>Teacher</b>");
    // Only a hash of the code is stored.
    const code = codeFrom(link, "/confirm/");
    const stored = await t.deps.db
      .selectFrom("email_tokens")
      .select(["token_hash", "purpose", "expires_at", "created_at"])
      .where("user_id", "=", body.response.user_id)
      .executeTakeFirstOrThrow();
    expect(stored.token_hash).toBe(hashToken(code));
    expect(stored.token_hash).not.toContain(code);
    expect(stored.purpose).toBe("confirm");
    const hours = (stored.expires_at.getTime() - stored.created_at.getTime()) / 3_600_000;
    expect(hours).toBeGreaterThan(47.9);
    expect(hours).toBeLessThan(48.1);
  });

  it("answers a duplicate address (in any case) with message.email", async () => {
    const email = newEmail("dup");
    await register(email);
    const response = await post("/api/signup", {
      name: "Other",
      email: email.toUpperCase(),
      password: STRONG,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message.email).toBe("The email has already been taken.");
  });

  it("checks the spec's rules with its messages", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: "a@example.com", password: STRONG }, "name", "Name is required !"],
      [
        { name: "A", email: "a@example.com", password: STRONG },
        "name",
        "Name should be more than 2 character!",
      ],
      [{ name: "Ann", password: STRONG }, "email", "Email is required !"],
      [{ name: "Ann", email: "not-an-address", password: STRONG }, "email", M.emailInvalid],
      [{ name: "Ann", email: "a@example.com" }, "password", "Password is required !"],
      ...["abc", "abcd1234", "ABCD12!", "abcd!!ef", "Ab1!".repeat(9)].map(
        (password): [Record<string, unknown>, string, string] => [
          { name: "Ann", email: "a@example.com", password },
          "password",
          "Password should at least one digit,one uppercase letter,one lowercase letter,one special character,and password between 4-32 characters in length.",
        ],
      ),
    ];
    for (const [payload, field, message] of cases) {
      const response = await post("/api/signup", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      const body = response.json();
      expect(body.status).toBe(false);
      expect(body.errors[field]).toBe(message);
      expect(body.message[field]).toBe(message);
    }
  });

  it("accepts the shortest and longest passwords the rule allows", async () => {
    await register(newEmail("short"), "Zq7!");
    await register(newEmail("long"), "Zq7!".repeat(8));
  });

  it("refuses the most common passwords, case-insensitively and with digits or symbols added", async () => {
    for (const password of ["Password1!", "P@ssw0rd", "Qwerty123!", "!Summer2024", "Letmein#1"]) {
      const response = await post("/api/signup", {
        name: "Ann",
        email: newEmail("common"),
        password,
      });
      expect(response.statusCode, password).toBe(422);
      expect(response.json().errors.password).toBe(M.passwordCommon);
    }
  });

  it("never answers 500 to junk", async () => {
    for (const payload of [null, [], "x", { name: 5, email: ["a"], password: { a: 1 } }]) {
      const response = await t.app.inject({
        method: "POST",
        url: "/api/signup",
        payload: JSON.stringify(payload),
        headers: { "content-type": "application/json" },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
    }
  });
});

describe("POST /api/verify", () => {
  it("confirms once; a second use, an unknown code and an expired code answer a message", async () => {
    const email = newEmail("verify");
    const { response: account } = await register(email);
    const mail = await smtp.waitForMessage(email, { subject: /Confirm/ });
    const code = codeFrom(
      mail.links.find((l) => l.includes("/confirm/"))!,
      "/confirm/",
    );

    const ok = await post("/api/verify", { confirmation_code: code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({
      status: "true",
      message: M.emailConfirmed,
      response: { user_id: account.user_id, email_verified: true },
    });

    const again = await post("/api/verify", { confirmation_code: code });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ status: false, message: M.confirmationUsed });

    const unknown = await post("/api/verify", { confirmation_code: "nope" });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(M.confirmationInvalid);

    const empty = await post("/api/verify", {});
    expect(empty.statusCode).toBe(422);
  });

  it("refuses a code past its 48 hours", async () => {
    const email = newEmail("expired");
    const { response: account } = await register(email);
    const code = codeFrom(
      (await smtp.waitForMessage(email, { subject: /Confirm/ })).links.find((l) =>
        l.includes("/confirm/"),
      )!,
      "/confirm/",
    );
    await t.deps.db
      .updateTable("email_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("user_id", "=", account.user_id)
      .execute();
    const response = await post("/api/verify", { confirmation_code: code });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(M.confirmationInvalid);
  });

  it("mails a new link on request, with the same answer for unknown addresses", async () => {
    const email = newEmail("resend");
    await register(email);
    await smtp.waitForMessage(email, { subject: /Confirm/ });
    const known = await post("/api/resend_confirmation", { email });
    const unknown = await post("/api/resend_confirmation", { email: newEmail("nobody") });
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(M.confirmationResent);
    const second = await smtp.waitForMessage(email, { subject: /Confirm/ });
    expect(second.links.some((l) => l.includes("/confirm/"))).toBe(true);
  });
});

describe("POST /api/signin and /api/logout", () => {
  it("signs in with the spec's answer and an HttpOnly session cookie", async () => {
    const response = await post("/api/signin", { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({
      status: "true",
      message: "Successfully Login",
      response: { user_id: expect.any(Number), name: expect.any(String), email: DEMO_EMAIL },
    });
    const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE)!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe("Lax");
    expect(cookie.value).toBe(body.response.token);
    expect(cookie.value.length).toBeGreaterThanOrEqual(22);
    // Mobile apps may send the same token as a bearer token.
    const me = await findSessionUser(t.deps.db, body.response.token);
    expect(me?.id).toBe(body.response.user_id);
  });

  it("answers status 'False' with one message for a wrong password and an unknown address", async () => {
    const wrong = await post("/api/signin", { email: DEMO_EMAIL, password: "Wrong#Pass1" });
    const unknown = await post("/api/signin", {
      email: newEmail("ghost"),
      password: "Wrong#Pass1",
    });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ status: "False", message: M.signinFailed });
      expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    }
    const empty = await post("/api/signin", {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({
      status: "False",
      errors: { email: "Email is required !", password: "Password is required !" },
    });
  });

  it("renews the session at sign-in and ends it at logout", async () => {
    const client = new TestClient(t.app);
    await client.get("/api/general_settings"); // gets the XSRF cookie, as a browser would
    const first = await client.post("/api/signin", { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const firstToken = first.json().response.token as string;
    const second = await client.post("/api/signin", { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    const secondToken = second.json().response.token as string;
    expect(secondToken).not.toBe(firstToken);
    expect(await findSessionUser(t.deps.db, firstToken)).toBeNull();
    expect(await findSessionUser(t.deps.db, secondToken)).not.toBeNull();

    const out = await client.post("/api/logout");
    expect(out.statusCode).toBe(200);
    expect(out.json().status).toBe("true");
    expect(client.cookies.has(SESSION_COOKIE)).toBe(false);
    expect(await findSessionUser(t.deps.db, secondToken)).toBeNull();
  });

  it("refuses a cookie-authenticated POST without the XSRF header", async () => {
    const client = new TestClient(t.app);
    await client.get("/api/general_settings");
    await client.post("/api/signin", { email: DEMO_EMAIL, password: DEMO_PASSWORD });
    expect(client.cookies.get(XSRF_COOKIE)).toBeTruthy();
    const refused = await client.post("/api/logout", {}, { xsrf: false });
    expect(refused.statusCode).toBe(403);
    const refusedChange = await client.post(
      "/api/change_password",
      { old_password: DEMO_PASSWORD, new_password: STRONG, new_password_confirmation: STRONG },
      { xsrf: false },
    );
    expect(refusedChange.statusCode).toBe(403);
  });
});

describe("forgot and reset password", () => {
  it("answers the spec's messages and mails a single-use reset link, never a password", async () => {
    const email = newEmail("forgot");
    const { response: account } = await register(email);
    await smtp.waitForMessage(email, { subject: /Confirm/ });

    const unknown = await post("/api/forgot_password", { email: newEmail("nobody") });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ status: "false", message: "Not Email id Found." });

    const empty = await post("/api/forgot_password", {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.email).toBe("Email is required !");

    const sent = await post("/api/forgot_password", { email });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      status: "true",
      message: "Password sent successfully to this email Id.",
    });

    const mail = await smtp.waitForMessage(email, { subject: /Reset/ });
    expect(mail.text).not.toContain(STRONG);
    expect(mail.html).not.toContain(STRONG);
    const link = mail.links.find((l) => l.includes("/reset-password/"))!;
    const token = codeFrom(link, "/reset-password/");
    expect(await t.services.accounts.isResetLinkUsable(token)).toBe(true);

    // A signed-in device of this account, to see that the reset ends it.
    const device = new TestClient(t.app);
    const signedIn = await device.post("/api/signin", { email, password: STRONG });
    const oldToken = signedIn.json().response.token as string;

    const mismatch = await post("/api/reset_password", {
      token,
      password: "New#Chalk77",
      password_confirmation: "Other#Chalk77",
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json().errors.password_confirmation).toBe(M.confirmMismatch);
    const weak = await post("/api/reset_password", {
      token,
      password: "weak",
      password_confirmation: "weak",
    });
    expect(weak.json().errors.password).toBe(M.passwordRule);

    const reset = await post("/api/reset_password", {
      token,
      password: "New#Chalk77",
      password_confirmation: "New#Chalk77",
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ status: "true", message: M.resetDone });
    expect(await findSessionUser(t.deps.db, oldToken)).toBeNull();
    await smtp.waitForMessage(email, { subject: /password was changed/ });

    const reused = await post("/api/reset_password", {
      token,
      password: "Third#Chalk77",
      password_confirmation: "Third#Chalk77",
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(M.resetLinkInvalid);

    expect((await post("/api/signin", { email, password: STRONG })).statusCode).toBe(401);
    expect((await post("/api/signin", { email, password: "New#Chalk77" })).statusCode).toBe(200);
    // The mailed link proved the address.
    const row = await t.deps.db
      .selectFrom("users")
      .select("email_verified_at")
      .where("id", "=", account.user_id)
      .executeTakeFirstOrThrow();
    expect(row.email_verified_at).not.toBeNull();
  });

  it("lets only the newest reset link work, and only for an hour", async () => {
    const email = newEmail("twolinks");
    const { response: account } = await register(email);
    await smtp.waitForMessage(email, { subject: /Confirm/ });
    await post("/api/forgot_password", { email });
    const first = codeFrom(
      (await smtp.waitForMessage(email, { subject: /Reset/ })).links[0]!,
      "/reset-password/",
    );
    await post("/api/forgot_password", { email });
    const second = codeFrom(
      (await smtp.waitForMessage(email, { subject: /Reset/ })).links[0]!,
      "/reset-password/",
    );
    expect(await t.services.accounts.isResetLinkUsable(first)).toBe(false);
    expect(await t.services.accounts.isResetLinkUsable(second)).toBe(true);

    const stored = await t.deps.db
      .selectFrom("email_tokens")
      .select(["expires_at", "created_at"])
      .where("user_id", "=", account.user_id)
      .where("purpose", "=", "reset")
      .where("token_hash", "=", hashToken(second))
      .executeTakeFirstOrThrow();
    const minutes = (stored.expires_at.getTime() - stored.created_at.getTime()) / 60_000;
    expect(minutes).toBeGreaterThan(59.9);
    expect(minutes).toBeLessThan(60.1);
  });
});

describe("POST /api/change_password", () => {
  async function signedInUser() {
    const email = newEmail("change");
    const { response: account } = await register(email);
    await smtp.waitForMessage(email, { subject: /Confirm/ });
    const client = new TestClient(t.app);
    await client.get("/api/general_settings");
    const signin = await client.post("/api/signin", { email, password: STRONG });
    expect(signin.statusCode).toBe(200);
    return { client, email, userId: account.user_id as number };
  }

  it("needs a session (401) and refuses to act for someone else (403)", async () => {
    const anonymous = await post("/api/change_password", {
      old_password: STRONG,
      new_password: "New#Chalk77",
      new_password_confirmation: "New#Chalk77",
    });
    expect(anonymous.statusCode).toBe(401);

    const { client, userId } = await signedInUser();
    const other = await client.post("/api/change_password", {
      user_id: userId + 1000,
      old_password: STRONG,
      new_password: "New#Chalk77",
      new_password_confirmation: "New#Chalk77",
    });
    expect(other.statusCode).toBe(403);
  });

  it("checks the old password and the spec's messages", async () => {
    const { client, userId } = await signedInUser();
    const empty = await client.post("/api/change_password", { user_id: userId });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toMatchObject({
      old_password: M.oldPasswordRequired,
      new_password: M.newPasswordRequired,
      new_password_confirmation: M.confirmRequired,
    });
    const mismatch = await client.post("/api/change_password", {
      user_id: userId,
      old_password: STRONG,
      new_password: "New#Chalk77",
      new_password_confirmation: "New#Chalk78",
    });
    expect(mismatch.json().errors.new_password_confirmation).toBe(
      "New and Confirm Password should be same. ",
    );
    const wrongOld = await client.post("/api/change_password", {
      user_id: userId,
      old_password: "Wrong#Old1",
      new_password: "New#Chalk77",
      new_password_confirmation: "New#Chalk77",
    });
    expect(wrongOld.statusCode).toBe(422);
    expect(wrongOld.json().message).toBe(M.oldPasswordWrong);
    const common = await client.post("/api/change_password", {
      user_id: userId,
      old_password: STRONG,
      new_password: "Password1!",
      new_password_confirmation: "Password1!",
    });
    expect(common.json().errors.new_password).toBe(M.passwordCommon);
  });

  it("changes the password, ends every session and gives this browser a new one", async () => {
    const { client, email, userId } = await signedInUser();
    const otherDevice = new TestClient(t.app);
    const otherToken = (await otherDevice.post("/api/signin", { email, password: STRONG })).json()
      .response.token as string;
    const thisToken = client.cookies.get(SESSION_COOKIE)!;
    const thisXsrf = client.cookies.get(XSRF_COOKIE)!;

    const changed = await client.post("/api/change_password", {
      user_id: userId,
      old_password: STRONG,
      new_password: "New#Chalk77",
      new_password_confirmation: "New#Chalk77",
    });
    expect(changed.statusCode).toBe(200);
    // The spec's answer, unchanged: a browser's new token is only in its HttpOnly cookie.
    expect(changed.json()).toEqual({ status: "true", message: M.passwordChanged });
    const newToken = client.cookies.get(SESSION_COOKIE)!;
    expect(newToken).not.toBe(thisToken);
    expect(changed.cookies.find((c) => c.name === SESSION_COOKIE)?.httpOnly).toBe(true);
    // The XSRF token follows the new session (server/plugins/csrf.ts).
    expect(client.cookies.get(XSRF_COOKIE)).toBeTruthy();
    expect(client.cookies.get(XSRF_COOKIE)).not.toBe(thisXsrf);
    expect(await findSessionUser(t.deps.db, thisToken)).toBeNull();
    expect(await findSessionUser(t.deps.db, otherToken)).toBeNull();
    expect((await findSessionUser(t.deps.db, newToken))?.id).toBe(userId);
    // The new session works for the next unsafe call, with the new XSRF token.
    expect((await client.post("/api/user", {})).statusCode).toBe(200);
    const stolen = await post("/api/user", {}, { authorization: `Bearer ${thisToken}` });
    expect(stolen.statusCode).toBe(401);
    const notice = await smtp.waitForMessage(email, { subject: /password was changed/ });
    expect(notice.links.some((l) => l.endsWith("/forgotpassword"))).toBe(true);
    expect((await post("/api/signin", { email, password: "New#Chalk77" })).statusCode).toBe(200);
  });
});

describe("a bearer-token caller (the apps)", () => {
  async function bearerOf(email: string, password = STRONG) {
    const signin = await post("/api/signin", { email, password });
    expect(signin.statusCode).toBe(200);
    return signin.json().response.token as string;
  }

  it("is read whatever the case of the scheme's name (RFC 9110)", async () => {
    const token = await bearerOf(DEMO_EMAIL, DEMO_PASSWORD);
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      const me = await post("/api/user", {}, { authorization: `${scheme} ${token}` });
      expect(me.statusCode, scheme).toBe(200);
    }
    expect((await post("/api/user", {}, { authorization: `bearer\t${token}` })).statusCode).toBe(
      200,
    );
    for (const header of [`Bearer${token}`, "Bearer ", `Basic ${token}`, `Token ${token}`]) {
      expect((await post("/api/user", {}, { authorization: header })).statusCode, header).toBe(401);
    }
  });

  it("gets the new token in the answer to a password change; the old one and others end", async () => {
    const email = newEmail("bearer-change");
    const { response: account } = await register(email);
    const token = await bearerOf(email);
    const other = await bearerOf(email);
    const changed = await post(
      "/api/change_password",
      {
        user_id: account.user_id,
        old_password: STRONG,
        new_password: "New#Chalk77",
        new_password_confirmation: "New#Chalk77",
      },
      { authorization: `bearer ${token}` },
    );
    expect(changed.statusCode).toBe(200);
    const body = changed.json();
    expect(body).toEqual({ status: "true", message: M.passwordChanged, token: expect.any(String) });
    expect(body.token).not.toBe(token);
    expect(changed.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    for (const old of [token, other]) {
      expect((await post("/api/user", {}, { authorization: `Bearer ${old}` })).statusCode).toBe(
        401,
      );
    }
    const me = await post("/api/user", {}, { authorization: `Bearer ${body.token}` });
    expect(me.statusCode).toBe(200);
  });
});

describe("unconfirmed accounts (docs/decisions/0013-unconfirmed-accounts.md)", () => {
  it("may sign in and read, but requireConfirmedUser refuses them until the link is used", async () => {
    const email = newEmail("unconfirmed");
    await register(email);
    const mail = await smtp.waitForMessage(email, { subject: /Confirm/ });
    const signin = await post("/api/signin", { email, password: STRONG });
    expect(signin.statusCode).toBe(200);
    expect(signin.json().response.email_verified).toBe(false);
    const token = signin.json().response.token as string;

    const page = await t.app.inject({
      method: "POST",
      url: "/api/home",
      payload: {},
      headers: { authorization: `Bearer ${token}` },
    });
    expect(page.statusCode).toBe(200);

    const before = await findSessionUser(t.deps.db, token);
    expect(() => requireConfirmedUser(before)).toThrow(CONFIRM_EMAIL_FIRST);
    try {
      requireConfirmedUser(before);
    } catch (error) {
      expect(error).toBeInstanceOf(ForbiddenError);
      expect((error as ForbiddenError).kind).toBe("forbidden");
    }
    expect(() => requireConfirmedUser(null)).toThrow(UnauthenticatedError);

    await post("/api/verify", { confirmation_code: codeFrom(mail.links[0]!, "/confirm/") });
    const after = await findSessionUser(t.deps.db, token);
    expect(requireConfirmedUser(after, after!.id).id).toBe(after!.id);
    expect(() => requireConfirmedUser(after, after!.id + 1)).toThrow(ForbiddenError);
  });

  it("cannot publish a comment through the API before confirming", async () => {
    const email = newEmail("nocomment");
    await register(email);
    const signin = await post("/api/signin", { email, password: STRONG });
    const { token, user_id } = signin.json().response;
    const post_ = await t.deps.db
      .selectFrom("posts")
      .select(["id", "post_type"])
      .where("status", "=", "active")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const response = await t.app.inject({
      method: "POST",
      url: "/api/product_add_comment",
      payload: {
        user_id,
        post_id: post_.id,
        post_type: post_.post_type,
        comment_id: "",
        comment_text: "Hello",
      },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(CONFIRM_EMAIL_FIRST);
  });
});
