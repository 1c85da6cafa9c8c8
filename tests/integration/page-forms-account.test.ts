import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "../../core/auth/password.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { findEmailPreferences } from "../../core/member/notifications/preferences.ts";
import { EMAIL_MESSAGES } from "../../core/member/notifications/schema.ts";
import { ACCOUNT_MESSAGES } from "../../core/people/accounts/schema.ts";
import { EDUCATOR_MESSAGES } from "../../core/people/educators/schema.ts";
import { PROFILE_UPDATED } from "../../core/people/profiles/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { markVerifiedEducator } from "../helpers/educators.ts";
import { insertPost } from "../helpers/console.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { multipartBody, pngImage } from "../helpers/multipart.ts";
import { createTestUser } from "../helpers/users.ts";

// The account pages' kit forms (docs/decisions/0079) posted without JavaScript: email settings,
// edit profile and change password, verified educators, the Teachers Wishlist, delete account.

const PASSWORD = "Form#Account42";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true, seed: "none" });
});
afterAll(async () => {
  await t?.close();
});

async function member(app: TestApp, options: { password?: boolean; educator?: boolean } = {}) {
  const id = await createTestUser(app.deps.db);
  if (options.password) {
    await app.deps.db
      .updateTable("users")
      .set({ password_hash: await hashPassword(PASSWORD) })
      .where("id", "=", id)
      .execute();
  }
  if (options.educator) await markVerifiedEducator(app.deps.db, id);
  const { email } = await app.deps.db
    .selectFrom("users")
    .select("email")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return { id, email };
}

/** A browser without JavaScript, signed in as `userId`. */
async function signedIn(app: TestApp, userId: number) {
  const browser = new FormBrowser(app.app);
  await browser.signInAs(app.deps.db, userId);
  return browser;
}

/** A visitor with the XSRF cookie of an anonymous page, who tries a signed-in page's form. */
async function anonymous(app: TestApp) {
  const browser = new FormBrowser(app.app);
  await browser.open("/login");
  return browser;
}

function postMultipart(
  browser: FormBrowser,
  url: string,
  body: Awaited<ReturnType<typeof multipartBody>>,
  remoteAddress?: string,
) {
  return browser.request({
    method: "POST",
    url,
    headers: body.headers,
    payload: body.payload,
    xsrf: false,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function expectToLogin(response: { statusCode: number; headers: Record<string, unknown> }) {
  expect([302, 303]).toContain(response.statusCode);
  expect(String(response.headers.location)).toMatch(/^\/login\?next=/);
}

describe("Email settings, posted without JavaScript", () => {
  const URL = "/user/settings/email";

  it("posts to the page with the token", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    const page = await browser.open(URL);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: URL,
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.headers["cache-control"]).toMatch(/^private/);
  });

  it("saves ticked boxes on and unticked ones off, and says so", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const response = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      comment_reply: "on",
      alert: "on",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(EMAIL_MESSAGES.saved);
    expect(await findEmailPreferences(t.deps.db, id)).toEqual({
      comment_reply: true,
      post_comment: false,
      post_like: false,
      new_follower: false,
      moderation: false,
      alert: true,
      weekly_digest: false,
    });
    // The page shows what was saved.
    expect(response.body).toMatch(/id="email-alert"[^>]*checked/);
    expect(response.body).not.toMatch(/id="email-post_like"[^>]*checked/);
  });

  it("refuses a kind of mail that does not exist with 422, and changes nothing", async () => {
    const { id } = await member(t);
    const before = await findEmailPreferences(t.deps.db, id);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const response = await browser.postForm(URL, { _csrf: browser.xsrf, no_such_kind: "on" });
    expect(response.statusCode).toBe(422);
    expect(await findEmailPreferences(t.deps.db, id)).toEqual(before);
  });

  it("refuses a post without the token, and a visitor", async () => {
    const { id } = await member(t);
    const before = await findEmailPreferences(t.deps.db, id);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    expect((await browser.postForm(URL, {})).statusCode).toBe(403);
    const visitor = await anonymous(t);
    expectToLogin(await visitor.postForm(URL, { _csrf: visitor.xsrf }));
    expect(await findEmailPreferences(t.deps.db, id)).toEqual(before);
  });
});

describe("Edit profile, posted without JavaScript", () => {
  const URL = "/user/profile-edit";
  const FIELDS = { intent: "profile", name: "Posted Without Scripts", mobile: "5551234" };

  async function profileOf(id: number) {
    return t.deps.db
      .selectFrom("users")
      .select(["name", "mobile", "image_url"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
  }

  it("has a multipart profile form, the email and the password forms, each with the token", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    const page = await browser.open(URL);
    const posting = forms(page.body).filter((form) => form.method === "post" && !form.hidden);
    expect(posting).toEqual([
      { method: "post", action: URL, hidden: false, csrf: browser.xsrf },
      { method: "post", action: URL, hidden: false, csrf: browser.xsrf },
      { method: "post", action: URL, hidden: false, csrf: browser.xsrf },
    ]);
    expect(page.body).toMatch(/<form[^>]*aria-label="Change email address"/);
    const profileForm = /<form[^>]*aria-label="Edit Profile"[^>]*>/.exec(page.body)?.[0];
    expect(profileForm).toMatch(/ enctype="multipart\/form-data"/i);
    // A browser without JavaScript cannot open the password section: it gets the form at once.
    expect(page.body).toMatch(/<noscript><form[^>]*aria-label="Change password"/);
  });

  it("saves the profile and the picture for the session's user only", async () => {
    const { id } = await member(t);
    const other = await member(t);
    const otherBefore = await profileOf(other.id);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const body = await multipartBody(
      { _csrf: browser.xsrf, ...FIELDS, user_id: other.id },
      { name: "me.png", type: "image/png", bytes: await pngImage() },
    );
    const response = await postMultipart(browser, URL, body);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(PROFILE_UPDATED);
    const saved = await profileOf(id);
    expect(saved).toMatchObject({ name: FIELDS.name, mobile: FIELDS.mobile });
    expect(saved.image_url).toMatch(/avatars/);
    expect(await profileOf(other.id)).toEqual(otherBefore);
  });

  it("answers bad fields and a file that is not an image with 422, and saves nothing", async () => {
    const { id } = await member(t);
    const before = await profileOf(id);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const badMobile = await postMultipart(
      browser,
      URL,
      await multipartBody({ _csrf: browser.xsrf, ...FIELDS, mobile: "call me" }),
    );
    expect(badMobile.statusCode).toBe(422);
    expect(badMobile.body).toContain("Mobile number should be numeric.");
    expect(badMobile.body).toMatch(/id="mobile"[^>]*aria-invalid="true"/);
    expect(badMobile.body).toContain('value="call me"');

    const notImage = await postMultipart(
      browser,
      URL,
      await multipartBody(
        { _csrf: browser.xsrf, ...FIELDS },
        { name: "me.png", type: "image/png", bytes: Buffer.from("not an image at all") },
      ),
    );
    expect(notImage.statusCode).toBe(422);
    expect(await profileOf(id)).toEqual(before);
  });

  it("changes the password: a new session, its message in its own form, no password shown", async () => {
    const { id, email } = await member(t, { password: true });
    const browser = await signedIn(t, id);
    const oldSession = browser.cookies.get(SESSION_COOKIE);
    await browser.open(URL);
    const NEW = "Fresh#Account77";
    const wrong = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "password",
      old_password: "Not#ThePassword1",
      new_password: NEW,
      new_password_confirmation: NEW,
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain(ACCOUNT_MESSAGES.oldPasswordWrong);
    expect(wrong.body).not.toContain(NEW);
    // The profile form does not show the password form's answer.
    expect(wrong.body).not.toMatch(/id="name"[^>]*aria-invalid/);

    const changed = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "password",
      old_password: PASSWORD,
      new_password: NEW,
      new_password_confirmation: NEW,
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain(ACCOUNT_MESSAGES.passwordChanged);
    expect(changed.body).not.toContain(NEW);
    expect(changed.body).not.toContain(PROFILE_UPDATED);
    // The profile form's banner stays empty: the answer is the password form's.
    expect(changed.body).toContain(
      '<div class="profile-form-banner" aria-live="polite" role="status"></div>',
    );
    const session = changed.cookies.find((c) => c.name === SESSION_COOKIE);
    expect(session?.value).toMatch(/.{20,}/);
    expect(session?.value).not.toBe(oldSession);
    const signin = await t.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email, password: NEW },
    });
    expect(signin.statusCode).toBe(200);
  });

  it("refuses a post without the token, and a visitor", async () => {
    const { id } = await member(t);
    const before = await profileOf(id);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    expect((await browser.postForm(URL, FIELDS)).statusCode).toBe(403);
    const visitor = await anonymous(t);
    expectToLogin(
      await visitor.postForm(URL, { _csrf: visitor.xsrf, ...FIELDS, user_id: `${id}` }),
    );
    expect(await profileOf(id)).toEqual(before);
  });
});

describe("Get verified as an educator, posted without JavaScript", () => {
  const URL = "/user/verify-educator";
  const NOTE = "I teach year 5 at Lincoln Elementary in Austin.";

  async function requestsOf(id: number) {
    return t.deps.db
      .selectFrom("educator_requests")
      .select(["method", "note", "school_email"])
      .orderBy("id")
      .where("user_id", "=", id)
      .execute();
  }

  it("has the two forms, each with the token and its intent", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    const page = await browser.open(URL);
    const posting = forms(page.body).filter((form) => form.method === "post" && !form.hidden);
    expect(posting).toEqual([
      { method: "post", action: URL, hidden: false, csrf: browser.xsrf },
      { method: "post", action: URL, hidden: false, csrf: browser.xsrf },
    ]);
    expect(page.body).toContain('name="intent" value="school_email"');
    expect(page.body).toContain('name="intent" value="review"');
  });

  it("answers a bad form in its own form only, with 422, and stores nothing", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const short = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "review",
      note: "too short",
    });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain(EDUCATOR_MESSAGES.note);
    expect(short.body).toMatch(/id="review-note"[^>]*aria-invalid="true"/);
    expect(short.body).not.toMatch(/id="school-email"[^>]*aria-invalid/);

    const notSchool = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "school_email",
      email: "someone@gmail.com",
    });
    expect(notSchool.statusCode).toBe(422);
    expect(notSchool.body).toMatch(/id="school-email"[^>]*aria-invalid="true"/);
    expect(notSchool.body).not.toMatch(/id="review-note"[^>]*aria-invalid/);
    // One form's alert, not both.
    expect(notSchool.body.match(/class="alert alert-danger"/g)).toHaveLength(1);
    expect(await requestsOf(id)).toEqual([]);
  });

  it("files a review request and shows the service's message", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const response = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "review",
      note: NOTE,
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("A moderator will review your request");
    expect(await requestsOf(id)).toEqual([{ method: "review", note: NOTE, school_email: "" }]);
  });

  it("mails a school-address link", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    const response = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "school_email",
      email: "teacher@lincoln.k12.tx.us",
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("We sent a confirmation link to teacher@lincoln.k12.tx.us");
    expect(await requestsOf(id)).toEqual([
      { method: "school_email", note: "", school_email: "teacher@lincoln.k12.tx.us" },
    ]);
  });

  it("refuses a post without the token, and a visitor", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    expect((await browser.postForm(URL, { intent: "review", note: NOTE })).statusCode).toBe(403);
    const visitor = await anonymous(t);
    expectToLogin(
      await visitor.postForm(URL, { _csrf: visitor.xsrf, intent: "review", note: NOTE }),
    );
    expect(await requestsOf(id)).toEqual([]);
  });
});

describe("Add your Teachers Wishlist, posted without JavaScript", () => {
  const URL = "/user/wishlist/new";
  const ENTRY = {
    first_name: "Wren",
    last_name: "Teacher",
    school_location: "Lincoln Elementary, Austin, TX",
    amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/FORMPOST1",
  };

  async function entriesOf(id: number) {
    return t.deps.db
      .selectFrom("teachers_wishlist")
      .select(["first_name", "status"])
      .where("user_id", "=", id)
      .execute();
  }

  it("stores a verified educator's entry and says so; a bad one is 422 and stores nothing", async () => {
    const { id } = await member(t, { educator: true });
    const browser = await signedIn(t, id);
    const page = await browser.open(URL);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: URL,
      hidden: false,
      csrf: browser.xsrf,
    });
    const bad = await browser.postForm(URL, { _csrf: browser.xsrf, ...ENTRY, first_name: "" });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/id="wishlist-first_name"[^>]*aria-invalid="true"/);
    expect(bad.body).toContain(`value="${ENTRY.school_location}"`);
    expect(await entriesOf(id)).toEqual([]);

    const sent = await browser.postForm(URL, { _csrf: browser.xsrf, ...ENTRY });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain("Your wishlist will show on the home page once a moderator");
    expect(await entriesOf(id)).toEqual([{ first_name: "Wren", status: "pending" }]);
  });

  it("refuses a member who is not a verified educator, a post without the token, a visitor", async () => {
    const { id } = await member(t);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    expect((await browser.postForm(URL, { _csrf: browser.xsrf, ...ENTRY })).statusCode).toBe(403);
    const educator = await member(t, { educator: true });
    const other = await signedIn(t, educator.id);
    await other.open(URL);
    expect((await other.postForm(URL, ENTRY)).statusCode).toBe(403);
    const visitor = await anonymous(t);
    expectToLogin(await visitor.postForm(URL, { _csrf: visitor.xsrf, ...ENTRY }));
    expect(await entriesOf(id)).toEqual([]);
    expect(await entriesOf(educator.id)).toEqual([]);
  });
});

describe("Delete account, posted without JavaScript", () => {
  const URL = "/delete-account";

  async function live(id: number) {
    const row = await t.deps.db
      .selectFrom("users")
      .select("deleted_at")
      .where("id", "=", id)
      .executeTakeFirst();
    return row?.deleted_at === null;
  }

  it("posts to the page with the token, and the page is never cached for others", async () => {
    const browser = new FormBrowser(t.app);
    const page = await browser.open(URL);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: URL,
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.headers["cache-control"]).toBe("private, no-store");
  });

  it("answers a failed sign-in with the spec's message and signs nobody in", async () => {
    const { email } = await member(t, { password: true });
    const browser = new FormBrowser(t.app);
    await browser.open(URL);
    const empty = await browser.postForm(URL, { _csrf: browser.xsrf, email: "", password: "" });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain("Email is required !");
    const wrong = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      email,
      password: "Not#ThePassword1",
    });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain(ACCOUNT_MESSAGES.deleteSigninFailed);
    expect(wrong.body).toContain(`value="${email}"`);
    expect(wrong.cookies.find((c) => c.name === SESSION_COOKIE)).toBeUndefined();
  });

  it("signs in again, asks, keeps the account on No and deletes it on Yes", async () => {
    const { id, email } = await member(t, { password: true });
    const browser = new FormBrowser(t.app);
    await browser.open(URL);
    const asked = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "signin",
      email,
      password: PASSWORD,
    });
    expect(asked.statusCode).toBe(200);
    expect(asked.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toMatch(/.{20,}/);
    expect(asked.body).toContain(ACCOUNT_MESSAGES.deleteConfirmQuestion);
    // Yes and No post their intent.
    expect(asked.body).toMatch(/<button type="submit" value="delete"[^>]*name="intent">Yes</);
    expect(asked.body).toMatch(/<button type="submit" value="keep"[^>]*name="intent">No</);
    expect(asked.body).not.toContain(PASSWORD);

    const kept = await browser.postForm(URL, { _csrf: browser.xsrf, intent: "keep" });
    expect(kept.statusCode).toBe(200);
    expect(kept.body).toContain("Your account has not been deleted.");
    expect(await live(id)).toBe(true);

    // Another member's id in the form is not the one deleted: the session's user is.
    const other = await member(t);
    const deleted = await browser.postForm(URL, {
      _csrf: browser.xsrf,
      intent: "delete",
      user_id: String(other.id),
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).toContain(ACCOUNT_MESSAGES.userDeleted);
    expect(deleted.body).toMatch(/<meta http-equiv="refresh" content="3;url=\/"/);
    expect(deleted.cookies.find((c) => c.name === SESSION_COOKIE)?.value).toBe("");
    expect(await live(id)).toBe(false);
    expect(await live(other.id)).toBe(true);
  });

  it("offers to delete the member's posts too, and does so when the box is ticked", async () => {
    const postsOf = async (id: number) =>
      (await t.deps.db.selectFrom("posts").select("id").where("user_id", "=", id).execute()).length;
    for (const removePosts of [false, true]) {
      const { id, email } = await member(t, { password: true });
      await insertPost(t.deps.db, { user_id: id });
      const browser = new FormBrowser(t.app);
      await browser.open(URL);
      const asked = await browser.postForm(URL, {
        _csrf: browser.xsrf,
        intent: "signin",
        email,
        password: PASSWORD,
      });
      // The choice is in the confirm form, unticked, with its label.
      const box = /<input id="([^"]+)" type="checkbox" name="remove_posts" value="on"\/>/.exec(
        asked.body,
      );
      expect(box).not.toBeNull();
      expect(asked.body).toContain(
        `<label for="${box![1]}">${ACCOUNT_MESSAGES.removePostsLabel}</label>`,
      );
      const deleted = await browser.postForm(URL, {
        _csrf: browser.xsrf,
        intent: "delete",
        ...(removePosts ? { remove_posts: "on" } : {}),
      });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.body).toContain(ACCOUNT_MESSAGES.userDeleted);
      expect(await live(id)).toBe(false);
      expect(await postsOf(id)).toBe(removePosts ? 0 : 1);
    }
  });

  it("refuses Yes from a visitor, and a post without the token", async () => {
    const { id } = await member(t, { password: true });
    const visitor = new FormBrowser(t.app);
    await visitor.open(URL);
    const refused = await visitor.postForm(URL, {
      _csrf: visitor.xsrf,
      intent: "delete",
      user_id: String(id),
    });
    expect(refused.statusCode).toBe(401);
    const browser = await signedIn(t, id);
    await browser.open(URL);
    expect((await browser.postForm(URL, { intent: "delete" })).statusCode).toBe(403);
    expect(await live(id)).toBe(true);
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

  /** Five posts, the page's form and the JSON call in turn; then both doors refuse. */
  async function sharesFive(form: () => Promise<number>, api: () => Promise<number>) {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 5; attempt++) {
      statuses.push(await (attempt % 2 ? api() : form()));
    }
    expect(statuses).not.toContain(429);
    expect(await form()).toBe(429);
    expect(await api()).toBe(429);
  }

  it("shares RATE_LIMITS.educatorRequest between the page's forms and both JSON calls", async () => {
    const remoteAddress = "198.51.100.91";
    const { id } = await member(limited);
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, id);
    await browser.request({ method: "GET", url: "/user/verify-educator", remoteAddress });
    let turn = 0;
    const form = async () =>
      (
        await browser.request({
          method: "POST",
          url: "/user/verify-educator",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams({
            _csrf: browser.xsrf,
            intent: "review",
            note: "short",
          }).toString(),
          xsrf: false,
          remoteAddress,
        })
      ).statusCode;
    // The school-address call and the review call count as one.
    const api = async () =>
      (
        await browser.request({
          method: "POST",
          url:
            turn++ % 2
              ? "/api/educator_verification/review"
              : "/api/educator_verification/school_email",
          payload: { note: "short", email: "someone@gmail.com" },
          remoteAddress,
        })
      ).statusCode;
    await sharesFive(form, api);
  });

  it("shares RATE_LIMITS.emailChange between Edit profile's email form and POST /api/email_change", async () => {
    const remoteAddress = "198.51.100.95";
    const { id } = await member(limited, { password: true });
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, id);
    await browser.request({ method: "GET", url: "/user/profile-edit", remoteAddress });
    const fields = { email: `new-${Date.now()}@example.com`, password: "Not#ThePassword1" };
    const post = (intent: string, extra: Record<string, string> = fields) =>
      browser.request({
        method: "POST",
        url: "/user/profile-edit",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ _csrf: browser.xsrf, intent, ...extra }).toString(),
        xsrf: false,
        remoteAddress,
      });
    const form = async () => (await post("email")).statusCode;
    const api = async () =>
      (
        await browser.request({
          method: "POST",
          url: "/api/email_change",
          payload: fields,
          remoteAddress,
        })
      ).statusCode;
    await sharesFive(form, api);
    // The page's password form keeps its own count.
    const password = await post("password", {
      old_password: "Not#ThePassword1",
      new_password: "Fresh#Account77",
      new_password_confirmation: "Fresh#Account77",
    });
    expect(password.statusCode).toBe(422);
  });

  it("shares RATE_LIMITS.confirmEmailChange between the link's page and its JSON call", async () => {
    const remoteAddress = "198.51.100.96";
    const visitor = new FormBrowser(limited.app);
    const url = "/confirm-email-change?token=never-sent";
    // A link that cannot be used shows no form: the XSRF cookie comes from another page's.
    await visitor.request({ method: "GET", url: "/login", remoteAddress });
    const form = async () =>
      (
        await visitor.request({
          method: "POST",
          url,
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams({ _csrf: visitor.xsrf, token: "never-sent" }).toString(),
          xsrf: false,
          remoteAddress,
        })
      ).statusCode;
    const api = async () =>
      (
        await visitor.request({
          method: "POST",
          url: "/api/confirm_email_change",
          payload: { token: "never-sent" },
          remoteAddress,
        })
      ).statusCode;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      statuses.push(await (attempt % 2 ? api() : form()));
    }
    expect(statuses).toEqual(Array(10).fill(400));
    expect(await form()).toBe(429);
    expect(await api()).toBe(429);
  });

  it("shares RATE_LIMITS.wishlistSubmit between the wishlist form and POST /api/wishlist_submit", async () => {
    const remoteAddress = "198.51.100.92";
    const { id } = await member(limited, { educator: true });
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, id);
    await browser.request({ method: "GET", url: "/user/wishlist/new", remoteAddress });
    const form = async () =>
      (
        await browser.request({
          method: "POST",
          url: "/user/wishlist/new",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          payload: new URLSearchParams({ _csrf: browser.xsrf, first_name: "" }).toString(),
          xsrf: false,
          remoteAddress,
        })
      ).statusCode;
    const api = async () =>
      (
        await browser.request({
          method: "POST",
          url: "/api/wishlist_submit",
          payload: { first_name: "" },
          remoteAddress,
        })
      ).statusCode;
    await sharesFive(form, api);
  });

  it("counts delete-account's sign-in with POST /api/signin, and the password form with its call", async () => {
    const signinAddress = "198.51.100.93";
    const visitor = new FormBrowser(limited.app);
    await visitor.request({ method: "GET", url: "/delete-account", remoteAddress: signinAddress });
    const nobody = (n: number) => `nobody-${n}-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const fields = { email: nobody(attempt), password: "Wrong#Pass99" };
      const response =
        attempt % 2
          ? await limited.app.inject({
              method: "POST",
              url: "/api/signin",
              payload: fields,
              remoteAddress: signinAddress,
            })
          : await visitor.request({
              method: "POST",
              url: "/delete-account",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              payload: new URLSearchParams({ _csrf: visitor.xsrf, ...fields }).toString(),
              xsrf: false,
              remoteAddress: signinAddress,
            });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual(Array(10).fill(401));
    const refused = await limited.app.inject({
      method: "POST",
      url: "/api/signin",
      payload: { email: nobody(10), password: "Wrong#Pass99" },
      remoteAddress: signinAddress,
    });
    expect(refused.statusCode).toBe(429);

    const passwordAddress = "198.51.100.94";
    const { id } = await member(limited, { password: true });
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, id);
    const wrong = {
      old_password: "Not#ThePassword1",
      new_password: "Fresh#Account77",
      new_password_confirmation: "Fresh#Account77",
    };
    const codes: number[] = [];
    for (let attempt = 0; attempt < 10; attempt++) {
      const response =
        attempt % 2
          ? await browser.request({
              method: "POST",
              url: "/api/change_password",
              payload: wrong,
              remoteAddress: passwordAddress,
            })
          : await browser.request({
              method: "POST",
              url: "/user/profile-edit",
              headers: { "content-type": "application/x-www-form-urlencoded" },
              payload: new URLSearchParams({
                _csrf: browser.xsrf,
                intent: "password",
                ...wrong,
              }).toString(),
              xsrf: false,
              remoteAddress: passwordAddress,
            });
      codes.push(response.statusCode);
    }
    expect(codes).toEqual(Array(10).fill(422));
    const passwordRefused = await browser.request({
      method: "POST",
      url: "/user/profile-edit",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({
        _csrf: browser.xsrf,
        intent: "password",
        ...wrong,
      }).toString(),
      xsrf: false,
      remoteAddress: passwordAddress,
    });
    expect(passwordRefused.statusCode).toBe(429);
  });
});
