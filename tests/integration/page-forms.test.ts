import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_MESSAGES } from "../../core/people/accounts/schema.ts";
import { hashPassword } from "../../core/auth/password.ts";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

// Sign-in and sign-out as forms posted without JavaScript, and the CSRF plugin's `_csrf` field.

const PASSWORD = "Form#Post42";

let t: TestApp;
let email: string;

beforeAll(async () => {
  t = await createTestApp({ pages: true, seed: "none" });
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

/** The attributes of every <form> of a page, and of the hidden _csrf inputs inside each. */
function forms(html: string) {
  return [...html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)].map(([, attributes, inner]) => {
    const attribute = (name: string) =>
      new RegExp(`\\s${name}="([^"]*)"`).exec(attributes!)?.[1] ?? null;
    return {
      method: attribute("method"),
      action: attribute("action"),
      hidden: attribute("hidden") !== null,
      csrf:
        /name="_csrf"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="_csrf"/
          .exec(inner!)
          ?.slice(1)
          .find(Boolean) ?? null,
    };
  });
}

/** A browser without JavaScript: it keeps cookies but sends no X-XSRF-TOKEN header. */
class FormBrowser extends TestClient {
  /** Opens a page first, as a visitor would; a page with a form sets the XSRF cookie. */
  async open(url: string) {
    const response = await this.get(url);
    expect(response.statusCode).toBe(200);
    return response;
  }

  postForm(url: string, fields: Record<string, string>) {
    return this.request({
      method: "POST",
      url,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams(fields).toString(),
      xsrf: false,
    });
  }

  get xsrf() {
    return this.cookies.get(XSRF_COOKIE) ?? "";
  }
}

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
