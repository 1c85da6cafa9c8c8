import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "../../core/people/accounts/schema.ts";
import type { MailMessage } from "../../core/mail/mailer.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { CONTACT_MESSAGES, SESSION_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { createTestUser } from "../helpers/users.ts";

// Sign-in, sign-out and the form kit's forms (docs/decisions/0079) posted without JavaScript, and
// the CSRF plugin's `_csrf` field.

const PASSWORD = "Form#Post42";

let t: TestApp;
let email: string;
const mails: MailMessage[] = [];

beforeAll(async () => {
  t = await createTestApp({
    pages: true,
    seed: "none",
    jobs: true,
    mailer: { send: async (message) => void mails.push(message) },
  });
  const id = await createTestUser(t.deps.db, { name: "Form Poster" });
  const row = await t.deps.db
    .updateTable("users")
    .set({ password_hash: await hashPassword(PASSWORD) })
    .where("id", "=", id)
    .returning("email")
    .executeTakeFirstOrThrow();
  email = row.email;
});
afterAll(async () => {
  await t?.close();
});

describe("the login page's form, posted without JavaScript", () => {
  it("carries the XSRF token in a hidden _csrf field and is never cached for others", async () => {
    const browser = new FormBrowser(t.app);
    const page = await browser.open("/login");
    expect(browser.xsrf).toMatch(/^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{43}$/);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: "/login",
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.headers["cache-control"]).toBe("private, no-store");
  });

  it("signs in: the session cookie, 'Successfully Login' and home after 3 s", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/login");
    const response = await browser.postForm("/login", {
      _csrf: browser.xsrf,
      email,
      password: PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Successfully Login");
    expect(response.body).toMatch(/<meta http-equiv="refresh" content="3;url=\/"/);
    const session = response.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(session?.value).toMatch(/.{20,}/);
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe("Lax");

    const home = await browser.get("/");
    expect(home.body).toContain("My Account");
    expect(home.body).not.toContain(">Login<");
  });

  it("shows the schema's messages and the server's failure on the page", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/login");
    const empty = await browser.postForm("/login", {
      _csrf: browser.xsrf,
      email: "",
      password: "",
    });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain("Email is required !");
    expect(empty.body).toContain("Password is required !");
    expect(empty.body).toMatch(/id="email"[^>]*aria-invalid="true"/);

    const wrong = await browser.postForm("/login", {
      _csrf: browser.xsrf,
      email,
      password: "Not#ThePassword1",
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain("These credentials do not match our records.");
    expect(wrong.body).toContain(`value="${email}"`);
    expect(wrong.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it("accepts the token from a multipart form too", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/login");
    const { payload, headers } = await multipartBody({
      _csrf: browser.xsrf,
      email,
      password: PASSWORD,
    });
    const response = await browser.request({
      method: "POST",
      url: "/login",
      headers,
      payload,
      xsrf: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Successfully Login");
  });

  it("refuses a forged, missing or cookie-less token with 403 and signs nobody in", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/login");
    const attempts: Record<string, string>[] = [
      { _csrf: "forged-token-0123456789abcdef", email, password: PASSWORD },
      { email, password: PASSWORD },
      { _csrf: "", email, password: PASSWORD },
    ];
    for (const fields of attempts) {
      const response = await browser.postForm("/login", fields);
      expect(response.statusCode).toBe(403);
      expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
    }
    // A post from another site carries no XSRF cookie at all (login CSRF).
    const stranger = await t.app.inject({
      method: "POST",
      url: "/login",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ _csrf: browser.xsrf, email, password: PASSWORD }).toString(),
    });
    expect(stranger.statusCode).toBe(403);
  });
});

const CONTACT = {
  name: "Dana Teacher",
  category: "deal-issue",
  subject: "A form without scripts",
  email: "dana-form@example.org",
  mobile: "555 123 4567",
  website: "",
  message: "Sent by a browser with JavaScript off.",
};

describe("the Contact Us form, posted without JavaScript", () => {
  it("posts to the page with the token, and the page is never cached for others", async () => {
    const browser = new FormBrowser(t.app);
    const page = await browser.open("/contact");
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: "/contact",
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.headers["cache-control"]).toBe("private, no-store");
  });

  it("stores the message and shows the spec's message, like POST /api/contact_us", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/contact");
    const response = await browser.postForm("/contact", { _csrf: browser.xsrf, ...CONTACT });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(CONTACT_MESSAGES.success);
    const stored = await t.deps.db
      .selectFrom("contact_messages")
      .select(["name", "mobile", "user_id"])
      .where("email", "=", CONTACT.email)
      .execute();
    expect(stored).toEqual([{ name: CONTACT.name, mobile: "5551234567", user_id: null }]);
  });

  it("answers a bad form with 422, its field messages and the values, and stores nothing", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/contact");
    const email = "not-an-address";
    const response = await browser.postForm("/contact", {
      _csrf: browser.xsrf,
      ...CONTACT,
      name: "",
      email,
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(CONTACT_MESSAGES.required);
    expect(response.body).toContain("Name is required.");
    expect(response.body).toMatch(/id="contact-name"[^>]*aria-invalid="true"/);
    expect(response.body).toContain(`value="${email}"`);
    const stored = await t.deps.db
      .selectFrom("contact_messages")
      .select("id")
      .where("email", "=", email)
      .execute();
    expect(stored).toEqual([]);
  });

  it("never answers 500 for odd bodies", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/contact");
    const response = await browser.postForm("/contact", {
      _csrf: browser.xsrf,
      ...CONTACT,
      category: "no-such-category",
      subject: "\u0000",
    });
    expect(response.statusCode).toBe(422);
  });

  it("refuses a post without the token", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/contact");
    expect((await browser.postForm("/contact", CONTACT)).statusCode).toBe(403);
  });
});

describe("the account forms, posted without JavaScript", () => {
  const NEW_PASSWORD = "Fresh#Chalk88";

  it("Register signs up, says so and goes to /verify after 3 s, keeping the return path", async () => {
    const browser = new FormBrowser(t.app);
    const page = await browser.open("/register?next=/contact");
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: "/register?next=%2Fcontact",
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.headers["cache-control"]).toBe("private, no-store");
    const address = `form-register-${Date.now()}@example.com`;
    const response = await browser.postForm("/register?next=%2Fcontact", {
      _csrf: browser.xsrf,
      name: "Rita Register",
      email: address,
      password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(ACCOUNT_MESSAGES.registered);
    expect(response.body).toContain('content="3;url=/verify?next=%2Fcontact"');
    const user = await t.deps.db
      .selectFrom("users")
      .select("name")
      .where("email", "=", address)
      .executeTakeFirst();
    expect(user).toEqual({ name: "Rita Register" });
  });

  it("Register answers a bad form with 422 and its field messages, never the password", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/register");
    const address = `form-mismatch-${Date.now()}@example.com`;
    const mismatch = await browser.postForm("/register", {
      _csrf: browser.xsrf,
      name: "Rita Register",
      email: address,
      password: NEW_PASSWORD,
      confirm_password: "Other#Chalk88",
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain(ACCOUNT_MESSAGES.confirmMismatch);
    expect(mismatch.body).toContain(`value="${address}"`);
    expect(mismatch.body).not.toContain(NEW_PASSWORD);
    const taken = await browser.postForm("/register", {
      _csrf: browser.xsrf,
      name: "Rita Again",
      email,
      password: NEW_PASSWORD,
      confirm_password: NEW_PASSWORD,
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.body).toMatch(/id="email"[^>]*aria-invalid="true"/);
    const users = await t.deps.db
      .selectFrom("users")
      .select("id")
      .where("email", "in", [address])
      .execute();
    expect(users).toEqual([]);
  });

  it("Check your email sends the link again, and checks the address", async () => {
    const browser = new FormBrowser(t.app);
    const page = await browser.open("/verify");
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: "/verify",
      hidden: false,
      csrf: browser.xsrf,
    });
    const empty = await browser.postForm("/verify", { _csrf: browser.xsrf, email: "" });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain("Email is required !");
    const sent = await browser.postForm("/verify", { _csrf: browser.xsrf, email });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain(ACCOUNT_MESSAGES.confirmationResent);
  });

  it("Forgot password mails the link, or says the spec's 'Email Id not found.'", async () => {
    const browser = new FormBrowser(t.app);
    await browser.open("/forgotpassword");
    const unknown = await browser.postForm("/forgotpassword", {
      _csrf: browser.xsrf,
      email: `nobody-${Date.now()}@example.com`,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain(ACCOUNT_MESSAGES.forgotNotFoundShown);
    const empty = await browser.postForm("/forgotpassword", { _csrf: browser.xsrf, email: "" });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain("Email is required !");

    const sent = await browser.postForm("/forgotpassword", { _csrf: browser.xsrf, email });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain(ACCOUNT_MESSAGES.forgotSent);
    expect(sent.body).toContain('content="3;url=/"');
  });

  it("Choose a new password resets it with the link's token and goes to /login", async () => {
    await waitForJobs(t.jobs);
    const before = mails.length;
    await t.services.accounts.forgotPassword({ email });
    await waitForJobs(t.jobs);
    // The newest link: asking again makes the links sent before unusable.
    const mail = mails
      .slice(before)
      .findLast((m) => m.to === email && /reset-password/.test(m.text));
    const token = /\/reset-password\/([^\s"<>]+)/.exec(mail!.text)![1]!;
    const browser = new FormBrowser(t.app);
    const path = `/reset-password/${token}`;
    await browser.open(path);
    const mismatch = await browser.postForm(path, {
      _csrf: browser.xsrf,
      password: NEW_PASSWORD,
      password_confirmation: "Other#Chalk88",
    });
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain(ACCOUNT_MESSAGES.confirmMismatch);

    const reset = await browser.postForm(path, {
      _csrf: browser.xsrf,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.body).toContain(ACCOUNT_MESSAGES.resetDone);
    expect(reset.body).toContain('content="3;url=/login"');
    const signin = await t.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email, password: NEW_PASSWORD },
    });
    expect(signin.statusCode).toBe(200);
    // The other tests sign in with the first password.
    await t.deps.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where("email", "=", email)
      .execute();
  });
});

describe("the Logout form", () => {
  async function signedIn() {
    const browser = new FormBrowser(t.app);
    await browser.open("/login");
    await browser.postForm("/login", { _csrf: browser.xsrf, email, password: PASSWORD });
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    return browser;
  }

  it("is on signed-in pages with the token, and posts to /logout", async () => {
    const browser = await signedIn();
    const home = await browser.get("/");
    expect(home.body).toMatch(/<a href="\/logout"[^>]*>Logout<\/a>/);
    expect(forms(home.body)).toContainEqual({
      method: "post",
      action: "/logout",
      hidden: true,
      csrf: browser.xsrf,
    });
    expect(home.headers["cache-control"]).toMatch(/^private/);
    // Anonymous pages, which may be cached, carry no token.
    expect((await t.app.inject({ method: "GET", url: "/" })).body).not.toContain('name="_csrf"');
  });

  it("ends the session, clears the cookie and goes home", async () => {
    const browser = await signedIn();
    const token = browser.cookies.get(SESSION_COOKIE)!;
    const response = await browser.postForm("/logout", { _csrf: browser.xsrf });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe("/");
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe("");
    // The old token no longer names a session.
    const reused = await t.app.inject({
      method: "POST",
      url: "/api/user",
      headers: { authorization: `Bearer ${token}` },
      payload: {},
    });
    expect(reused.statusCode).toBe(401);
  });

  it("refuses a forged or missing token and keeps the session", async () => {
    const browser = await signedIn();
    const attempts: Record<string, string>[] = [{ _csrf: "forged-token-0123456789abcdef" }, {}];
    for (const fields of attempts) {
      expect((await browser.postForm("/logout", fields)).statusCode).toBe(403);
    }
    expect((await browser.get("/")).body).toContain("My Account");
  });

  it("the /logout page itself offers the form", async () => {
    const browser = await signedIn();
    const page = await browser.get("/logout");
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: "/logout",
      hidden: false,
      csrf: browser.xsrf,
    });
  });
});

describe("the JSON API", () => {
  it("still wants the header: a _csrf field in the body does not do", async () => {
    const browser = await (async () => {
      const b = new FormBrowser(t.app);
      await b.open("/login");
      await b.postForm("/login", { _csrf: b.xsrf, email, password: PASSWORD });
      return b;
    })();
    const withField = await browser.request({
      method: "POST",
      url: "/api/user",
      payload: { _csrf: browser.xsrf },
      xsrf: false,
    });
    expect(withField.statusCode).toBe(403);
    const withHeader = await browser.post("/api/user", {});
    expect(withHeader.statusCode).toBe(200);
  });
});

describe("with rate limits on", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ pages: true, seed: "none", env: { RATE_LIMIT: "on" } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  // A different address each time: one address's guesses meet the per-account limit after five
  // (tests/integration/sign-in-limits.test.ts).
  const nobody = (attempt: number) => `nobody-${attempt}-${Date.now()}@example.com`;

  it("counts the login form's posts like the API's sign-in, and no other page", async () => {
    const browser = new FormBrowser(limited.app);
    await browser.open("/login");
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      const response = await browser.postForm("/login", {
        _csrf: browser.xsrf,
        email: nobody(attempt),
        password: "Wrong#Pass99",
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses[10]).toBe(429);
    for (let visit = 0; visit < 12; visit++) {
      expect((await browser.get("/login")).statusCode).toBe(200);
    }
  });

  it("shares one count per address between the form and POST /api/signin", async () => {
    const remoteAddress = "198.51.100.77";
    const browser = new FormBrowser(limited.app);
    await browser.request({ method: "GET", url: "/login", remoteAddress });
    const form = (attempt: number) =>
      browser.request({
        method: "POST",
        url: "/login",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          _csrf: browser.xsrf,
          email: nobody(attempt),
          password: "Wrong#Pass99",
        }).toString(),
        xsrf: false,
        remoteAddress,
      });
    const api = (attempt: number) =>
      limited.app.inject({
        method: "POST",
        url: "/api/signin",
        payload: { email: nobody(attempt), password: "Wrong#Pass99" },
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push((await (attempt % 2 ? api(attempt) : form(attempt))).statusCode);
    }
    expect(statuses).toEqual(Array(10).fill(401));
    // Ten in all: both doors now refuse this address.
    const apiRefused = await api(10);
    expect(apiRefused.statusCode).toBe(429);
    expect(Number(apiRefused.headers["retry-after"])).toBeGreaterThan(0);
    expect((await form(11)).statusCode).toBe(429);
  });

  it("shares RATE_LIMITS.contact between the Contact Us form and POST /api/contact_us", async () => {
    const remoteAddress = "198.51.100.78";
    const browser = new FormBrowser(limited.app);
    await browser.request({ method: "GET", url: "/contact", remoteAddress });
    const form = () =>
      browser.request({
        method: "POST",
        url: "/contact",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ _csrf: browser.xsrf, ...CONTACT }).toString(),
        xsrf: false,
        remoteAddress,
      });
    const api = () =>
      limited.app.inject({
        method: "POST",
        url: "/api/contact_us",
        payload: CONTACT,
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await (attempt % 2 ? api() : form())).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect((await form()).statusCode).toBe(429);
    expect((await api()).statusCode).toBe(429);
    // Viewing the page is not counted.
    expect(
      (await browser.request({ method: "GET", url: "/contact", remoteAddress })).statusCode,
    ).toBe(200);
  });

  it("shares RATE_LIMITS.signup between the Register form and POST /api/signup", async () => {
    const remoteAddress = "198.51.100.79";
    const browser = new FormBrowser(limited.app);
    await browser.request({ method: "GET", url: "/register", remoteAddress });
    const fields = (attempt: number) => ({
      name: "Rita Register",
      email: `limited-${attempt}-${Date.now()}@example.com`,
      password: "Fresh#Chalk88",
    });
    const form = (attempt: number) =>
      browser.request({
        method: "POST",
        url: "/register",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          _csrf: browser.xsrf,
          ...fields(attempt),
          confirm_password: "Fresh#Chalk88",
        }).toString(),
        xsrf: false,
        remoteAddress,
      });
    const api = (attempt: number) =>
      limited.app.inject({
        method: "POST",
        url: "/api/signup",
        payload: fields(attempt),
        remoteAddress,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push((await (attempt % 2 ? api(attempt) : form(attempt))).statusCode);
    }
    expect(statuses).toEqual([200, 201, 200, 201, 200]);
    expect((await form(5)).statusCode).toBe(429);
    expect((await api(6)).statusCode).toBe(429);
  });

  it("refuses an account locked by failed sign-ins on the form, with the lock's message", async () => {
    const browser = new FormBrowser(limited.app);
    await browser.open("/login");
    const target = `locked-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const response = await browser.request({
        method: "POST",
        url: "/login",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          _csrf: browser.xsrf,
          email: target,
          password: "Wrong#Pass99",
        }).toString(),
        xsrf: false,
        remoteAddress: `198.51.100.${100 + attempt}`,
      });
      statuses.push(response.statusCode);
      if (attempt === 5) {
        expect(response.body).toContain(ACCOUNT_MESSAGES.signinLocked);
        expect(Number(response.headers["retry-after"])).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
