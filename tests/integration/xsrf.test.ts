import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../core/auth/password.ts";
import { readOrMakeSiteSecret } from "../../core/auth/site-secrets.ts";
import { XSRF_SECRET_NAME, makeXsrfToken } from "../../core/auth/xsrf.ts";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

// Anonymous pages set no cookie; the XSRF cookie comes with forms and sessions, signed and bound to
// the session (server/plugins/csrf.ts, docs/decisions/0048-cookieless-anonymous-pages.md).

const PASSWORD = "Xsrf#Bound42";
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{24}\.[A-Za-z0-9_-]{43}$/;
const REFUSED = "Missing or invalid XSRF token. Reload the page and try again.";

let t: TestApp;
let emails: string[];

async function member(name: string, passwordHash: string): Promise<string> {
  const id = await createTestUser(t.deps.db, { name });
  const row = await t.deps.db
    .updateTable("users")
    .set({ password_hash: passwordHash })
    .where("id", "=", id)
    .returning("email")
    .executeTakeFirstOrThrow();
  return row.email;
}

// The demo data (for a deal and a store page) and the production build take a while to load.
beforeAll(async () => {
  t = await createTestApp({ pages: true });
  const passwordHash = await hashPassword(PASSWORD);
  emails = [await member("Xsrf One", passwordHash), await member("Xsrf Two", passwordHash)];
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** A browser with JavaScript, signed in through the API on a first visit (no cookie before). */
async function signedIn(email: string) {
  const browser = new TestClient(t.app);
  const response = await browser.post("/api/signin", { email, password: PASSWORD });
  expect(response.statusCode).toBe(200);
  return { browser, response };
}

function cookieOf<C extends { name: string }>(response: { cookies: C[] }, name: string) {
  return response.cookies.find((c) => c.name === name);
}

function postLoginForm(fields: Record<string, string>, cookies: Record<string, string>) {
  return t.app.inject({
    method: "POST",
    url: "/login",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    cookies,
    payload: new URLSearchParams(fields).toString(),
  });
}

describe("anonymous visitors", () => {
  it("get no cookie from public pages and API reads, which a shared cache may keep", async () => {
    const deal = await t.deps.db
      .selectFrom("posts")
      .select(["unique_id", "slug"])
      .where("status", "=", "active")
      .where("post_type", "=", "d")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const store = await t.deps.db
      .selectFrom("stores")
      .select("slug")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    for (const url of [
      "/",
      `/post/${deal.unique_id}/${deal.slug}`,
      "/newdeals",
      `/store/${store.slug}`,
      "/api/social",
      "/api/general_settings",
    ]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["set-cookie"], url).toBeUndefined();
      expect(response.headers["cache-control"], url).toMatch(/^public/);
    }
  });

  it("get a signed token from the login page, whose form carries it and which is private", async () => {
    const page = await t.app.inject({ method: "GET", url: "/login" });
    const cookie = cookieOf(page, XSRF_COOKIE);
    expect(cookie?.value).toMatch(TOKEN_SHAPE);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.httpOnly).toBeUndefined();
    expect(page.body).toContain(`name="_csrf" value="${cookie!.value}"`);
    expect(page.headers["cache-control"]).toMatch(/^private/);
    // A browser that already holds a valid token keeps it: the page sets nothing new.
    const again = await t.app.inject({
      method: "GET",
      url: "/login",
      cookies: { [XSRF_COOKIE]: cookie!.value },
    });
    expect(again.headers["set-cookie"]).toBeUndefined();
    expect(again.body).toContain(`name="_csrf" value="${cookie!.value}"`);
  });

  it("post the login form only with the page's token", async () => {
    const page = await t.app.inject({ method: "GET", url: "/login" });
    const token = cookieOf(page, XSRF_COOKIE)!.value;
    const fields = { email: emails[0]!, password: PASSWORD };
    const without = await postLoginForm(fields, { [XSRF_COOKIE]: token });
    expect(without.statusCode).toBe(403);
    expect(without.body).toBe(REFUSED);
    // A token of the right shape that this site did not sign, planted as cookie and field.
    const forged = `${"a".repeat(24)}.${"b".repeat(43)}`;
    const planted = await postLoginForm({ ...fields, _csrf: forged }, { [XSRF_COOKIE]: forged });
    expect(planted.statusCode).toBe(403);
    expect(cookieOf(planted, SESSION_COOKIE)).toBeUndefined();

    const signed = await postLoginForm({ ...fields, _csrf: token }, { [XSRF_COOKIE]: token });
    expect(signed.statusCode).toBe(200);
    expect(signed.body).toContain("Successfully Login");
    // Sign-in sets both cookies; the new token is bound to the new session, not the visitor's.
    const session = cookieOf(signed, SESSION_COOKIE);
    const bound = cookieOf(signed, XSRF_COOKIE);
    expect(session?.value).toBeTruthy();
    expect(bound?.value).toMatch(TOKEN_SHAPE);
    expect(bound?.value).not.toBe(token);
    expect(bound?.maxAge).toBe(session?.maxAge);
  });

  it("call the JSON API without any cookie: unsafe calls without a session are exempt", async () => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email: emails[0], password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(cookieOf(response, SESSION_COOKIE)?.value).toBeTruthy();
    expect(cookieOf(response, XSRF_COOKIE)?.value).toMatch(TOKEN_SHAPE);
  });
});

describe("signed-in members", () => {
  it("hold a token bound to their session, which their calls echo", async () => {
    const { browser } = await signedIn(emails[0]!);
    expect(browser.cookies.get(XSRF_COOKIE)).toMatch(TOKEN_SHAPE);
    expect((await browser.post("/api/user", {})).statusCode).toBe(200);
    const noHeader = await browser.post("/api/user", {}, { xsrf: false });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json()).toEqual({ status: false, message: REFUSED });
  });

  it("cannot use a token bound to another session", async () => {
    const one = (await signedIn(emails[0]!)).browser;
    const two = (await signedIn(emails[1]!)).browser;
    const othersToken = one.cookies.get(XSRF_COOKIE)!;
    const session = two.cookies.get(SESSION_COOKIE)!;
    const call = await t.app.inject({
      method: "POST",
      url: "/api/user",
      cookies: { [SESSION_COOKIE]: session, [XSRF_COOKIE]: othersToken },
      headers: { "x-xsrf-token": othersToken },
      payload: {},
    });
    expect(call.statusCode).toBe(403);
    const logout = await t.app.inject({
      method: "POST",
      url: "/logout",
      cookies: { [SESSION_COOKIE]: session, [XSRF_COOKIE]: othersToken },
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ _csrf: othersToken }).toString(),
    });
    expect(logout.statusCode).toBe(403);
    // The session is still there.
    expect((await two.post("/api/user", {})).statusCode).toBe(200);
  });

  it("refuse a planted cookie and header pair that is not bound to their session", async () => {
    const { browser } = await signedIn(emails[1]!);
    const session = browser.cookies.get(SESSION_COOKIE)!;
    // A visitor's genuine token (anyone can get one from the login page), and one the site never made.
    const page = await t.app.inject({ method: "GET", url: "/login" });
    const visitorToken = cookieOf(page, XSRF_COOKIE)!.value;
    for (const planted of [visitorToken, "planted-by-a-sibling-subdomain-0123"]) {
      const call = await t.app.inject({
        method: "POST",
        url: "/api/change_password",
        cookies: { [SESSION_COOKIE]: session, [XSRF_COOKIE]: planted },
        headers: { "x-xsrf-token": planted },
        payload: {
          old_password: PASSWORD,
          new_password: "Changed#99x",
          new_password_confirmation: "Changed#99x",
        },
      });
      expect(call.statusCode, planted).toBe(403);
      // The refusal hands the browser a genuine token bound to its session in place of the planted one.
      const replaced = cookieOf(call, XSRF_COOKIE)?.value;
      expect(replaced).toMatch(TOKEN_SHAPE);
      expect(replaced).not.toBe(planted);
    }
  });

  it("get the cookie on any answer when theirs is missing, and pages carry it", async () => {
    const { browser } = await signedIn(emails[0]!);
    const session = browser.cookies.get(SESSION_COOKIE)!;
    const read = await t.app.inject({
      method: "GET",
      url: "/api/social",
      cookies: { [SESSION_COOKIE]: session },
    });
    const token = cookieOf(read, XSRF_COOKIE)?.value;
    expect(token).toMatch(TOKEN_SHAPE);
    const home = await t.app.inject({
      method: "GET",
      url: "/",
      cookies: { [SESSION_COOKIE]: session, [XSRF_COOKIE]: token! },
    });
    expect(home.headers["set-cookie"]).toBeUndefined();
    expect(home.headers["cache-control"]).toMatch(/^private/);
    expect(home.body).toContain(`name="_csrf" value="${token}"`);
  });

  it("lose the cookie at logout, and the next page sets none", async () => {
    const { browser } = await signedIn(emails[0]!);
    const out = await browser.post("/api/logout");
    expect(out.statusCode).toBe(200);
    expect(cookieOf(out, XSRF_COOKIE)?.value).toBe("");
    expect(browser.cookies.has(XSRF_COOKIE)).toBe(false);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    const home = await browser.get("/");
    expect(home.headers["set-cookie"]).toBeUndefined();
  });

  it("whose session has ended pass the XSRF check and are told to sign in (401, not 403)", async () => {
    // The browser still sends the ended session's cookie and the token bound to it.
    const secret = await readOrMakeSiteSecret(t.deps.db, XSRF_SECRET_NAME);
    const ended = "an-ended-session-token-0123456789";
    const token = makeXsrfToken(secret, ended);
    const call = await t.app.inject({
      method: "POST",
      url: "/api/user",
      cookies: { [SESSION_COOKIE]: ended, [XSRF_COOKIE]: token },
      headers: { "x-xsrf-token": token },
      payload: {},
    });
    expect(call.statusCode).toBe(401);
    // Both cookies are removed with the ended session.
    expect(cookieOf(call, SESSION_COOKIE)?.value).toBe("");
    expect(cookieOf(call, XSRF_COOKIE)?.value).toBe("");
  });
});
