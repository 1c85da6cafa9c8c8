import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../core/auth/password.ts";
import { SUSPENSION_NOTICE_COOKIE } from "../../core/auth/suspension.ts";
import { SESSION_COOKIE, XSRF_COOKIE } from "../../core/constants.ts";
import type { UserRole } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { startOidcProvider, type OidcProvider } from "../helpers/oidc.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/**
 * The pages of the console's users and settings (served from the production build), and what a
 * suspension and a settings change do to the public pages: the login page's reasons (password and
 * provider sign-in), and the site name on the very next page.
 */

const PASSWORD = "Suspend#Me42";

let t: TestApp;
let oidc: OidcProvider;

beforeAll(async () => {
  oidc = await startOidcProvider();
  t = await createTestApp({ pages: true, env: oidc.env() });
});
afterAll(async () => {
  await t?.close();
  await oidc?.close();
});

let counter = 0;

async function signedIn(role: UserRole, name = `Pages ${role}`) {
  const id = await createTestUser(t.deps.db, { name: `${name} ${++counter}` });
  if (role !== "member") {
    await t.deps.db.updateTable("users").set({ role }).where("id", "=", id).execute();
  }
  const client = new TestClient(t.app);
  await client.signInAs(t.deps.db, id);
  return { id, client };
}

async function suspendedMember(until: Date | null, reason: string) {
  counter += 1;
  const email = `pages-suspended-${counter}-${Date.now()}@example.com`;
  const row = await t.deps.db
    .insertInto("users")
    .values({
      name: `Suspended ${counter}`,
      email,
      password_hash: await hashPassword(PASSWORD),
      user_type: "Teacher",
      email_verified_at: new Date(),
      suspended_at: new Date(),
      suspended_until: until,
      suspension_reason: reason,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, email };
}

/** Posts the login form as a browser without JavaScript does. */
async function postLoginForm(email: string) {
  const browser = new TestClient(t.app);
  expect((await browser.get("/login")).statusCode).toBe(200);
  return browser.request({
    method: "POST",
    url: "/login",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({
      _csrf: browser.cookies.get(XSRF_COOKIE) ?? "",
      email,
      password: PASSWORD,
    }).toString(),
    xsrf: false,
  });
}

describe("the console's users and settings pages", () => {
  it("send visitors to /login and refuse members, and settings to moderators", async () => {
    const visitor = new TestClient(t.app);
    const users = await visitor.get("/admin/users");
    expect(users.statusCode).toBe(302);
    expect(users.headers.location).toBe("/login");
    const member = await signedIn("member");
    expect((await member.client.get("/admin/users")).statusCode).toBe(403);
    expect((await member.client.get("/admin/settings")).statusCode).toBe(403);
    const moderator = await signedIn("moderator");
    expect((await moderator.client.get("/admin/settings")).statusCode).toBe(403);
  });

  it("lists users with their status and the filters kept in the address", async () => {
    const moderator = await signedIn("moderator");
    const target = await suspendedMember(null, "Spam <b>links</b>");
    const page = await moderator.client.get(`/admin/users?q=${target.email}&status=suspended`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(target.email);
    expect(page.body).toContain("Suspended until lifted");
    // Names and reasons are text: escaped, never markup.
    expect(page.body).toContain("Spam &lt;b&gt;links&lt;/b&gt;");
    expect(page.body).toMatch(/<input[^>]*name="q"[^>]*value="[^"]*pages-suspended-/);
    expect(page.body).toContain('<option value="suspended" selected=""');
    // A moderator gets no role or delete buttons; an administrator does.
    expect(page.body).not.toContain(">Make administrator<");
    const admin = await signedIn("admin");
    const asAdmin = await admin.client.get(`/admin/users?q=${target.email}`);
    expect(asAdmin.body).toContain(">Make administrator<");
    expect(asAdmin.body).toContain(">Delete<");
    expect(asAdmin.body).toContain(">Unsuspend<");
    // Whatever the address carries, the list answers (unusable filters read as not given).
    for (const query of ["q=a%00b", "page=1e309", "page=-1&role=%E0%A4%A", "role[]=x&status=zz"]) {
      expect((await moderator.client.get(`/admin/users?${query}`)).statusCode, query).toBe(200);
    }
  });

  it("shows the settings form to an administrator with the stored values", async () => {
    const admin = await signedIn("admin");
    const page = await admin.client.get("/admin/settings");
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/id="settings-website_name"[^>]*value="Chalkboard Deals"/);
    expect(page.body).toContain("Blocked link domains");
    expect(page.body).toContain("Upload logo");
  });
});

describe("the login page and a suspended account", () => {
  it("shows the reason and the end date, and starts no session", async () => {
    const until = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000);
    until.setUTCHours(0, 0, 0, 0);
    const { email } = await suspendedMember(until, "Repeated spam");
    const response = await postLoginForm(email);
    expect(response.statusCode).toBe(401);
    const date = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(until);
    expect(response.body).toContain(`Your account is suspended until ${date}: Repeated spam`);
    expect(response.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it("says so without a date for a suspension until lifted", async () => {
    const { email } = await suspendedMember(null, "Abusive comments");
    const response = await postLoginForm(email);
    expect(response.body).toContain("Your account is suspended: Abusive comments");
  });

  it("refuses a Google sign-in and shows the reason on /login", async () => {
    const { id, email } = await suspendedMember(null, "Ban evasion");
    const sub = `suspended-social-${Date.now()}`;
    await t.deps.db
      .insertInto("oauth_accounts")
      .values({ user_id: id, provider: "google", provider_user_id: sub })
      .execute();
    oidc.setUser({ sub, email, email_verified: true, name: "Suspended Social" });
    const browser = new TestClient(t.app);
    const start = await browser.get("/auth/google");
    const atProvider = await fetch(new URL(start.headers.location as string), {
      redirect: "manual",
    });
    const callback = new URL(atProvider.headers.get("location")!);
    const done = await browser.get(`${callback.pathname}${callback.search}`);
    expect(done.statusCode).toBe(302);
    expect(done.headers.location).toBe("/login?social_error=suspended");
    expect(browser.cookies.has(SESSION_COOKIE)).toBe(false);
    const notice = done.cookies.find((c) => c.name === SUSPENSION_NOTICE_COOKIE);
    expect(notice).toMatchObject({ path: "/login", httpOnly: true });

    const login = await browser.get("/login?social_error=suspended");
    expect(login.body).toContain("Your account is suspended: Ban evasion");
    expect(login.body).not.toContain("Something went wrong in social login");
    // Without the cookie nobody can make the page say anything but the plain fact.
    const forged = await new TestClient(t.app).get("/login?social_error=suspended");
    expect(forged.body).toContain("Your account is suspended.");
    expect(forged.body).not.toContain("Ban evasion");
  });

  it("lets the same person in once the suspension has ended", async () => {
    const { email } = await suspendedMember(new Date(Date.now() - 1000), "Over");
    const response = await postLoginForm(email);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Successfully Login");
  });
});

describe("a settings change", () => {
  it("shows on the very next public page", async () => {
    const before = await new TestClient(t.app).get("/");
    expect(before.body).toContain("Chalkboard Deals");
    const admin = await signedIn("admin");
    const saved = await admin.client.post("/api/admin/settings", {
      website_name: "Staffroom Steals",
      website_description: "Bargains for the staffroom.",
    });
    expect(saved.statusCode).toBe(200);
    const after = await new TestClient(t.app).get("/");
    expect(after.body).toContain("Staffroom Steals");
    expect(after.body).toContain('content="Bargains for the staffroom."');
    await admin.client.post("/api/admin/settings", {
      website_name: "Chalkboard Deals",
      website_description: "",
    });
  });
});
