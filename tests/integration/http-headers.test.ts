import zlib from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { nonceOf, scriptSources } from "../helpers/csp.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Pages carry the server's clock to the minute (core/time/page-clock.ts), so two requests are the
 * same page only within one minute: these checks start one second into a minute.
 */
function startOfAMinute() {
  vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / 60_000) * 60_000 + 1_000);
}

/**
 * The security headers (server/plugins/security-headers.ts) and HTTP caching
 * (server/plugins/http-cache.ts) of pages and calls, on the production build.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
});
afterAll(async () => {
  await t?.close();
});

/** A visitor who has opened the login form before: carries its XSRF cookie, which pages ignore. */
async function returningVisitor(): Promise<Record<string, string>> {
  const first = await t.app.inject({ method: "GET", url: "/login" });
  const token = first.cookies.find((c) => c.name === XSRF_COOKIE)?.value;
  expect(token).toBeTruthy();
  return { [XSRF_COOKIE]: token! };
}

/** Every inline <script> of the page: its opening tag's attributes and its body. */
function inlineScripts(html: string) {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)([^>]*)>([\s\S]*?)<\/script>/gi)].map((m) => ({
    attributes: m[1]!,
    body: m[2]!,
  }));
}

describe("security headers", () => {
  it("sends a Content-Security-Policy and the usual security headers on pages and calls", async () => {
    for (const url of ["/", "/api/social", "/no-such-page"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["content-security-policy"]).toMatch(/default-src 'self'/);
      expect(response.headers["content-security-policy"]).toMatch(/object-src 'none'/);
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
      expect(response.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    }
  });

  it("allows a rendered page's own scripts by a nonce that is new on every render", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 3; i++) {
      // Each address once, so each is rendered (a page-cache hit is admitted by hashes instead).
      const response = await t.app.inject({ method: "GET", url: `/?render=${i}` });
      expect(response.headers.etag).toBeUndefined();
      const policy = response.headers["content-security-policy"] as string;
      const sources = scriptSources(policy);
      expect(sources).not.toMatch(/'sha(256|384|512)-/);
      expect(sources).not.toContain("'unsafe-inline'");
      expect(sources).not.toContain("'unsafe-eval'");
      const nonce = nonceOf(policy);
      nonces.add(nonce);
      // React Router's scripts (hydration data, module bootstrap) carry exactly that nonce.
      const scripts = inlineScripts(response.body);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) expect(script.attributes).toContain(`nonce="${nonce}"`);
    }
    expect(nonces.size).toBe(3);
  });

  it("JSON calls allow no inline script at all", async () => {
    const response = await t.app.inject({ method: "GET", url: "/api/social" });
    expect(scriptSources(response.headers["content-security-policy"] as string)).toBe("'self'");
  });

  it("JSON-LD is data: it may go without the nonce, every executable script has it", async () => {
    const home = (await t.app.inject({ method: "POST", url: "/api/home" })).json();
    const deal = home.recent_deals.recent_arr[0];
    const response = await t.app.inject({
      method: "GET",
      url: `/post/${deal.unique_id}/${deal.slug}`,
    });
    expect(response.statusCode).toBe(200);
    const nonce = nonceOf(response.headers["content-security-policy"] as string);
    const scripts = inlineScripts(response.body);
    const data = scripts.filter((s) => s.attributes.includes('type="application/ld+json"'));
    expect(data.length).toBeGreaterThan(0);
    for (const script of data) expect(() => JSON.parse(script.body)).not.toThrow();
    for (const script of scripts.filter((s) => !data.includes(s))) {
      expect(script.attributes).toContain(`nonce="${nonce}"`);
    }
  });

  it("a script that reached the page's content gets neither the nonce nor a hash", async () => {
    // The privacy policy is owner-written HTML the page renders as is: stand-in for any markup
    // that slips past the sanitiser.
    const injected = "window.__injectedByContent = true;";
    const page = await t.deps.db
      .selectFrom("cms_pages")
      .select("detail")
      .where("slug", "=", "privacy-policy")
      .executeTakeFirstOrThrow();
    await t.deps.db
      .updateTable("cms_pages")
      .set({
        detail: `${page.detail}<script>${injected}</script><script nonce="guessed">${injected}</script>`,
      })
      .where("slug", "=", "privacy-policy")
      .execute();
    const response = await t.app.inject({ method: "GET", url: "/privacy-policy" });
    expect(response.statusCode).toBe(200);
    const policy = response.headers["content-security-policy"] as string;
    const nonce = nonceOf(policy);
    const planted = inlineScripts(response.body).filter((s) => s.body === injected);
    expect(planted).toHaveLength(2);
    for (const script of planted) expect(script.attributes).not.toContain(nonce);
    expect(scriptSources(policy)).not.toMatch(/'sha(256|384|512)-/);
  });
});

describe("HTTP caching", () => {
  afterEach(() => vi.useRealTimers());

  it("a first visit sets no cookie and is public, page or call (0048)", async () => {
    for (const url of ["/", "/api/social"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.headers["set-cookie"]).toBeUndefined();
      expect(response.headers["cache-control"]).toMatch(/^public/);
    }
    // A call's ETag is over its buffered body; a page streams, and only the page cache's copy of
    // it has one (tests/integration/page-cache.test.ts).
    const call = await t.app.inject({ method: "GET", url: "/api/social" });
    expect(call.headers.etag).toBeTruthy();
  });

  it("a page whose form sets the XSRF cookie is never public", async () => {
    const response = await t.app.inject({ method: "GET", url: "/login" });
    expect(response.cookies.some((c) => c.name === XSRF_COOKIE)).toBe(true);
    expect(response.headers["cache-control"]).toMatch(/^private/);
  });

  it("public GET calls carry validators and answer 304 when unchanged", async () => {
    const cookies = await returningVisitor();
    const first = await t.app.inject({ method: "GET", url: "/api/social", cookies });
    expect(first.headers["set-cookie"]).toBeUndefined();
    expect(first.headers["cache-control"]).toMatch(/public, max-age=\d+/);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      method: "GET",
      url: "/api/social",
      cookies,
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("anonymous pages are cacheable and revalidate with their ETag", async () => {
    startOfAMinute();
    const cookies = await returningVisitor();
    // The first render streams without an ETag and goes into the page cache; the next is served
    // from there with the ETag of its body.
    await t.app.inject({ method: "GET", url: "/", cookies });
    const first = await t.app.inject({ method: "GET", url: "/", cookies });
    expect(first.headers["set-cookie"]).toBeUndefined();
    // Browsers revalidate every time, so a change shows at once; a CDN may keep it a minute.
    expect(first.headers["cache-control"]).toBe(
      "public, max-age=0, s-maxage=60, stale-while-revalidate=300",
    );
    expect(first.headers.vary).toMatch(/Cookie/);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    const again = await t.app.inject({
      method: "GET",
      url: "/",
      cookies,
      headers: { "if-none-match": etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
  });

  it("sends a stored page the same to everyone, policy and ETag included; a 304 sends no policy", async () => {
    startOfAMinute();
    const cookies = await returningVisitor();
    await t.app.inject({ method: "GET", url: "/", cookies }); // into the page cache
    const one = await t.app.inject({ method: "GET", url: "/", cookies });
    const two = await t.app.inject({ method: "GET", url: "/", cookies });
    expect(one.headers.etag).toBeTruthy();
    expect(two.headers.etag).toBe(one.headers.etag);
    expect(two.body).toBe(one.body);
    const policy = one.headers["content-security-policy"] as string;
    expect(two.headers["content-security-policy"]).toBe(policy);
    expect(scriptSources(policy)).not.toContain("'nonce-");
    expect(scriptSources(policy)).toMatch(
      /^'self'( 'sha256-[A-Za-z0-9+/]+=*')+ https:\/\/js\.stripe\.com$/,
    );
    // A 304 sends no policy: the browser keeps the one stored with the body it already has.
    const revalidated = await t.app.inject({
      method: "GET",
      url: "/",
      cookies,
      headers: { "if-none-match": one.headers.etag as string },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers["content-security-policy"]).toBeUndefined();
  });

  it("pages for a signed-in user are private and stream unbuffered", async () => {
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, 1);
    const response = await client.get("/");
    expect(response.headers["cache-control"]).toBe("private, no-cache");
    expect(response.body).toContain("My Account");
    expect(response.headers.etag).toBeUndefined();
    expect(response.headers["content-length"]).toBeUndefined();
    expect(response.headers["transfer-encoding"]).toBe("chunked");
  });

  it("answers that are not cacheable stream through with no validators", async () => {
    const cookies = await returningVisitor();
    const notFound = await t.app.inject({ method: "GET", url: "/no/such/page", cookies });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.headers.etag).toBeUndefined();
    expect(notFound.headers["cache-control"]).toBeUndefined();
    expect(notFound.headers["transfer-encoding"]).toBe("chunked");
    const call = await t.app.inject({ method: "POST", url: "/api/home", cookies, payload: {} });
    expect(call.statusCode).toBe(200);
    expect(call.headers.etag).toBeUndefined();
    expect(call.headers["cache-control"]).toBeUndefined();
  });

  it("compresses large answers", async () => {
    const response = await t.app.inject({
      method: "GET",
      url: "/",
      headers: { "accept-encoding": "gzip" },
    });
    expect(response.headers["content-encoding"]).toBe("gzip");
  });

  it("compresses pages with brotli in a 256 kB window, streamed or from the page cache", async () => {
    startOfAMinute();
    /** RFC 7932 9.1: the stream's first bits give its window, 2^WBITS bytes less 16. */
    const windowBits = (brotli: Buffer) =>
      (brotli[0]! & 1) === 0
        ? 16
        : ((brotli[0]! >> 1) & 7) === 0
          ? null
          : 17 + ((brotli[0]! >> 1) & 7);
    const client = new TestClient(t.app);
    await client.signInAs(t.deps.db, 1);
    const headers = { "accept-encoding": "br" };
    const streamed = await client.request({ method: "GET", url: "/", headers });
    expect(streamed.headers.etag).toBeUndefined();
    await t.app.inject({ method: "GET", url: "/", headers });
    // Served from the page cache: the ETag of its stored body.
    const cached = await t.app.inject({ method: "GET", url: "/", headers });
    expect(cached.headers.etag).toBeTruthy();
    for (const response of [streamed, cached]) {
      expect(response.headers["content-encoding"]).toBe("br");
      expect(windowBits(response.rawPayload)).toBe(18);
      expect(zlib.brotliDecompressSync(response.rawPayload).toString("utf8")).toContain(
        "Trending Deals",
      );
    }
  });
});
