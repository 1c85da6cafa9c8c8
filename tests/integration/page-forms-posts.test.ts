import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBMIT_MESSAGES, XSRF_COOKIE } from "../../core/constants.ts";
import { REPORT_MESSAGES } from "../../core/moderation/schema.ts";
import { COMMENT_POSTED, COMMENT_REQUIRED } from "../../core/posts/comments/schema.ts";
import { OWN_COMMENT } from "../../core/posts/comments/likes/schema.ts";
import {
  DEAL_MESSAGES,
  DISCUSSION_MESSAGES,
  IMAGE_MESSAGES,
} from "../../core/posts/submissions/schema.ts";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertComment } from "../helpers/console.ts";
import { FormBrowser, forms } from "../helpers/form-browser.ts";
import { multipartBody, pngImage, type FilePart } from "../helpers/multipart.ts";
import { createTestUser } from "../helpers/users.ts";

// The post pages' comment, reply and report forms and Submit Deals' two forms, posted without
// JavaScript to their pages (docs/decisions/0079): the same schema, service and messages as their
// JSON calls, the XSRF token only on a member's page, and one rate-limit count with the call.

let t: TestApp;
let memberId: number;
let otherId: number;
let deal: { id: number; unique_id: string; slug: string; path: string };
const ids = { dealCategory: 0, discussionCategory: 0, store: 0, category: 0 };

beforeAll(async () => {
  t = await createTestApp({ pages: true });
  const db = t.deps.db;
  memberId = await createTestUser(db, { name: "Page Form Member" });
  otherId = await createTestUser(db, { name: "Other Member" });
  const row = await db
    .selectFrom("posts")
    .select(["id", "unique_id", "slug"])
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .orderBy("id")
    .executeTakeFirstOrThrow();
  deal = { ...row, path: `/post/${row.unique_id}/${row.slug}` };
  const kinds = await db.selectFrom("forum_categories").select(["id", "kind"]).execute();
  ids.dealCategory = kinds.find((k) => k.kind === "deal")!.id;
  ids.discussionCategory = kinds.find((k) => k.kind === "discussion")!.id;
  ids.store = (
    await db.selectFrom("stores").select("id").orderBy("id").executeTakeFirstOrThrow()
  ).id;
  ids.category = (
    await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => {
  await t?.close();
});

async function signedIn(userId = memberId) {
  const browser = new FormBrowser(t.app);
  await browser.signInAs(t.deps.db, userId);
  return browser;
}

function commentsOf(userId: number) {
  return t.deps.db
    .selectFrom("comments")
    .select(["id", "parent_id", "body", "post_id"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
}

async function commentCount() {
  const row = await t.deps.db
    .selectFrom("comments")
    .select(sql<number>`count(*)`.as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const commentFields = (browser: FormBrowser, extra: Record<string, string> = {}) => ({
  _csrf: browser.xsrf,
  intent: "comment",
  post_id: String(deal.id),
  post_type: "d",
  comment_id: "",
  comment_text: "Posted with JavaScript off.",
  ...extra,
});

describe("the comment and reply forms of a post page, posted without JavaScript", () => {
  it("a member's page: the comment box posts to the page with the member's token", async () => {
    const browser = await signedIn();
    const page = await browser.open(deal.path);
    expect(browser.xsrf).not.toBe("");
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: deal.path,
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.body).toMatch(/<input type="hidden" name="intent" value="comment"/);
  });

  it("posts a comment, then a reply, as the session's user: stored and shown", async () => {
    const browser = await signedIn();
    await browser.open(deal.path);
    const text = `A comment without scripts ${Date.now()}`;
    // A user_id in the form is not who posts: the session is.
    const response = await browser.postForm(
      deal.path,
      commentFields(browser, { comment_text: text, user_id: String(otherId) }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(COMMENT_POSTED);
    expect(response.body).toContain(text);
    const [stored] = (await commentsOf(memberId)).filter((c) => c.body.includes(text));
    expect(stored).toMatchObject({ parent_id: null, post_id: deal.id });
    expect((await commentsOf(otherId)).length).toBe(0);

    const reply = `A reply without scripts ${Date.now()}`;
    const answered = await browser.postForm(
      deal.path,
      commentFields(browser, { comment_text: reply, comment_id: String(stored!.id) }),
    );
    expect(answered.statusCode).toBe(200);
    expect(answered.body).toContain(reply);
    const replies = (await commentsOf(memberId)).filter((c) => c.body.includes(reply));
    expect(replies).toEqual([expect.objectContaining({ parent_id: stored!.id })]);
  });

  it("posts a comment on an educator post page too", async () => {
    const post = await t.deps.db
      .selectFrom("posts")
      .select(["id", "unique_id", "slug"])
      .where("status", "=", "active")
      .where("post_type", "=", "g")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const path = `/educator/${post.unique_id}/${post.slug}`;
    const browser = await signedIn();
    const page = await browser.open(path);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: path,
      hidden: false,
      csrf: browser.xsrf,
    });
    const text = `A forum comment without scripts ${Date.now()}`;
    const response = await browser.postForm(
      path,
      commentFields(browser, { post_id: String(post.id), post_type: "g", comment_text: text }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(text);
    const stored = (await commentsOf(memberId)).filter((c) => c.body.includes(text));
    expect(stored).toEqual([expect.objectContaining({ post_id: post.id, parent_id: null })]);
  });

  it("answers an empty comment with 422 and the call's message, and stores nothing", async () => {
    const browser = await signedIn();
    await browser.open(deal.path);
    const before = await commentCount();
    const response = await browser.postForm(
      deal.path,
      commentFields(browser, { comment_text: "   " }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(COMMENT_REQUIRED);
    expect(response.body).toMatch(/<textarea[^>]*aria-invalid="true"/);
    const missing = await browser.postForm(
      deal.path,
      commentFields(browser, { comment_id: "999999999" }),
    );
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain("The comment you replied to no longer exists.");
    expect(await commentCount()).toBe(before);
  });

  it("refuses a post without the token with 403, and stores nothing", async () => {
    const browser = await signedIn();
    await browser.open(deal.path);
    const before = await commentCount();
    const { _csrf: _token, ...fields } = commentFields(browser);
    expect((await browser.postForm(deal.path, fields)).statusCode).toBe(403);
    expect(
      (await browser.postForm(deal.path, { ...fields, _csrf: "forged-0123456789" })).statusCode,
    ).toBe(403);
    expect(await commentCount()).toBe(before);
  });

  it("refuses a visitor: 403 without a token, 401 with a visitor's token, and stores nothing", async () => {
    const before = await commentCount();
    const stranger = new FormBrowser(t.app);
    await stranger.open(deal.path);
    expect((await stranger.postForm(deal.path, commentFields(stranger))).statusCode).toBe(403);
    // A visitor's token from a page that gives one (Contact Us) passes the XSRF check only.
    const visitor = new FormBrowser(t.app);
    await visitor.open("/contact");
    expect(visitor.xsrf).not.toBe("");
    const response = await visitor.postForm(deal.path, commentFields(visitor));
    expect(response.statusCode).toBe(401);
    expect(response.body).toContain("Please log in first.");
    expect(await commentCount()).toBe(before);
  });

  it("never puts a token in the visitor's page, which the page cache may keep", async () => {
    // A member's view first: nothing of it may reach the visitor's copy.
    const member = await signedIn();
    await member.open(deal.path);
    for (let i = 0; i < 2; i++) {
      const visitor = await t.app.inject({ method: "GET", url: deal.path });
      expect(visitor.statusCode).toBe(200);
      expect(visitor.headers["cache-control"]).toMatch(/^public/);
      expect(visitor.cookies.find((c) => c.name === XSRF_COOKIE)).toBeUndefined();
      const found = forms(visitor.body);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((form) => form.csrf === null)).toBe(true);
      expect(visitor.body).not.toContain(member.xsrf);
      // The visitor's box is not posted to the page: signing in comes first (record 0035).
      expect(visitor.body).not.toMatch(/name="intent" value="comment"/);
    }
  });
});

describe("the comments' Like buttons, posted without JavaScript (record 0092)", () => {
  const likeFields = (browser: FormBrowser, commentId: number, liked = "1") => ({
    _csrf: browser.xsrf,
    intent: "comment_like",
    comment_id: String(commentId),
    liked,
  });
  const likersOf = (commentId: number) =>
    t.deps.db
      .selectFrom("comment_likes")
      .select("user_id")
      .where("comment_id", "=", commentId)
      .execute();

  it("a member's Like posts to the page as the session's user; posted twice, likes once", async () => {
    const comment = await insertComment(t.deps.db, { postId: deal.id, userId: otherId });
    const browser = await signedIn();
    const page = await browser.open(deal.path);
    expect(page.body).toMatch(/<input type="hidden" name="intent" value="comment_like"/);
    expect(page.body).toContain(`name="comment_id" value="${comment}"`);

    for (let i = 0; i < 2; i++) {
      // A user_id in the form is not who likes: the session is.
      const response = await browser.postForm(deal.path, {
        ...likeFields(browser, comment),
        user_id: String(otherId),
      });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain("You liked this comment.");
      expect(response.body).toMatch(/aria-pressed="true"[^>]*>.*?the comment by Other Member/);
    }
    expect(await likersOf(comment)).toEqual([{ user_id: memberId }]);

    const back = await browser.postForm(deal.path, likeFields(browser, comment, "0"));
    expect(back.body).toContain("Your like has been removed.");
    expect(await likersOf(comment)).toEqual([]);
  });

  it("answers one's own comment with the call's message, and a visitor's Like goes to sign in", async () => {
    const own = await insertComment(t.deps.db, { postId: deal.id, userId: memberId });
    const browser = await signedIn();
    await browser.open(deal.path);
    const response = await browser.postForm(deal.path, likeFields(browser, own));
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain(OWN_COMMENT);
    expect(await likersOf(own)).toEqual([]);

    const visitor = await t.app.inject({ method: "GET", url: deal.path });
    expect(visitor.body).not.toMatch(/name="intent" value="comment_like"/);
    const likeForm = /<form [^>]*class="comment-like"[^>]*>/.exec(visitor.body)?.[0] ?? "";
    expect(likeForm).toContain('method="get"');
    expect(likeForm).toContain('action="/login"');
  });
});

describe("the report form of a post page, posted without JavaScript", () => {
  const reportFields = (browser: FormBrowser, extra: Record<string, string> = {}) => ({
    _csrf: browser.xsrf,
    intent: "report",
    item_type: "d",
    item_id: deal.unique_id,
    reason: "spam",
    note: "",
    ...extra,
  });
  const reportsBy = (userId: number) =>
    t.deps.db
      .selectFrom("reports")
      .select(["item_type", "item_id", "reason"])
      .where("reporter_id", "=", userId)
      .execute();

  it("sends the report, says so beside the button, and a repeat is the call's 409", async () => {
    const reporter = await createTestUser(t.deps.db, { name: "Page Reporter" });
    const browser = await signedIn(reporter);
    const page = await browser.open(deal.path);
    expect(page.body).toMatch(/name="intent" value="report"/);
    const bad = await browser.postForm(deal.path, reportFields(browser, { reason: "" }));
    expect(bad.statusCode).toBe(422);
    expect(await reportsBy(reporter)).toEqual([]);

    const response = await browser.postForm(deal.path, reportFields(browser));
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(REPORT_MESSAGES.sent);
    expect(await reportsBy(reporter)).toEqual([
      { item_type: "d", item_id: deal.unique_id, reason: "spam" },
    ]);
    const repeat = await browser.postForm(deal.path, reportFields(browser));
    expect(repeat.statusCode).toBe(409);
    expect(repeat.body).toContain(REPORT_MESSAGES.repeat.replace("'", "&#x27;"));
  });

  it("reports a member from their profile, which posts to its own page", async () => {
    const reporter = await createTestUser(t.deps.db, { name: "Profile Reporter" });
    const browser = await signedIn(reporter);
    const profile = `/profile/${otherId}`;
    const page = await browser.open(profile);
    expect(forms(page.body)).toContainEqual({
      method: "post",
      action: profile,
      hidden: false,
      csrf: browser.xsrf,
    });
    const fields = reportFields(browser, { item_type: "user", item_id: String(otherId) });
    const response = await browser.postForm(profile, fields);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(REPORT_MESSAGES.sent);
    expect(await reportsBy(reporter)).toEqual([
      { item_type: "user", item_id: String(otherId), reason: "spam" },
    ]);
    // The profile's form is a report only: a comment posted there is not taken.
    const before = await commentCount();
    const comment = await browser.postForm(profile, commentFields(browser));
    expect(comment.statusCode).toBe(400);
    expect(await commentCount()).toBe(before);
    // A visitor's copy of the profile carries no token.
    const visitor = await t.app.inject({ method: "GET", url: profile });
    expect(forms(visitor.body).every((form) => form.csrf === null)).toBe(true);
  });

  it("refuses a post without the token, and a visitor", async () => {
    const reporter = await createTestUser(t.deps.db, { name: "Tokenless Reporter" });
    const browser = await signedIn(reporter);
    await browser.open(deal.path);
    const { _csrf: _token, ...fields } = reportFields(browser);
    expect((await browser.postForm(deal.path, fields)).statusCode).toBe(403);
    const visitor = new FormBrowser(t.app);
    await visitor.open("/contact");
    expect((await visitor.postForm(deal.path, reportFields(visitor))).statusCode).toBe(401);
    expect(await reportsBy(reporter)).toEqual([]);
  });
});

/** A browser without JavaScript sending a multipart form (the Submit Deals forms). */
async function postMultipart(
  browser: FormBrowser,
  url: string,
  fields: Record<string, string>,
  file?: FilePart,
) {
  const { payload, headers } = await multipartBody(fields, file);
  return browser.request({ method: "POST", url, headers, payload, xsrf: false });
}

let linkCounter = 0;
function dealFields(browser: FormBrowser, extra: Record<string, string> = {}) {
  linkCounter += 1;
  return {
    _csrf: browser.xsrf,
    intent: "deal",
    deal_category: String(ids.dealCategory),
    store_id: String(ids.store),
    category_id: String(ids.category),
    title: `Glue sticks without scripts ${linkCounter}`,
    price: "4.50",
    discount: "",
    link: `https://www.example-shop.com/p/glue-${linkCounter}-${Date.now()}`,
    expiry: "",
    coupon_code: "",
    deal_image: "",
    // The editor's plain textarea: text, made into paragraphs as the editor's fallback makes it.
    deal_description: "Cheap glue sticks.\n\n<script>alert(1)</script> for class",
    ...extra,
  };
}

function postsTitled(title: string) {
  return t.deps.db
    .selectFrom("posts")
    .select(["user_id", "description", "image_url", "post_type"])
    .where("title", "=", title)
    .execute();
}

describe("the Submit Deals forms, posted without JavaScript", () => {
  it("are multipart forms posting to the page with the member's token", async () => {
    const browser = await signedIn();
    const page = await browser.open("/submitdeal?tab=discussion");
    const posting = forms(page.body).filter((form) => form.method === "post");
    expect(posting).toContainEqual({
      method: "post",
      action: "/submitdeal?tab=discussion",
      hidden: false,
      csrf: browser.xsrf,
    });
    expect(page.body).toMatch(/<form[^>]*enctype="multipart\/form-data"/i);
    // The description is posted from the editor's plain textarea.
    expect(page.body).toMatch(/<textarea[^>]*name="detail"/);
  });

  it("posts a deal as the session's user, sanitised by the call's service", async () => {
    const browser = await signedIn();
    await browser.open("/submitdeal");
    const fields = dealFields(browser, { user_id: String(otherId) });
    const response = await postMultipart(browser, "/submitdeal", fields);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(SUBMIT_MESSAGES.dealSubmitted);
    expect(response.body).toContain("View your post.");
    const [stored] = await postsTitled(fields.title);
    expect(stored).toMatchObject({ user_id: memberId, post_type: "d" });
    expect(stored!.description).toMatch(/^<p>Cheap glue sticks\.<\/p><p>/);
    expect(stored!.description).not.toContain("<script");
  });

  it("posts a discussion with an image file, as the call stores it", async () => {
    const browser = await signedIn();
    await browser.open("/submitdeal?tab=discussion");
    const title = `A discussion without scripts ${Date.now()}`;
    const response = await postMultipart(
      browser,
      "/submitdeal?tab=discussion",
      {
        _csrf: browser.xsrf,
        intent: "discussion",
        forum_category_id: String(ids.discussionCategory),
        title,
        detail: "Which glue lasts longest?",
      },
      { name: "glue.png", type: "image/png", bytes: await pngImage() },
    );
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain(SUBMIT_MESSAGES.discussionSubmitted);
    const [stored] = await postsTitled(title);
    expect(stored).toMatchObject({ user_id: memberId, post_type: "g" });
    expect(stored!.description).toBe("<p>Which glue lasts longest?</p>");
    expect(stored!.image_url).toBeTruthy();
  });

  it("answers a bad form with 422 and the call's messages, keeps the text, and stores nothing", async () => {
    const browser = await signedIn();
    await browser.open("/submitdeal");
    const fields = dealFields(browser, { store_id: "", deal_description: "Kept text" });
    const response = await postMultipart(browser, "/submitdeal", fields);
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain("Please correct the fields marked below.");
    expect(response.body).toContain(DEAL_MESSAGES.store);
    expect(response.body).toMatch(/<textarea[^>]*name="deal_description"[^>]*>Kept text</);
    expect(await postsTitled(fields.title)).toEqual([]);

    const title = `No detail ${Date.now()}`;
    const discussion = await postMultipart(browser, "/submitdeal", {
      _csrf: browser.xsrf,
      intent: "discussion",
      forum_category_id: String(ids.discussionCategory),
      title,
      detail: "  ",
    });
    expect(discussion.statusCode).toBe(422);
    expect(discussion.body).toContain(DISCUSSION_MESSAGES.description);
    expect(await postsTitled(title)).toEqual([]);
  });

  it("checks the file's bytes with the call's check", async () => {
    const browser = await signedIn();
    await browser.open("/submitdeal");
    const fields = dealFields(browser);
    const response = await postMultipart(browser, "/submitdeal", fields, {
      name: "fake.png",
      type: "image/png",
      bytes: Buffer.from("not an image at all"),
    });
    expect(response.statusCode).toBe(422);
    expect(response.body).toContain(IMAGE_MESSAGES.notImage);
    expect(await postsTitled(fields.title)).toEqual([]);
  });

  it("refuses a post without the token, and a visitor", async () => {
    const browser = await signedIn();
    await browser.open("/submitdeal");
    const { _csrf: _token, ...fields } = dealFields(browser);
    expect((await postMultipart(browser, "/submitdeal", fields)).statusCode).toBe(403);
    const visitor = new FormBrowser(t.app);
    await visitor.open("/contact");
    // The service refuses the visitor as the call does (401); the page's loader then sends them
    // to sign in, as it does on opening the page.
    const visitorFields = dealFields(visitor);
    const refused = await postMultipart(visitor, "/submitdeal", visitorFields);
    expect(refused.statusCode).toBe(302);
    expect(refused.headers.location).toMatch(/^\/login\?next=%2Fsubmitdeal/);
    expect(await postsTitled(fields.title)).toEqual([]);
    expect(await postsTitled(visitorFields.title)).toEqual([]);
  });
});

describe("a page post counts like its JSON call", () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ pages: true, seed: "none", env: { RATE_LIMIT: "on" } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it("comments: one allowance per account for the call and the page's box, apart from reports", async () => {
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, await createTestUser(limited.deps.db));
    const page = "/post/no-such-deal/slug";
    const empty = { post_id: "1", post_type: "d", comment_id: "", comment_text: "" };
    const half = Math.floor(RATE_LIMITS.comment.max / 2);
    for (let i = 0; i < half; i++) {
      expect((await browser.post("/api/product_add_comment", empty)).statusCode).toBe(422);
    }
    for (let i = half; i < RATE_LIMITS.comment.max; i++) {
      const response = await browser.postForm(page, {
        _csrf: browser.xsrf,
        intent: "comment",
        ...empty,
      });
      expect(response.statusCode).toBe(422);
    }
    const over = await browser.postForm(page, { _csrf: browser.xsrf, intent: "comment", ...empty });
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers["retry-after"])).toBeGreaterThan(0);
    expect((await browser.post("/api/product_add_comment", empty)).statusCode).toBe(429);
    // The same page's report form counts in the reports' group.
    const report = await browser.postForm(page, {
      _csrf: browser.xsrf,
      intent: "report",
      item_type: "d",
      item_id: "no-such-deal",
      reason: "",
    });
    expect(report.statusCode).toBe(422);
  });

  it("comment likes: one allowance per account for the call and the page's buttons", async () => {
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, await createTestUser(limited.deps.db));
    const page = "/post/no-such-deal/slug";
    const none = { comment_id: "987654321" };
    const half = Math.floor(RATE_LIMITS.commentLike.max / 2);
    for (let i = 0; i < half; i++) {
      expect((await browser.post("/api/comment_like", none)).statusCode).toBe(404);
    }
    for (let i = half; i < RATE_LIMITS.commentLike.max; i++) {
      const response = await browser.postForm(page, {
        _csrf: browser.xsrf,
        intent: "comment_like",
        ...none,
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await browser.post("/api/comment_like", none)).statusCode).toBe(429);
  });

  it("posts: one allowance per address for each kind, the call's and the form's", async () => {
    const browser = new FormBrowser(limited.app);
    await browser.signInAs(limited.deps.db, await createTestUser(limited.deps.db));
    const discussion = { _csrf: browser.xsrf, intent: "discussion", title: "" };
    for (let i = 0; i < RATE_LIMITS.postDiscussion.max - 1; i++) {
      const { payload, headers } = await multipartBody({ title: "" });
      const call = await browser.request({
        method: "POST",
        url: "/api/save_discussion",
        headers,
        payload,
      });
      expect(call.statusCode).toBe(422);
    }
    expect((await postMultipart(browser, "/submitdeal", discussion)).statusCode).toBe(422);
    expect((await postMultipart(browser, "/submitdeal", discussion)).statusCode).toBe(429);
    // The deal form is another kind of post, with its own allowance.
    const deal = await postMultipart(browser, "/submitdeal", { ...discussion, intent: "deal" });
    expect(deal.statusCode).toBe(422);
  });
});
