import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SITEMAP_CHUNK_SIZE, XSRF_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const PUBLIC_URL = "http://localhost:3000";

let t: TestApp;

function get(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: "GET", url, headers });
}

/** A returning visitor: a first visit sets the XSRF cookie and so is never public (0027). */
const RETURNING = { cookie: `${XSRF_COOKIE}=returning-visitor-xsrf-token` };

/** The <loc> values of a sitemap or sitemap index. */
function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));
}

function items(xml: string): string[] {
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]!);
}

beforeAll(async () => {
  t = await createTestApp({ pages: true });
});

afterAll(async () => {
  await t?.close();
});

describe("robots.txt", () => {
  it("allows crawling, keeps private paths out and names the sitemap", async () => {
    const response = await get("/robots.txt", RETURNING);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^text\/plain/);
    const lines = response.body.split("\n");
    expect(lines).toContain("User-agent: *");
    expect(lines).toContain("Allow: /");
    for (const path of [
      "/user/",
      "/submitdeal",
      "/api/",
      "/logout",
      "/delete-account",
      "/payment",
    ]) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(response.headers.etag).toBeTruthy();
    expect(response.headers["cache-control"]).toMatch(/public, max-age=\d+/);
  });
});

describe("sitemaps", () => {
  it("indexes chunked sitemaps of pages, deals, forum posts, stores and categories", async () => {
    const response = await get("/sitemap.xml");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/xml/);
    expect(response.body).toContain(
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    );
    const files = locs(response.body);
    for (const name of ["pages", "deals-0", "forum-0", "stores-0", "categories-0"]) {
      expect(files).toContain(`${PUBLIC_URL}/sitemaps/${name}.xml`);
    }
    expect(response.body.match(/<lastmod>/g)?.length).toBe(files.length);
  });

  it("lists every live deal once in the deals chunk, with its canonical URL and lastmod", async () => {
    const deals = await t.deps.db
      .selectFrom("posts")
      .select(["unique_id", "slug"])
      .where("post_type", "=", "d")
      .where("status", "=", "active")
      .execute();
    const response = await get("/sitemaps/deals-0.xml");
    expect(response.statusCode).toBe(200);
    const urls = locs(response.body);
    expect(urls.sort()).toEqual(
      deals.map((d) => `${PUBLIC_URL}/post/${d.unique_id}/${d.slug}`).sort(),
    );
    expect(response.body.match(/<lastmod>/g)?.length).toBe(urls.length);
  });

  it("lists forum posts under /educator, stores and categories by slug, and the site's pages", async () => {
    const forum = locs((await get("/sitemaps/forum-0.xml")).body);
    expect(forum.length).toBeGreaterThan(0);
    for (const url of forum)
      expect(url).toMatch(new RegExp(`^${PUBLIC_URL}/educator/[a-z0-9]+/[a-z0-9-]+$`));

    const stores = await t.deps.db.selectFrom("stores").select("slug").execute();
    expect(locs((await get("/sitemaps/stores-0.xml")).body).sort()).toEqual(
      stores.map((s) => `${PUBLIC_URL}/store/${s.slug}`).sort(),
    );
    const categories = await t.deps.db.selectFrom("categories").select("slug").execute();
    expect(locs((await get("/sitemaps/categories-0.xml")).body).sort()).toEqual(
      categories.map((c) => `${PUBLIC_URL}/category/${c.slug}`).sort(),
    );
    const pages = locs((await get("/sitemaps/pages.xml")).body);
    expect(pages).toEqual(
      expect.arrayContaining([
        `${PUBLIC_URL}/`,
        `${PUBLIC_URL}/forum`,
        `${PUBLIC_URL}/contact`,
        `${PUBLIC_URL}/educator`,
        `${PUBLIC_URL}/install`,
      ]),
    );
  });

  it("splits by id range, so no file exceeds the chunk size, and answers 404 for empty or unknown files", async () => {
    const template = await t.deps.db
      .selectFrom("posts")
      .selectAll()
      .where("post_type", "=", "d")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const farId = 2 * SITEMAP_CHUNK_SIZE + 7;
    const { id: _id, search: _search, ...copy } = template;
    await t.deps.db
      .insertInto("posts")
      .values({ ...copy, id: farId, unique_id: "farawaypost", slug: "far-away-deal" } as never)
      .execute();
    try {
      const chunk = await get("/sitemaps/deals-2.xml");
      expect(chunk.statusCode).toBe(200);
      expect(locs(chunk.body)).toEqual([`${PUBLIC_URL}/post/farawaypost/far-away-deal`]);
      expect(locs((await get("/sitemaps/deals-0.xml")).body)).not.toContain(
        `${PUBLIC_URL}/post/farawaypost/far-away-deal`,
      );
      for (const url of [
        "/sitemaps/deals-1.xml",
        "/sitemaps/nothing-0.xml",
        "/sitemaps/deals-x.xml",
        "/sitemaps/pages",
      ]) {
        expect((await get(url)).statusCode).toBe(404);
      }
    } finally {
      await t.deps.db.deleteFrom("posts").where("id", "=", farId).execute();
    }
  });
});

describe("RSS feeds", () => {
  it("are announced by the pages they follow", async () => {
    const store = await t.deps.db
      .selectFrom("stores")
      .select("slug")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const category = await t.deps.db
      .selectFrom("categories")
      .select("slug")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    for (const [page, feed] of [
      ["/", "/rss/newdeals.xml"],
      ["/newdeals", "/rss/newdeals.xml"],
      [`/store/${store.slug}`, `/rss/store/${store.slug}.xml`],
      [`/category/${category.slug}`, `/rss/category/${category.slug}.xml`],
    ]) {
      const html = (await get(page!)).body;
      expect(html, page).toMatch(
        new RegExp(
          `<link rel="alternate" type="application/rss\\+xml" title="[^"]+" href="${PUBLIC_URL}${feed!.replace(/[.]/g, "\\.")}"`,
        ),
      );
      expect((await get(feed!)).statusCode, feed).toBe(200);
    }
  });

  it("serves the newest live deals as RSS 2.0", async () => {
    const response = await get("/rss/newdeals.xml");
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toMatch(/^application\/rss\+xml/);
    const xml = response.body;
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<rss version="2.0"/);
    expect(xml).toContain(`<atom:link href="${PUBLIC_URL}/rss/newdeals.xml" rel="self"`);
    expect(xml).toContain(`<link>${PUBLIC_URL}/newdeals</link>`);
    const list = items(xml);
    expect(list.length).toBeGreaterThan(0);
    expect(list.length).toBeLessThanOrEqual(30);
    const dates = list.map((item) => Date.parse(/<pubDate>([^<]+)<\/pubDate>/.exec(item)![1]!));
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    for (const item of list) {
      expect(item).toMatch(new RegExp(`<link>${PUBLIC_URL}/post/[a-z0-9]+/[a-z0-9-]+</link>`));
      expect(item).toMatch(/<guid isPermaLink="true">/);
      expect(item).toMatch(/<description>[^<]+<\/description>/); // HTML inside is escaped
    }
    const expired = await t.deps.db
      .selectFrom("posts")
      .select("unique_id")
      .where("expires_at", "<=", new Date())
      .execute();
    for (const { unique_id } of expired) expect(xml).not.toContain(`/post/${unique_id}/`);
  });

  it("serves a feed per store and per category, only of that store's or category's deals", async () => {
    const store = await t.deps.db
      .selectFrom("stores")
      .innerJoin("posts", "posts.store_id", "stores.id")
      .select(["stores.id", "stores.slug"])
      .groupBy(["stores.id", "stores.slug"])
      .orderBy("stores.id")
      .executeTakeFirstOrThrow();
    const storeDeals = await t.deps.db
      .selectFrom("posts")
      .select("unique_id")
      .where("store_id", "=", store.id)
      .execute();
    const storeFeed = await get(`/rss/store/${store.slug}.xml`);
    expect(storeFeed.statusCode).toBe(200);
    const ids = new Set(storeDeals.map((d) => d.unique_id));
    for (const item of items(storeFeed.body)) {
      const uniqueId = /\/post\/([a-z0-9]+)\//.exec(item)![1]!;
      expect(ids.has(uniqueId)).toBe(true);
    }
    expect(storeFeed.body).toContain(`<link>${PUBLIC_URL}/store/${store.slug}</link>`);

    const category = await t.deps.db
      .selectFrom("categories")
      .select(["slug"])
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const categoryFeed = await get(`/rss/category/${category.slug}.xml`);
    expect(categoryFeed.statusCode).toBe(200);
    expect(categoryFeed.body).toContain(`<link>${PUBLIC_URL}/category/${category.slug}</link>`);
  });

  it("answers 404 for unknown stores and categories, and /feed leads to the new-deals feed", async () => {
    for (const url of [
      "/rss/store/no-such-store.xml",
      "/rss/category/no-such-category.xml",
      "/rss/store/..%2Fx.xml",
      "/rss/store/target",
    ]) {
      expect((await get(url)).statusCode).toBe(404);
    }
    const feed = await get("/feed");
    expect(feed.statusCode).toBe(301);
    expect(feed.headers.location).toBe("/rss/newdeals.xml");
  });

  it("carries validators so readers and CDNs can reuse it", async () => {
    const first = await get("/rss/newdeals.xml", RETURNING);
    const etag = first.headers.etag as string;
    expect(etag).toBeTruthy();
    expect(first.headers["cache-control"]).toMatch(/public/);
    expect(
      (await get("/rss/newdeals.xml", { ...RETURNING, "if-none-match": etag })).statusCode,
    ).toBe(304);
  });
});

interface ProductLd {
  "@type": "Product";
  offers: { availability: string; priceValidUntil?: string } & Record<string, unknown>;
}
interface BreadcrumbLd {
  "@type": "BreadcrumbList";
  itemListElement: { name: string; item: string }[];
}
interface PostingLd {
  "@type": "DiscussionForumPosting";
  url: string;
  author: { name: string };
}
type JsonLd = ProductLd | BreadcrumbLd | PostingLd;

function findLd<T extends JsonLd>(list: JsonLd[], type: T["@type"]): T {
  const found = list.find((entry): entry is T => entry["@type"] === type);
  if (!found) throw new Error(`no ${type} JSON-LD on the page`);
  return found;
}

/** The <head> tags of a page, as crawlers and share previews read them. */
function head(html: string) {
  const meta = (attr: string, name: string) =>
    new RegExp(`<meta ${attr}="${name}" content="([^"]*)"`).exec(html)?.[1];
  return {
    title: /<title>([^<]*)<\/title>/.exec(html)?.[1],
    description: meta("name", "description"),
    canonical: /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1],
    robots: meta("name", "robots"),
    og: (p: string) => meta("property", `og:${p}`),
    twitter: (p: string) => meta("name", `twitter:${p}`),
    jsonLd: [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!),
    ) as JsonLd[],
    alternates: [
      ...html.matchAll(/<link rel="alternate" type="application\/rss\+xml"[^>]*href="([^"]+)"/g),
    ].map((m) => m[1]),
  };
}

describe("pages: status, head and structured data", () => {
  it("serves a deal with its own title, description, canonical URL, share tags and Product JSON-LD", async () => {
    const deal = await t.deps.db
      .selectFrom("posts")
      .innerJoin("stores", "stores.id", "posts.store_id")
      .select([
        "posts.unique_id",
        "posts.slug",
        "posts.title",
        "posts.price",
        "posts.currency",
        "stores.title as store",
      ])
      .where("posts.post_type", "=", "d")
      .where("posts.price", "is not", null)
      .where("posts.expires_at", "is", null)
      .orderBy("posts.id")
      .executeTakeFirstOrThrow();
    const path = `/post/${deal.unique_id}/${deal.slug}`;
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    const tags = head(response.body);
    expect(tags.title).toContain(deal.title.replace(/&/g, "&amp;"));
    expect(tags.canonical).toBe(`${PUBLIC_URL}${path}`);
    expect(tags.description).toBeTruthy();
    expect(tags.og("title")).toBeTruthy();
    expect(tags.og("image")).toMatch(/^http:\/\/localhost:3000\/media\//);
    expect(tags.og("type")).toBe("product");
    expect(tags.twitter("card")).toBe("summary_large_image");
    const product = findLd<ProductLd>(tags.jsonLd, "Product");
    expect(product).toBeTruthy();
    expect(product.offers).toMatchObject({
      "@type": "Offer",
      price: deal.price!.toFixed(2),
      priceCurrency: deal.currency,
      availability: "https://schema.org/InStock",
      url: `${PUBLIC_URL}${path}`,
      seller: { "@type": "Organization", name: deal.store },
    });
    const crumbs = findLd<BreadcrumbLd>(tags.jsonLd, "BreadcrumbList");
    expect(crumbs.itemListElement.at(-1)!.item).toBe(`${PUBLIC_URL}${path}`);
    expect(tags.alternates).toContain("/rss/newdeals.xml");
    // The page itself: GRAB DEAL opens the deal in a new tab through /go (record 0039), without
    // passing rank or the opener; "sponsored" when it is an affiliate link.
    expect(response.body).toMatch(
      /<a class="btn btn-grab" href="\/go\/[^"]+" target="_blank" rel="(sponsored )?nofollow noopener">GRAB DEAL/,
    );
  });

  it("marks an expired deal plainly and as OutOfStock, with priceValidUntil from its expiry", async () => {
    const expired = await t.deps.db
      .selectFrom("posts")
      .select(["unique_id", "slug", "expires_at"])
      .where("post_type", "=", "d")
      .where("price", "is not", null)
      .where("expires_at", "<=", new Date())
      .orderBy("id")
      .executeTakeFirst();
    if (!expired) throw new Error("the demo data has no expired deal with a price");
    const response = await get(`/post/${expired.unique_id}/${expired.slug}`);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("This deal has expired");
    expect(response.body).toContain("GRAB DEAL (expired)");
    const product = findLd<ProductLd>(head(response.body).jsonLd, "Product");
    expect(product.offers.availability).toBe("https://schema.org/OutOfStock");
    expect(product.offers.priceValidUntil).toBe(expired.expires_at!.toISOString().slice(0, 10));
  });

  it("redirects an old slug or the other kind of page to the canonical address with 301, and 404s the unknown", async () => {
    const deal = await t.deps.db
      .selectFrom("posts")
      .select(["unique_id", "slug"])
      .where("post_type", "=", "d")
      .executeTakeFirstOrThrow();
    const wrongSlug = await get(`/post/${deal.unique_id}/an-old-title`);
    expect(wrongSlug.statusCode).toBe(301);
    expect(wrongSlug.headers.location).toBe(`/post/${deal.unique_id}/${deal.slug}`);
    const wrongKind = await get(`/educator/${deal.unique_id}/${deal.slug}`);
    expect(wrongKind.statusCode).toBe(301);
    expect(wrongKind.headers.location).toBe(`/post/${deal.unique_id}/${deal.slug}`);
    const unknown = await get("/post/nosuchpost/whatever");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).toContain("Page Not Found");
    expect((await get("/educator/nosuchpost/whatever")).statusCode).toBe(404);
  });

  it("serves an educator post without price or badge, with DiscussionForumPosting JSON-LD", async () => {
    const post = await t.deps.db
      .selectFrom("posts")
      .select(["unique_id", "slug", "title"])
      .where("post_type", "=", "g")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const path = `/educator/${post.unique_id}/${post.slug}`;
    const response = await get(path);
    expect(response.statusCode).toBe(200);
    const tags = head(response.body);
    expect(tags.canonical).toBe(`${PUBLIC_URL}${path}`);
    expect(tags.og("type")).toBe("article");
    const posting = findLd<PostingLd>(tags.jsonLd, "DiscussionForumPosting");
    expect(posting).toMatchObject({ url: `${PUBLIC_URL}${path}` });
    expect(posting.author.name).toBeTruthy();
    expect(tags.jsonLd.some((j) => j["@type"] === "Product")).toBe(false);
    expect(response.body).not.toContain('class="post-price"');
    const crumbs = findLd<BreadcrumbLd>(tags.jsonLd, "BreadcrumbList");
    expect(crumbs.itemListElement.map((i) => i.name).slice(0, 3)).toEqual([
      "Home",
      "Forums",
      "Educators",
    ]);
    expect(response.body).toContain("POST NEW TOPIC");
  });

  it("gives the forum, educators, contact, privacy and install pages their own title, description and canonical URL", async () => {
    const seen = new Set<string>();
    for (const [path, title] of [
      ["/forum", "Forums"],
      ["/educator", "Educators forum"],
      ["/educator?page=2", "Educators forum – page 2"],
      ["/contact", "Contact Us"],
      ["/privacy-policy", "Privacy Policy"],
      ["/install", "Install the app"],
    ] as const) {
      const response = await get(path);
      expect(response.statusCode, path).toBe(200);
      const tags = head(response.body);
      expect(tags.title).toBe(`${title} | Chalkboard Deals`);
      expect(tags.canonical).toBe(`${PUBLIC_URL}${path}`);
      expect(tags.description).toBeTruthy();
      expect(tags.robots).toBeUndefined();
      seen.add(tags.title!);
    }
    expect(seen.size).toBe(6);
  });

  it("answers 404 for an educators page past the last", async () => {
    expect((await get("/educator?page=999")).statusCode).toBe(404);
  });

  it("renders /navbar as the site's chrome with an empty, noindex main area", async () => {
    const response = await get("/navbar");
    expect(response.statusCode).toBe(200);
    expect(head(response.body).robots).toBe("noindex");
    expect(response.body).toMatch(/<main id="main" class="site-main" tabindex="-1"><\/main>/);
    expect(response.body).toContain('class="site-footer"');
  });
});
