import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUBMIT_MESSAGES } from "../../core/constants.ts";
import { CONFIRM_EMAIL_FIRST } from "../../core/auth/policy.ts";
import { DEAL_MESSAGES, DISCUSSION_MESSAGES } from "../../core/posts/submissions/schema.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { startLocalHttps, type LocalHttps } from "../helpers/local-https.ts";
import { mediaFiles, multipartBody, pngImage } from "../helpers/multipart.ts";
import { TestClient } from "../helpers/session.ts";

let t: TestApp;
/** Serves the image links of this file's deals, on 127.0.0.1 (the tests' loopback switch). */
let images: LocalHttps;
let poster: TestClient;
let posterId: number;
let otherUserId: number;
const ids = { dealCategory: 0, discussionCategory: 0, store: 0, category: 0 };

beforeAll(async () => {
  const png = await pngImage(64, 48);
  images = await startLocalHttps((_request, response) => {
    response.writeHead(200, { "content-type": "image/png" });
    response.end(png);
  });
  t = await createTestApp({ env: { LINK_CHECK_ALLOW_LOOPBACK: "on" } });
  const db = t.deps.db;
  const users = await db.selectFrom("users").select("id").orderBy("id").limit(3).execute();
  posterId = users[1]!.id;
  otherUserId = users[2]!.id;
  poster = new TestClient(t.app);
  await poster.signInAs(db, posterId);
  const kinds = await db
    .selectFrom("forum_categories")
    .select(["id", "kind"])
    .orderBy("id")
    .execute();
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
  await images?.close();
});

let linkCounter = 0;
/** A valid deal form; each call gets a link of its own unless one is given. */
function dealFields(extra: Record<string, string | number> = {}) {
  linkCounter += 1;
  return {
    user_id: posterId,
    deal_category: ids.dealCategory,
    store_id: ids.store,
    category_id: ids.category,
    title: "Crayola 64-count crayons, back-to-school price",
    price: "3.97",
    discount: "20",
    link: `https://www.example-shop.com/p/crayons-${linkCounter}-${Date.now()}`,
    type: "d",
    deal_description: "<p>Great for <strong>classrooms</strong>.</p>",
    ...extra,
  };
}

async function postForm(
  client: TestClient,
  url: string,
  fields: Record<string, string | number>,
  file?: Parameters<typeof multipartBody>[1],
  extra: { xsrf?: boolean } = {},
) {
  const body = await multipartBody(fields, file);
  return client.request({
    method: "POST",
    url,
    payload: body.payload,
    headers: body.headers,
    ...extra,
  });
}

function findPost(uniqueId: string) {
  return t.deps.db
    .selectFrom("posts")
    .selectAll()
    .where("unique_id", "=", uniqueId)
    .executeTakeFirstOrThrow();
}

describe("GET /api/submit_deal", () => {
  it("answers the four lists of {id, title} the forms choose from", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/submit_deal" });
    expect(response.statusCode).toBe(200);
    const { response: lists } = response.json();
    for (const key of ["forum_category_deal", "store", "category", "forum_category_discussion"]) {
      expect(lists[key].length, key).toBeGreaterThan(0);
      for (const item of lists[key]) expect(Object.keys(item).sort()).toEqual(["id", "title"]);
    }
    const dealKinds = await t.deps.db
      .selectFrom("forum_categories")
      .select("id")
      .where("kind", "=", "deal")
      .execute();
    expect(lists.forum_category_deal.map((c: { id: number }) => c.id).sort()).toEqual(
      dealKinds.map((c) => c.id).sort(),
    );
    expect(
      lists.forum_category_discussion.some((c: { id: number }) => c.id === ids.dealCategory),
    ).toBe(false);
    const storeCount = await t.deps.db
      .selectFrom("stores")
      .select(t.deps.db.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(lists.store.length).toBe(Number(storeCount.n));
  });
});

describe("POST /api/save_deal", () => {
  it("posts a deal with an uploaded image, live in the recent deals at once", async () => {
    await t.app.inject({ method: "POST", url: "/api/home", payload: {} }); // warm the count cache
    const before = mediaFiles(t.mediaDir, "deals");
    const response = await postForm(
      poster,
      "/api/save_deal",
      dealFields({ expiry: "2999-12-31" }),
      {
        name: "crayons.png",
        type: "image/png",
        bytes: await pngImage(),
      },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe("true");
    expect(body.message).toBe(SUBMIT_MESSAGES.dealSubmitted);
    expect(body.response.url).toBe(
      `/post/${body.response.unique_id}/crayola-64-count-crayons-back-to-school-price`,
    );

    const post = await findPost(body.response.unique_id);
    expect(post).toMatchObject({
      post_type: "d",
      kind: "deal",
      status: "active",
      user_id: posterId,
      forum_category_id: ids.dealCategory,
      store_id: ids.store,
      category_id: ids.category,
      price: 3.97,
      discount: 20,
      description: "<p>Great for <strong>classrooms</strong>.</p>",
      description_text: "Great for classrooms.",
    });
    expect(post.link_key).toMatch(/^example-shop\.com\/p\/crayons-/);
    expect(post.expires_at!.toISOString()).toBe("3000-01-01T12:00:00.000Z");
    expect(post.hot_score).toBeGreaterThan(0);
    // Named with its size; beside it, its responsive variants (64 px wide: one width, two formats).
    expect(post.image_url).toMatch(/^\/media\/deals\/[\w-]+\.64x48\.webp$/);

    const after = mediaFiles(t.mediaDir, "deals");
    expect(after.length).toBe(before.length + 3);
    const media = await t.deps.db
      .selectFrom("media")
      .selectAll()
      .where("path", "=", post.image_url.replace("/media/", ""))
      .executeTakeFirstOrThrow();
    expect(media).toMatchObject({ user_id: posterId, mime: "image/webp", width: 64, height: 48 });
    const served = await t.app.inject({ method: "GET", url: post.image_url });
    expect(served.statusCode).toBe(200);

    const home = (await t.app.inject({ method: "POST", url: "/api/home", payload: {} })).json();
    expect(home.recent_deals.recent_arr[0].unique_id).toBe(body.response.unique_id);
  });

  it("posts a coupon when a coupon code is given, with a copy of the image link", async () => {
    const response = await postForm(
      poster,
      "/api/save_deal",
      dealFields({
        coupon_code: " TEACH20 ",
        deal_image: `${images.named}/coupon.png`,
        price: "",
        discount: "",
      }),
    );
    expect(response.statusCode).toBe(200);
    const post = await findPost(response.json().response.unique_id);
    expect(post).toMatchObject({
      kind: "coupon",
      coupon_code: "TEACH20",
      price: null,
      discount: null,
      expires_at: null,
    });
    // The link is copied once into the site's media, with the variants of an upload
    // (docs/decisions/0074-images-in-user-html.md): viewers never load it from its address.
    expect(post.image_url).toMatch(/^\/media\/deals\/[\w-]+\.64x48\.webp$/);
  });

  it("accepts a JSON body from clients that send no file", async () => {
    const response = await poster.post("/api/save_deal", dealFields({ title: "JSON deal" }));
    expect(response.statusCode).toBe(200);
    expect((await findPost(response.json().response.unique_id)).title).toBe("JSON deal");
  });

  it("answers every missing required field with its message", async () => {
    const response = await postForm(poster, "/api/save_deal", {
      user_id: posterId,
      deal_description: "<p> </p>",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      status: false,
      errors: {
        deal_category: DEAL_MESSAGES.dealCategory,
        store_id: DEAL_MESSAGES.store,
        category_id: DEAL_MESSAGES.category,
        title: DEAL_MESSAGES.title,
        deal_description: DEAL_MESSAGES.description,
      },
    });
  });

  it("refuses bad optional fields and unknown choices", async () => {
    const response = await postForm(
      poster,
      "/api/save_deal",
      dealFields({
        price: "cheap",
        discount: "150",
        link: "javascript:alert(1)",
        deal_image: "http://insecure.example.com/a.png",
        expiry: "2001-01-01",
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      price: DEAL_MESSAGES.price,
      discount: DEAL_MESSAGES.discount,
      link: DEAL_MESSAGES.link,
      deal_image: DEAL_MESSAGES.imageLink,
      expiry: DEAL_MESSAGES.expiryPast,
    });

    const unknown = await postForm(
      poster,
      "/api/save_deal",
      dealFields({
        deal_category: ids.discussionCategory,
        store_id: 99999999,
        category_id: 99999999,
      }),
    );
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors).toEqual({
      deal_category: DEAL_MESSAGES.dealCategory,
      store_id: DEAL_MESSAGES.store,
      category_id: DEAL_MESSAGES.category,
    });
  });

  it("a description that sanitises to nothing counts as missing", async () => {
    const response = await postForm(
      poster,
      "/api/save_deal",
      dealFields({
        deal_description: "<script>alert('x')</script><iframe src='https://evil.example'></iframe>",
      }),
    );
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({ deal_description: DEAL_MESSAGES.description });
  });
});

describe("duplicate deals", () => {
  it("points a second post of the same link to the live deal, storing nothing", async () => {
    const first = await postForm(
      poster,
      "/api/save_deal",
      dealFields({ link: "https://www.example-shop.com/p/laminator?utm_source=news" }),
    );
    expect(first.statusCode).toBe(200);
    const original = first.json().response;

    const postsBefore = await t.deps.db
      .selectFrom("posts")
      .select(t.deps.db.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const filesBefore = mediaFiles(t.mediaDir, "deals");
    const again = await postForm(
      poster,
      "/api/save_deal",
      dealFields({
        title: "Same laminator",
        link: "https://example-shop.com/p/laminator/?ref=abc",
      }),
      { name: "l.png", type: "image/png", bytes: await pngImage() },
    );
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      status: false,
      message: SUBMIT_MESSAGES.duplicateDeal,
      duplicate: {
        unique_id: original.unique_id,
        slug: original.slug,
        title: original.title,
        url: `/post/${original.unique_id}/${original.slug}`,
      },
    });
    const postsAfter = await t.deps.db
      .selectFrom("posts")
      .select(t.deps.db.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(postsAfter.n)).toBe(Number(postsBefore.n));
    expect(mediaFiles(t.mediaDir, "deals")).toEqual(filesBefore);
  });

  it("an expired or removed deal with the same link does not block a new one", async () => {
    const link = "https://example-shop.com/p/glue-sticks";
    const first = await postForm(poster, "/api/save_deal", dealFields({ link }));
    const uniqueId = first.json().response.unique_id;
    await t.deps.db
      .updateTable("posts")
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where("unique_id", "=", uniqueId)
      .execute();
    const second = await postForm(poster, "/api/save_deal", dealFields({ link }));
    expect(second.statusCode).toBe(200);
    await t.deps.db
      .updateTable("posts")
      .set({ status: "removed" })
      .where("unique_id", "=", second.json().response.unique_id)
      .execute();
    const third = await postForm(poster, "/api/save_deal", dealFields({ link }));
    expect(third.statusCode).toBe(200);
  });

  it("two simultaneous posts of one link make one deal", async () => {
    const link = `https://example-shop.com/p/race-${Date.now()}`;
    const answers = await Promise.all([
      postForm(poster, "/api/save_deal", dealFields({ link })),
      postForm(poster, "/api/save_deal", dealFields({ link })),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
  });
});

describe("POST /api/save_discussion", () => {
  it("posts a discussion in the educators' forum with an image", async () => {
    const response = await postForm(
      poster,
      "/api/save_discussion",
      {
        user_id: posterId,
        forum_category_id: ids.discussionCategory,
        title: "Best pencil sharpener for a 2nd-grade room?",
        detail: "<p>We break one a month.</p><ul><li>Quiet</li><li>Cheap</li></ul>",
      },
      { name: "s.png", type: "image/png", bytes: await pngImage(30, 30) },
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.message).toBe(SUBMIT_MESSAGES.discussionSubmitted);
    expect(body.response.url).toBe(
      `/educator/${body.response.unique_id}/best-pencil-sharpener-for-a-2nd-grade-room`,
    );
    const post = await findPost(body.response.unique_id);
    expect(post).toMatchObject({
      post_type: "g",
      kind: "discussion",
      status: "active",
      user_id: posterId,
      forum_category_id: ids.discussionCategory,
      store_id: null,
      category_id: null,
      description: "<p>We break one a month.</p><ul><li>Quiet</li><li>Cheap</li></ul>",
      description_text: "We break one a month.QuietCheap",
    });
    expect(post.image_url).toMatch(/^\/media\/discussions\/[\w-]+\.\d+x\d+\.webp$/);
    expect(fs.existsSync(path.join(t.mediaDir, post.image_url.replace("/media/", "")))).toBe(true);
  });

  it("needs a discussion category, a title and a description", async () => {
    const response = await postForm(poster, "/api/save_discussion", {
      user_id: posterId,
      forum_category_id: ids.dealCategory,
      title: " ",
      detail: "",
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      title: DISCUSSION_MESSAGES.title,
      detail: DISCUSSION_MESSAGES.description,
    });
    const wrongKind = await postForm(poster, "/api/save_discussion", {
      forum_category_id: ids.dealCategory,
      title: "A title",
      detail: "<p>Text</p>",
    });
    expect(wrongKind.statusCode).toBe(422);
    expect(wrongKind.json().errors).toEqual({ forum_category_id: DISCUSSION_MESSAGES.category });
  });
});

describe("who may post", () => {
  const calls = [
    ["/api/save_deal", () => dealFields()],
    [
      "/api/save_discussion",
      () => ({
        user_id: posterId,
        forum_category_id: ids.discussionCategory,
        title: "T",
        detail: "<p>D</p>",
      }),
    ],
  ] as const;

  for (const [url, fields] of calls) {
    it(`${url}: no session is 401`, async () => {
      const response = await postForm(new TestClient(t.app), url, fields());
      expect(response.statusCode).toBe(401);
      expect(response.json().status).toBe(false);
    });

    it(`${url}: a payload naming another user is 403`, async () => {
      const response = await postForm(poster, url, { ...fields(), user_id: otherUserId });
      expect(response.statusCode).toBe(403);
    });

    it(`${url}: a cookie session without the XSRF header is 403`, async () => {
      const response = await postForm(poster, url, fields(), undefined, { xsrf: false });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toMatch(/XSRF/);
    });

    it(`${url}: an unconfirmed account may not post`, async () => {
      const user = await t.deps.db
        .insertInto("users")
        .values({
          name: "New Member",
          email: `new-${url.length}-${Date.now()}@example.com`,
          password_hash: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const client = new TestClient(t.app);
      await client.signInAs(t.deps.db, user.id);
      const response = await postForm(client, url, { ...fields(), user_id: user.id });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(CONFIRM_EMAIL_FIRST);
    });
  }
});

describe("user HTML is stored inert", () => {
  const corpus = [
    `<p>ok</p><script>alert(1)</script>`,
    `<img src="x" onerror="alert(1)">`,
    `<a href="javascript:alert(1)">click</a>`,
    `<a href="JaVaScRiPt:alert(1)">click2</a>`,
    `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data</a>`,
    `<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">`,
    `<svg onload="alert(1)"><circle r="1"/></svg>`,
    `<iframe src="https://evil.example/"></iframe>`,
    `<p style="background:url(javascript:alert(1))" onclick="alert(1)">styled</p>`,
    `<div onmouseover="alert(1)">hover</div>`,
    `<object data="x.swf"></object><embed src="x.swf">`,
    `<a href="https://example.com" target="_self" rel="opener">fine link</a>`,
  ].join("\n");

  function expectInert(html: string) {
    expect(html).not.toMatch(/<script|<iframe|<svg|<object|<embed|<style/i);
    expect(html).not.toMatch(/\son\w+\s*=/i);
    expect(html).not.toMatch(/javascript:|data:/i);
    expect(html).not.toMatch(/style=/i);
    expect(html).toContain(
      `<a href="https://example.com" target="_blank" rel="nofollow ugc noopener">fine link</a>`,
    );
  }

  it("through a deal description", async () => {
    const response = await postForm(
      poster,
      "/api/save_deal",
      dealFields({ deal_description: corpus }),
    );
    expect(response.statusCode).toBe(200);
    const post = await findPost(response.json().response.unique_id);
    expectInert(post.description);
    expect(post.description_text).not.toMatch(/alert/);
  });

  it("through a discussion's detail", async () => {
    const response = await postForm(poster, "/api/save_discussion", {
      forum_category_id: ids.discussionCategory,
      title: "XSS corpus",
      detail: corpus,
    });
    expect(response.statusCode).toBe(200);
    expectInert((await findPost(response.json().response.unique_id)).description);
  });
});

describe("rate limit", () => {
  it("answers 429 with Retry-After once the posting limit is used up", async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT: "on" } });
    try {
      const client = new TestClient(limited.app);
      const user = await limited.deps.db
        .selectFrom("users")
        .select("id")
        .orderBy("id")
        .offset(1)
        .executeTakeFirstOrThrow();
      await client.signInAs(limited.deps.db, user.id);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        // Invalid forms are cheap and still count against the limit.
        statuses.push((await postForm(client, "/api/save_discussion", { title: "" })).statusCode);
      }
      expect(statuses.slice(0, 10).every((s) => s === 422)).toBe(true);
      const last = await postForm(client, "/api/save_discussion", { title: "" });
      expect(last.statusCode).toBe(429);
      expect(Number(last.headers["retry-after"])).toBeGreaterThan(0);
      expect(last.json().status).toBe(false);
    } finally {
      await limited.close();
    }
  });
});
