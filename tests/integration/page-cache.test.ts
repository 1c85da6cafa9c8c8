import { createHash } from "node:crypto";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChangeTopic } from "../../core/cache/changes.ts";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { signInWithRole } from "../helpers/console-staff.ts";
import { nonceOf, scriptSources } from "../helpers/csp.ts";
import type { TestClient } from "../helpers/session.ts";
import { establishMember } from "../helpers/users.ts";

/*
 * The page cache (server/plugins/page-cache.ts, docs/decisions/0049-page-cache.md) on the
 * production build. A page the cache served carries its ETag; a freshly rendered one streams
 * without (the ETag is computed as the copy goes into the cache), which is how these tests tell a
 * hit from a render.
 */

/** A visitor who has been here before: carries the XSRF cookie, so the answer sets none. */
const VISITOR = { [XSRF_COOKIE]: "returning-visitor-token-0123456789" };

function page(t: TestApp, url: string, cookies: Record<string, string> = VISITOR, headers = {}) {
  return t.app.inject({ method: "GET", url, cookies, headers });
}

/** Renders `url` into the cache and checks the next request is served from it. */
async function cached(t: TestApp, url: string, cookies: Record<string, string> = VISITOR) {
  await page(t, url, cookies);
  const hit = await page(t, url, cookies);
  expect(hit.statusCode, url).toBe(200);
  expect(hit.headers.etag, `${url} is served from the cache`).toBeTruthy();
  return hit;
}

/** The next request for `url` renders afresh. */
async function rendered(t: TestApp, url: string) {
  const response = await page(t, url);
  expect(response.statusCode, url).toBe(200);
  expect(response.headers.etag, `${url} is rendered afresh`).toBeUndefined();
  return response;
}

/** Resolves when `t` hears a change of `topic` made by another process. */
function nextRemoteChange(t: TestApp, topic: ChangeTopic): Promise<void> {
  return new Promise((resolve) => {
    const off = t.deps.changes.on(topic, (_topic, origin) => {
      if (origin !== "remote") return;
      off();
      resolve();
    });
  });
}

describe("the page cache", () => {
  let t: TestApp;
  let member: { id: number; client: TestClient };
  let moderator: { id: number; client: TestClient };
  const ids = { dealCategory: 0, store: 0, category: 0 };
  let posted = 0;

  beforeAll(async () => {
    t = await createTestApp({ pages: true });
    member = await signInWithRole(t, "member", "Cache Page Member");
    // Its deals carry links and must publish at once: a member past the newcomer rules.
    await establishMember(t.deps.db, member.id);
    moderator = await signInWithRole(t, "moderator", "Cache Page Moderator");
    const db = t.deps.db;
    ids.dealCategory = (
      await db
        .selectFrom("forum_categories")
        .select("id")
        .where("kind", "=", "deal")
        .executeTakeFirstOrThrow()
    ).id;
    ids.store = (await db.selectFrom("stores").select("id").executeTakeFirstOrThrow()).id;
    ids.category = (await db.selectFrom("categories").select("id").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => {
    await t?.close();
  });

  async function postDeal(title: string): Promise<{ id: number; uniqueId: string; url: string }> {
    posted += 1;
    const response = await member.client.post("/api/save_deal", {
      user_id: member.id,
      deal_category: ids.dealCategory,
      store_id: ids.store,
      category_id: ids.category,
      title,
      price: "9.99",
      discount: "10",
      link: `https://page-cache.example/deal-${posted}-${Date.now()}`,
      type: "d",
      deal_description: "<p>Fresh from the page cache test.</p>",
    });
    expect(response.statusCode, response.body).toBe(200);
    const row = await t.deps.db
      .selectFrom("posts")
      .select(["id", "unique_id", "slug"])
      .where("title", "=", title)
      .executeTakeFirstOrThrow();
    return { id: row.id, uniqueId: row.unique_id, url: `/post/${row.unique_id}/${row.slug}` };
  }

  it("streams a miss without an ETag, then serves the stored page with its ETag and a 304", async () => {
    const miss = await page(t, "/?case=etag");
    expect(miss.statusCode).toBe(200);
    expect(miss.headers.etag).toBeUndefined();
    expect(miss.headers["transfer-encoding"]).toBe("chunked");
    expect(miss.headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
    );
    const hit = await cached(t, "/?case=etag");
    expect(hit.headers["cache-control"]).toBe(miss.headers["cache-control"]);
    expect(hit.headers.vary).toMatch(/Cookie/);
    // The stored render, byte for byte.
    expect(hit.body).toBe(miss.body);

    const revalidated = await page(t, "/?case=etag", VISITOR, {
      "if-none-match": hit.headers.etag as string,
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe("");
    expect(revalidated.headers["content-security-policy"]).toBeUndefined();
  });

  it("admits a hit's own scripts by their hashes, with no nonce, the same policy every time", async () => {
    const miss = await page(t, "/?case=hashes");
    const nonce = nonceOf(miss.headers["content-security-policy"]);
    // The inline scripts the render gave its nonce (React Router's, React's, the entry's).
    const own = [...miss.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
      .filter(([, attributes]) => attributes!.includes(` nonce="${nonce}"`))
      .filter(([, attributes]) => !/\ssrc=/.test(attributes!))
      .map(([, , text]) => `'sha256-${createHash("sha256").update(text!).digest("base64")}'`);
    expect(own.length).toBeGreaterThan(2);
    const hits = [await cached(t, "/?case=hashes"), await cached(t, "/?case=hashes")];
    for (const hit of hits) {
      const policy = String(hit.headers["content-security-policy"]);
      expect(policy).not.toContain("'nonce-");
      expect(scriptSources(policy).split(/\s+/)).toEqual([
        "'self'",
        ...new Set(own),
        "https://js.stripe.com",
      ]);
      expect(hit.body).toBe(miss.body);
    }
    expect(hits[1]!.headers["content-security-policy"]).toBe(
      hits[0]!.headers["content-security-policy"],
    );
  });

  it("sends a hit in brotli or gzip as asked, each compressed once, and plain when not asked", async () => {
    const plain = await cached(t, "/?case=encodings");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    const compressed = new Map<string, Buffer>();
    for (const [asked, encoding] of [
      ["gzip, deflate, br, zstd", "br"],
      ["br;q=0, gzip", "gzip"],
      ["gzip", "gzip"],
      ["br", "br"],
    ] as const) {
      const hit = await page(t, "/?case=encodings", VISITOR, { "accept-encoding": asked });
      expect(hit.headers.etag, asked).toBe(plain.headers.etag);
      expect(hit.headers["content-encoding"], asked).toBe(encoding);
      expect(hit.headers.vary).toMatch(/Accept-Encoding/);
      expect(Number(hit.headers["content-length"])).toBe(hit.rawPayload.length);
      const body =
        encoding === "br"
          ? zlib.brotliDecompressSync(hit.rawPayload)
          : zlib.gunzipSync(hit.rawPayload);
      expect(body.toString("utf8"), asked).toBe(plain.body);
      // The same bytes each time: made once, kept with the page.
      if (compressed.has(encoding))
        expect(hit.rawPayload.equals(compressed.get(encoding)!)).toBe(true);
      compressed.set(encoding, hit.rawPayload);
    }
    const identity = await page(t, "/?case=encodings", VISITOR, { "accept-encoding": "identity" });
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.body).toBe(plain.body);
    const revalidated = await page(t, "/?case=encodings", VISITOR, {
      "accept-encoding": "br",
      "if-none-match": plain.headers.etag as string,
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers["content-encoding"]).toBeUndefined();
  });

  it("keeps the theme variants apart", async () => {
    const dark = await cached(t, "/?case=theme", { ...VISITOR, theme: "dark" });
    expect(dark.body).toContain('data-theme="dark"');
    const light = await cached(t, "/?case=theme", { ...VISITOR, theme: "light" });
    expect(light.body).toContain('data-theme="light"');
    const system = await cached(t, "/?case=theme");
    expect(system.body).not.toMatch(/<html[^>]*data-theme/);
    expect(system.headers.etag).not.toBe(dark.headers.etag);
  });

  it("never serves a signed-in member from the cache, nor stores their page", async () => {
    await cached(t, "/?case=member");
    const mine = await member.client.get("/?case=member");
    expect(mine.statusCode).toBe(200);
    expect(mine.headers.etag).toBeUndefined();
    expect(mine.headers["cache-control"]).toBe("private, no-cache");
    expect(mine.body).toContain("My Account");
    const again = await member.client.get("/?case=member");
    expect(again.headers.etag).toBeUndefined();
    // A bearer token is a signed-in member too.
    const bearer = await t.app.inject({
      method: "GET",
      url: "/?case=member",
      headers: { authorization: "Bearer not-a-live-session" },
    });
    expect(bearer.headers.etag).toBeUndefined();
  });

  it("does not store an answer that sets a cookie", async () => {
    // The logout page's form asks for an XSRF token, which a first visit is sent as a cookie.
    for (let i = 0; i < 2; i++) {
      const first = await page(t, "/logout", {});
      expect(first.cookies.some((c) => c.name === XSRF_COOKIE)).toBe(true);
      expect(first.headers.etag).toBeUndefined();
    }
    // A returning visitor's request still renders: nothing was stored.
    await rendered(t, "/logout");
  });

  it("shows a new post, a like, a comment, a setting and a moderation on the next request", async () => {
    await cached(t, "/newdeals");
    const deal = await postDeal("Page cache: fresh glue sticks");
    expect((await rendered(t, "/newdeals")).body).toContain("Page cache: fresh glue sticks");

    await cached(t, deal.url);
    const liked = await member.client.post("/api/product_like_unlike", {
      user_id: member.id,
      post_id: deal.id,
      post_type: "d",
      btn_type: "like",
    });
    expect(liked.statusCode).toBe(200);
    await rendered(t, deal.url);

    await cached(t, deal.url);
    const commented = await member.client.post("/api/product_add_comment", {
      user_id: member.id,
      post_id: deal.id,
      post_type: "d",
      comment_text: "Page cache comment: bought three.",
    });
    expect(commented.statusCode).toBe(201);
    expect((await rendered(t, deal.url)).body).toContain("Page cache comment: bought three.");

    const site = await t.services.settings.get();
    await cached(t, "/");
    await t.services.settings.updateGeneral({ website_name: "Page Cache Deals" });
    expect((await rendered(t, "/")).body).toContain("Page Cache Deals");
    await t.services.settings.updateGeneral({ website_name: site.websiteName });

    await cached(t, deal.url);
    const hidden = await moderator.client.post("/api/admin/moderate", {
      item_type: "d",
      item_id: deal.uniqueId,
      action: "hide",
      reason: "",
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    const gone = await page(t, deal.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).not.toContain("Page cache comment: bought three.");
  });

  it("counts each visitor's view of a deal page it serves from the cache", async () => {
    const deal = await postDeal("Page cache: counted rulers");
    const views = async () =>
      (
        await t.deps.db
          .selectFrom("posts")
          .select("views")
          .where("id", "=", deal.id)
          .executeTakeFirstOrThrow()
      ).views;
    const browser = (n: number) => ({ "user-agent": `Mozilla/5.0 (X11; Linux) Visitor/${n}` });
    await page(t, deal.url, VISITOR, browser(1));
    const hit = await page(t, deal.url, VISITOR, browser(2));
    expect(hit.headers.etag).toBeTruthy();
    // A cached answer notes its view; the noted views are written together (within a second,
    // view-buffer.test.ts times it), here at once: polling for 1 s raced the 1 s timer.
    await t.services.posts.flushViews();
    expect(await views()).toBe(2);
    await page(t, deal.url, VISITOR, browser(2)); // the same visitor the same day: once
    await page(t, deal.url, VISITOR, browser(3));
    await t.services.posts.flushViews();
    expect(await views()).toBe(3);
  });

  it("shows a follower on a profile page on the next request", async () => {
    const profile = `/profile/${member.id}`;
    await cached(t, profile);
    const followed = await moderator.client.post("/api/profile_follow", {
      loggedin_user_id: moderator.id,
      user_id: member.id,
      status: "Follow",
    });
    expect(followed.statusCode, followed.body).toBe(200);
    expect((await rendered(t, profile)).body).toContain("Cache Page Moderator");
  });
});

describe.runIf(process.env.DATABASE_URL)("two server processes on one PostgreSQL database", () => {
  const env = { DATABASE_URL: process.env.DATABASE_URL! };

  async function dropsAcross(one: TestApp, other: TestApp, name: string) {
    const site = await other.services.settings.get();
    await cached(other, "/?case=across");
    const heard = nextRemoteChange(other, "settings");
    await one.services.settings.updateGeneral({ website_name: name });
    await heard;
    expect((await rendered(other, "/?case=across")).body).toContain(name);
    // The services' own caches dropped too: the settings the other process reads are new.
    expect((await other.services.settings.get()).websiteName).toBe(name);
    await one.services.settings.updateGeneral({ website_name: site.websiteName });
  }

  it("a write in one drops the other's pages, through LISTEN/NOTIFY", async () => {
    const one = await createTestApp({ pages: true, env });
    const other = await createTestApp({ pages: true, env, sameDatabaseAs: one });
    try {
      await dropsAcross(one, other, "Notified Deals");
      await dropsAcross(other, one, "Notified Back Deals");
    } finally {
      await other.close();
      await one.close();
    }
  });
});
