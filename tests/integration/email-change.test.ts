import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../core/auth/password.ts";
import { hashToken } from "../../core/auth/sessions.ts";
import {
  ACCOUNT_MESSAGES as M,
  emailChangeSentMessage,
} from "../../core/people/accounts/schema.ts";
import { EMAIL_CHANGE_LINK_TTL_MS } from "../../core/people/accounts/service.ts";
import { sendMailJob } from "../../core/mail/queue.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { TestClient } from "../helpers/session.ts";
import { smtpMailer, startSmtpCapture, type SmtpCapture } from "../helpers/smtp.ts";

/*
 * A member changes their own email address (docs/decisions/0083-mail-delivery.md, amended): a
 * link goes to the new address through the real mail job and SMTP server; the address changes
 * only when the link is used, and the old address is told.
 */

const PASSWORD = "Chalk#Board42";

let smtp: SmtpCapture;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({ seed: "none", jobs: true, pages: true, mailer: smtpMailer(smtp) });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

let counter = 0;
function address(label: string) {
  return `${label}-${++counter}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** A member with a password (unless `password: false`), signed in through a browser-like client. */
async function member(options: { password?: boolean; confirmed?: boolean } = {}) {
  const email = address("member");
  const row = await t.deps.db
    .insertInto("users")
    .values({
      name: "Changing Member",
      email,
      password_hash: options.password === false ? null : await hashPassword(PASSWORD),
      user_type: "Teacher",
      email_verified_at: options.confirmed === false ? null : new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, row.id);
  return { id: row.id, email, client };
}

function accountOf(id: number) {
  return t.deps.db
    .selectFrom("users")
    .select(["email", "email_verified_at"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

function changeTokensOf(id: number) {
  return t.deps.db
    .selectFrom("email_tokens")
    .select(["token_hash", "new_email", "expires_at", "used_at", "created_at"])
    .where("user_id", "=", id)
    .where("purpose", "=", "email_change")
    .orderBy("id")
    .execute();
}

function sessionsOf(id: number) {
  return t.deps.db.selectFrom("sessions").select("id").where("user_id", "=", id).execute();
}

/** The code of the newest link mailed to `to`, from the captured mail. */
async function mailedCode(to: string) {
  const mail = await smtp.waitForMessage(to, {
    subject: /Confirm your new .* email address/,
    timeoutMs: 30_000,
  });
  const link = mail.links.find((href) => href.includes("/confirm-email-change?token="));
  expect(link).toBeDefined();
  return { mail, link: link!, code: new URL(link!).searchParams.get("token")! };
}

function signIn(email: string, password = PASSWORD) {
  return t.app.inject({ method: "POST", url: "/api/signin", payload: { email, password } });
}

function confirm(code: string) {
  return new TestClient(t.app).post("/api/confirm_email_change", { token: code });
}

describe("POST /api/email_change, then the mailed link", () => {
  it("changes the address only when the link is used: sign-in moves, sessions stay, the old address is told", async () => {
    const { id, email: old, client } = await member({ confirmed: false });
    const otherDevice = new TestClient(t.app);
    await otherDevice.signInAs(t.deps.db, id);
    const next = address("new");

    const asked = await client.post("/api/email_change", { email: next, password: PASSWORD });
    expect(asked.statusCode).toBe(200);
    expect(asked.json()).toEqual({ status: "true", message: emailChangeSentMessage(next) });
    expect((await accountOf(id)).email).toBe(old);

    const { mail, link, code } = await mailedCode(next);
    expect(mail.to).toEqual([next]);
    expect(mail.text).toContain(next);
    // Only the code's hash is kept, with the address it confirms, for 24 hours.
    const [stored] = await changeTokensOf(id);
    expect(stored!.token_hash).toBe(hashToken(code));
    expect(stored!.token_hash).not.toContain(code);
    expect(stored!.new_email).toBe(next);
    expect(stored!.expires_at.getTime() - stored!.created_at.getTime()).toBeGreaterThan(
      EMAIL_CHANGE_LINK_TTL_MS - 60_000,
    );
    expect(stored!.expires_at.getTime() - stored!.created_at.getTime()).toBeLessThanOrEqual(
      EMAIL_CHANGE_LINK_TTL_MS + 60_000,
    );

    // Opening the link (as a mail scanner would) only asks.
    const page = await new TestClient(t.app).get(new URL(link).pathname + new URL(link).search);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(next);
    expect(page.body).toContain("Use this address");
    expect((await accountOf(id)).email).toBe(old);

    const sessionsBefore = (await sessionsOf(id)).length;
    const confirmed = await confirm(code);
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ status: "true", message: M.emailChanged, email: next });
    const account = await accountOf(id);
    expect(account.email).toBe(next);
    expect(account.email_verified_at).not.toBeNull();
    expect((await sessionsOf(id)).length).toBe(sessionsBefore);
    expect((await otherDevice.post("/api/user", {})).statusCode).toBe(200);
    expect((await client.post("/api/user", {})).statusCode).toBe(200);

    const notice = await smtp.waitForMessage(old, {
      subject: /Your email address was changed/,
      timeoutMs: 30_000,
    });
    expect(notice.text).toContain(next);

    expect((await signIn(next)).statusCode).toBe(200);
    expect((await signIn(old)).statusCode).toBe(401);

    // The link works once.
    const again = await confirm(code);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(M.emailChangeLinkUsed);
  });

  it("refuses a wrong or missing password with 422 and stores and mails nothing", async () => {
    const { id, email, client } = await member();
    const next = address("wrong-password");
    const wrong = await client.post("/api/email_change", {
      email: next,
      password: "Not#ThePassword1",
    });
    expect(wrong.statusCode).toBe(422);
    expect(JSON.stringify(wrong.json())).toContain(M.emailChangePasswordWrong);
    const missing = await client.post("/api/email_change", { email: next });
    expect(missing.statusCode).toBe(422);
    expect(JSON.stringify(missing.json())).toContain(M.emailChangePasswordRequired);
    expect(await changeTokensOf(id)).toEqual([]);
    expect((await accountOf(id)).email).toBe(email);
    // A request that goes through afterwards is mailed; once every mail job is done, none went
    // to the refused address.
    const later = address("after-refusal");
    await client.post("/api/email_change", { email: later, password: PASSWORD });
    await mailedCode(later);
    await waitForJobs(t.jobs, { kind: sendMailJob });
    expect(smtp.messages.filter((m) => m.to.includes(next))).toEqual([]);
  });

  it("asks an account without a password (Google or Facebook only) for the link alone", async () => {
    const { id, client } = await member({ password: false });
    const next = address("social");
    const asked = await client.post("/api/email_change", { email: next });
    expect(asked.statusCode).toBe(200);
    const { code } = await mailedCode(next);
    expect((await confirm(code)).statusCode).toBe(200);
    expect((await accountOf(id)).email).toBe(next);
  });

  it("needs a session, and never changes another member's address", async () => {
    const anonymous = await t.app.inject({
      method: "POST",
      url: "/api/email_change",
      payload: { email: address("nobody"), password: PASSWORD },
    });
    expect(anonymous.statusCode).toBe(401);

    const me = await member();
    const other = await member();
    const claimed = await me.client.post("/api/email_change", {
      email: address("claimed"),
      password: PASSWORD,
      user_id: other.id,
    });
    expect(claimed.statusCode).toBe(403);
    expect(await changeTokensOf(other.id)).toEqual([]);
    expect(await changeTokensOf(me.id)).toEqual([]);
  });

  it("refuses the member's own address, one another live account holds, a disposable one, and one that bounced", async () => {
    const { id, email, client } = await member();
    const same = await client.post("/api/email_change", {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(same.statusCode).toBe(422);
    expect(JSON.stringify(same.json())).toContain(M.emailChangeSame);

    const holder = await member();
    const taken = await client.post("/api/email_change", {
      email: holder.email.toUpperCase(),
      password: PASSWORD,
    });
    expect(taken.statusCode).toBe(422);
    expect(JSON.stringify(taken.json())).toContain(M.emailTaken);

    // Sign-up's rule holds here too: no account moves to a throwaway address (record 0085).
    const throwaway = await client.post("/api/email_change", {
      email: "someone@mail.mailinator.com",
      password: PASSWORD,
    });
    expect(throwaway.statusCode).toBe(422);
    expect(JSON.stringify(throwaway.json())).toContain(M.emailChangeDisposable);

    // An address marked undeliverable would get no link: the member hears so at once.
    const bouncing = address("bouncing");
    await t.deps.db
      .insertInto("undeliverable_addresses")
      .values({ address: bouncing, reason: "550 5.1.1 No such user here", failed_at: new Date() })
      .execute();
    const refused = await client.post("/api/email_change", {
      email: bouncing,
      password: PASSWORD,
    });
    expect(refused.statusCode).toBe(422);
    expect(JSON.stringify(refused.json())).toContain(M.emailChangeUndeliverable);
    expect(await changeTokensOf(id)).toEqual([]);
  });

  it("refuses at the link an address another account took meanwhile, and changes nothing", async () => {
    const { id, email, client } = await member();
    const next = address("contested");
    expect(
      (await client.post("/api/email_change", { email: next, password: PASSWORD })).statusCode,
    ).toBe(200);
    const { code } = await mailedCode(next);
    const signup = await t.app.inject({
      method: "POST",
      url: "/api/signup",
      payload: { name: "Quick Taker", email: next, password: PASSWORD },
    });
    expect(signup.statusCode).toBe(201);

    const refused = await confirm(code);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(M.emailChangeTaken);
    expect((await accountOf(id)).email).toBe(email);
  });

  it("refuses an expired link, an unknown one, and an older link once a newer one was sent", async () => {
    const { id, email, client } = await member();
    const first = address("first");
    await client.post("/api/email_change", { email: first, password: PASSWORD });
    const older = await mailedCode(first);
    const second = address("second");
    await client.post("/api/email_change", { email: second, password: PASSWORD });
    const newer = await mailedCode(second);

    const retired = await confirm(older.code);
    expect(retired.statusCode).toBe(400);
    expect((await accountOf(id)).email).toBe(email);

    await t.deps.db
      .updateTable("email_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("token_hash", "=", hashToken(newer.code))
      .execute();
    const expired = await confirm(newer.code);
    expect(expired.statusCode).toBe(400);
    expect(expired.json().message).toBe(M.emailChangeLinkInvalid);
    const unknown = await confirm("not-a-code-we-ever-sent");
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(M.emailChangeLinkInvalid);
    expect((await accountOf(id)).email).toBe(email);

    const page = await new TestClient(t.app).get(
      `/confirm-email-change?token=${encodeURIComponent(newer.code)}`,
    );
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(M.emailChangeLinkInvalid);
    expect(page.body).not.toContain("Use this address");
  });

  it("ends My Account's undeliverable banner at once", async () => {
    const { id, email, client } = await member();
    await t.deps.db
      .insertInto("undeliverable_addresses")
      .values({ address: email, reason: "550 5.1.1 No such user here", failed_at: new Date() })
      .execute();
    expect((await client.get("/user/profile")).body).toMatch(/mail-delivery-banner/);

    const next = address("deliverable");
    await client.post("/api/email_change", { email: next, password: PASSWORD });
    const { code } = await mailedCode(next);
    expect((await confirm(code)).statusCode).toBe(200);
    expect((await accountOf(id)).email).toBe(next);
    expect((await client.get("/user/profile")).body).not.toMatch(/mail-delivery-banner/);
  });
});

describe("without JavaScript", () => {
  it("asks for the current password only of an account that has one", async () => {
    for (const password of [true, false]) {
      const { id } = await member({ password });
      const browser = new FormBrowser(t.app);
      await browser.signInAs(t.deps.db, id);
      const page = await browser.open("/user/profile-edit");
      const form = /<form[^>]*aria-label="Change email address"[\s\S]*?<\/form>/.exec(
        page.body,
      )?.[0];
      expect(form).toContain('name="email"');
      if (password) expect(form).toContain('id="change-email-password"');
      else {
        expect(form).not.toContain('id="change-email-password"');
        expect(form).toContain("You sign in with Google or Facebook");
      }
    }
  });

  it("Edit profile's form mails the link; the link's page changes the address with its button", async () => {
    const { id, email } = await member();
    const browser = new FormBrowser(t.app);
    await browser.signInAs(t.deps.db, id);
    const page = await browser.open("/user/profile-edit");
    expect(page.body).toMatch(/<form[^>]*aria-label="Change email address"/);
    expect(page.body).toContain('name="intent" value="email"');
    expect(page.body).toContain('id="change-email-email"');

    const next = address("posted");
    const wrong = await browser.postForm("/user/profile-edit", {
      _csrf: browser.xsrf,
      intent: "email",
      email: next,
      password: "Not#ThePassword1",
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain(M.emailChangePasswordWrong);
    expect(wrong.body).not.toContain("Not#ThePassword1");
    expect(await changeTokensOf(id)).toEqual([]);

    const sent = await browser.postForm("/user/profile-edit", {
      _csrf: browser.xsrf,
      intent: "email",
      email: next,
      password: PASSWORD,
      // Never trusted: the session's user is the one who changes.
      user_id: "1",
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain(emailChangeSentMessage(next));
    // The page says which address the link waits for, until it is used.
    expect((await browser.open("/user/profile-edit")).body).toMatch(
      new RegExp(`A link we sent to <strong>${next.replace(/[.]/g, "\\.")}</strong> is waiting`),
    );
    expect(sent.body).not.toContain(PASSWORD);
    expect((await accountOf(id)).email).toBe(email);

    const { link } = await mailedCode(next);
    const url = new URL(link);
    const visitor = new FormBrowser(t.app);
    const confirmPage = await visitor.open(url.pathname + url.search);
    expect(confirmPage.headers["cache-control"]).toMatch(/private, no-store/);
    const [form] = forms(confirmPage.body).filter((f) => f.method === "post");
    expect(form?.csrf).toBe(visitor.xsrf);
    const action = form!.action!.replace(/&amp;/g, "&");
    expect(action.startsWith("/confirm-email-change")).toBe(true);
    const token = /name="token"[^>]*value="([^"]*)"/.exec(confirmPage.body)?.[1];
    expect(token).toBe(url.searchParams.get("token"));

    const done = await visitor.postForm(action, { _csrf: visitor.xsrf, token: token! });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain(M.emailChanged);
    expect((await accountOf(id)).email).toBe(next);
    expect((await browser.open("/user/profile-edit")).body).not.toContain("A link we sent to");

    const usedAgain = await visitor.postForm(action, { _csrf: visitor.xsrf, token: token! });
    expect(usedAgain.statusCode).toBe(400);
    expect(usedAgain.body).toContain(M.emailChangeLinkUsed);
  });
});
