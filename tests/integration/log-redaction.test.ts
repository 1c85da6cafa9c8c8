import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import { alertMatchJob } from "../../core/member/alerts/jobs.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { waitForJobs } from "../helpers/jobs.ts";
import { startSmtpCapture, type SmtpCapture } from "../helpers/smtp.ts";
import { createTestUser } from "../helpers/users.ts";

/*
 * The log holds no secret (docs/decisions/0095-one-log-format.md). A member's whole journey runs
 * against the server listening on a port, pages and all, with its mail going to a real SMTP server
 * and every log line (at trace, the most there is) kept: sign-up, the confirmation link, a password
 * reset, sign-in, an instant alert's mail, its RSS feed, unsubscribing. Every secret the journey
 * meets (the addresses, both passwords, each mailed token, the session, the XSRF token, the feed's
 * token, an OAuth callback's code and state) is collected, and no line may hold one. Every line is
 * JSON, and every line of a request names it by the id the answer echoed.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const PASSWORD = "Chalk#Board42";
const NEW_PASSWORD = "Slate#Eraser77";

let smtp: SmtpCapture;
let t: TestApp;
let base: string;
const logLines: string[] = [];
/** Every secret the journey saw, to look for in the log. */
const secrets = new Set<string>([PASSWORD, NEW_PASSWORD]);
/** Each answer's X-Request-Id. */
const answeredIds: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpCapture();
  t = await createTestApp({
    jobs: true,
    pages: true,
    env: { SMTP_URL: smtp.url, LOG_LEVEL: "trace" },
    logStream: { write: (line) => void logLines.push(line) },
  });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A browser over HTTP: keeps its cookies, echoes the XSRF token on unsafe requests. */
class Browser {
  readonly cookies = new Map<string, string>();

  async fetch(
    pathAndQuery: string,
    init: { method?: string; json?: Json; form?: string; headers?: Record<string, string> } = {},
  ) {
    const method = init.method ?? (init.json || init.form !== undefined ? "POST" : "GET");
    const headers: Record<string, string> = { ...init.headers };
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    }
    if (method !== "GET" && this.cookies.has(XSRF_COOKIE)) {
      headers["x-xsrf-token"] = decodeURIComponent(this.cookies.get(XSRF_COOKIE)!);
    }
    let body: string | undefined;
    if (init.json) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(init.json);
    } else if (init.form !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = init.form;
    }
    const response = await fetch(`${base}${pathAndQuery}`, {
      method,
      headers,
      body,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const at = pair!.indexOf("=");
      const name = pair!.slice(0, at);
      const value = pair!.slice(at + 1);
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else {
        this.cookies.set(name, value);
        secrets.add(value);
        secrets.add(decodeURIComponent(value));
      }
    }
    const id = response.headers.get("x-request-id");
    expect(id, `${method} ${pathAndQuery} answered without X-Request-Id`).toBeTruthy();
    answeredIds.push(id!);
    const text = await response.text();
    return { status: response.status, text, id: id!, headers: response.headers };
  }

  async api(call: string, json: Json) {
    const answer = await this.fetch(`/api/${call}`, { json });
    return { ...answer, body: JSON.parse(answer.text) as Json };
  }
}

/** The path and query of a mailed link (it names PUBLIC_URL, not the test's port). */
function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

function lastSegment(link: string): string {
  return decodeURIComponent(new URL(link).pathname.split("/").pop()!);
}

function linkIn(mail: { links: string[] }, part: string): string {
  const link = mail.links.find((l) => l.includes(part));
  expect(link, `a link with ${part}`).toBeDefined();
  return link!;
}

describe("a member's journey", () => {
  const email = `Journey.Member+${Date.now()}@Example.com`;
  const browser = new Browser();

  it("signs up, confirms, resets the password, signs in, gets an alert mail and unsubscribes", async () => {
    secrets.add(email);
    secrets.add(email.toLowerCase());
    secrets.add(encodeURIComponent(email));

    // Sign-up, and the confirmation link: its page, then the code posted as the page does.
    await browser.fetch("/register");
    const signup = await browser.api("signup", {
      name: "Journey Member",
      email,
      password: PASSWORD,
    });
    expect(signup.status, signup.text).toBe(201);
    const confirm = await smtp.waitForMessage(email, { subject: /Confirm/ });
    const confirmLink = linkIn(confirm, "/confirm/");
    const code = lastSegment(confirmLink);
    secrets.add(code);
    expect((await browser.fetch(pathOf(confirmLink))).status).toBe(200);
    const verified = await browser.api("verify", { confirmation_code: code });
    expect(verified.status, verified.text).toBe(200);

    // A password reset: the form's page, then the new password.
    const forgot = await browser.api("forgot_password", { email });
    expect(forgot.status, forgot.text).toBe(200);
    const reset = await smtp.waitForMessage(email, { subject: /Reset/ });
    const resetLink = linkIn(reset, "/reset-password/");
    const resetToken = lastSegment(resetLink);
    secrets.add(resetToken);
    expect((await browser.fetch(pathOf(resetLink))).status).toBe(200);
    const changed = await browser.api("reset_password", {
      token: resetToken,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(changed.status, changed.text).toBe(200);

    // Sign-in: the session (cookie and token in the answer), then a page that sets the XSRF token.
    const signin = await browser.api("signin", { email, password: NEW_PASSWORD });
    expect(signin.status, signin.text).toBe(200);
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(true);
    secrets.add(String(signin.body.response.token));
    await browser.fetch("/user/profile");
    expect(browser.cookies.has(XSRF_COOKIE)).toBe(true);

    // An instant alert, and its private feed.
    const saved = await browser.api("alert_save", {
      id: "",
      keywords: "tambourine",
      delivery: "instant",
    });
    expect(saved.status, saved.text).toBe(200);
    const feed = String(saved.body.rss_url);
    secrets.add(lastSegment(feed));
    expect((await browser.fetch(pathOf(feed))).status).toBe(200);

    // A deal that matches it (posted by someone else, matched as publishing does), and its mail.
    const poster = await createTestUser(t.deps.db, { name: "Journey Poster" });
    const deal = await insertPost(t.deps.db, {
      user_id: poster,
      store_id: 1,
      category_id: 1,
      price: 24,
      title: "Music class tambourine set",
    });
    await t.jobs.send(alertMatchJob, { postId: deal.id, trigger: "publish" });
    await waitForJobs(t.jobs);
    const alertMail = await smtp.waitForMessage(email, { subject: /tambourine/i });

    // Unsubscribing from it: the page, then the mail client's one-click POST.
    const unsubscribeLink = linkIn(alertMail, "/unsubscribe?token=");
    secrets.add(new URL(unsubscribeLink).searchParams.get("token")!);
    secrets.add(new URL(unsubscribeLink).search.slice("?token=".length));
    const outsider = new Browser();
    expect((await outsider.fetch(pathOf(unsubscribeLink))).status).toBe(200);
    const unsubscribed = await outsider.fetch(pathOf(unsubscribeLink), {
      form: "List-Unsubscribe=One-Click",
    });
    expect(unsubscribed.status).toBeLessThan(400);

    // Links that carry a secret though nothing here uses them: an email change, an OAuth callback.
    for (const made of ["emailChangeToken0123456789", "oauthCode0123456789", "oauthState0123"]) {
      secrets.add(made);
    }
    await browser.fetch("/confirm-email-change?token=emailChangeToken0123456789");
    await browser.fetch("/auth/google/callback?code=oauthCode0123456789&state=oauthState0123");
    await browser.api("signin", { email, password: "Wrong#Password1" });
    secrets.add("Wrong#Password1");
    await waitForJobs(t.jobs);
  });

  it("logged every line as JSON, each request's lines under the id its answer echoed", () => {
    expect(logLines.length).toBeGreaterThan(20);
    const lines = logLines.map((line) => JSON.parse(line) as Json);
    // The lines of a request (Fastify's own, and every one written while it ran) name it.
    const requestLines = lines.filter((l) => l.req || l.res || l.responseTime !== undefined);
    expect(requestLines.length).toBeGreaterThan(20);
    for (const line of requestLines) expect(typeof line.reqId, JSON.stringify(line)).toBe("string");
    const loggedIds = new Set(lines.map((l) => l.reqId));
    for (const id of answeredIds) expect(loggedIds.has(id), id).toBe(true);
    // Each mail is named by its message id, never its address.
    const sent = lines.filter((l) => /^mail sent, message id [^ (]+:/.test(String(l.msg)));
    expect(sent.length).toBeGreaterThanOrEqual(3);
  });

  it("wrote no address, password or token in any line", () => {
    expect(secrets.size).toBeGreaterThan(12);
    for (const secret of secrets) {
      expect(secret.length, secret).toBeGreaterThan(5);
      for (const line of logLines) expect(line, `a log line holds ${secret}`).not.toContain(secret);
    }
    // Nor any address at all, the site's or a member's.
    for (const line of logLines) expect(line).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/);
  });
});

describe("X-Request-Id", () => {
  const browser = new Browser();

  it("keeps a well-formed id, on every line of its request", async () => {
    const id = "lb-7f3a.9c:01_ok";
    const answer = await browser.fetch("/api/nothing-here", { headers: { "x-request-id": id } });
    expect(answer.status).toBe(404);
    expect(answer.id).toBe(id);
    const lines = logLines.map((line) => JSON.parse(line) as Json).filter((l) => l.reqId === id);
    expect(lines.map((l) => l.msg)).toEqual(
      expect.arrayContaining(["incoming request", "request completed"]),
    );
  });

  it("makes a new one for a missing, long or odd id", async () => {
    for (const given of [undefined, "x".repeat(129), "two words", 'quote"d', ""]) {
      const answer = await browser.fetch("/api/general_settings", {
        headers: given === undefined ? {} : { "x-request-id": given },
      });
      expect(answer.id).toMatch(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
    }
  });

  it("is echoed by a page served from the page cache, a validation error and a 404 page", async () => {
    const first = await browser.fetch("/store", { headers: { "x-request-id": "first-view" } });
    const cached = await browser.fetch("/store", { headers: { "x-request-id": "second-view" } });
    expect([first.status, cached.status]).toEqual([200, 200]);
    expect(cached.headers.get("etag"), "served from the page cache").toBeTruthy();
    expect(cached.id).toBe("second-view");
    const invalid = await browser.api("signin", {});
    expect(invalid.status).toBe(422);
    const missing = await browser.fetch("/no/such/page", { headers: { "x-request-id": "gone-1" } });
    expect([missing.status, missing.id]).toEqual([404, "gone-1"]);
  });
});
