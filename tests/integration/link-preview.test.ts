import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepExpired } from "../../core/jobs/sweeps.ts";
import { insertMediaRecord } from "../../core/media/image-records.ts";
import { storeUploadedImage } from "../../core/media/images.ts";
import { variantFiles } from "../../core/media/variants.ts";
import { linkKey } from "../../core/posts/identity.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import {
  PRODUCT_PAGES_DIR,
  startProductPages,
  type ProductPages,
} from "../helpers/product-pages.ts";
import { TestClient } from "../helpers/session.ts";
import { createTestUser } from "../helpers/users.ts";

/*
 * Post from a link (docs/decisions/0110-post-from-a-link.md): `POST /api/link_preview` reads the
 * corpus of product pages in tests/fixtures/product-pages/, served over HTTPS on this machine
 * (tests/helpers/product-pages.ts), through the link check's guarded fetch with the tests'
 * loopback switch on; its picture is copied into the media storage as the member's upload.
 */

let t: TestApp;
let pages: ProductPages;
let member: TestClient;
let memberId: number;

beforeAll(async () => {
  pages = await startProductPages();
  t = await createTestApp({ env: { LINK_CHECK_ALLOW_LOOPBACK: "on" } });
  memberId = await createTestUser(t.deps.db, { name: "Link Poster" });
  member = new TestClient(t.app);
  await member.signInAs(t.deps.db, memberId);
});
afterAll(async () => {
  await t?.close();
  await pages?.close();
});

function preview(link: string, client = member) {
  return client.post("/api/link_preview", { link });
}

interface Expected {
  title: string | null;
  price: number | null;
  currency: string | null;
  /** Whether the answer carries the site's copy of a picture. */
  image: boolean;
  coupon: string | null;
  source: "json-ld" | "microdata" | "open-graph" | "title" | null;
}

/** Every page of the corpus, with what a member should find filled in. */
const CORPUS: Record<string, Expected> = {
  "shopify.html": {
    title: "Magnetic Classroom Timer",
    price: 24.99,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "woocommerce-yoast-graph.html": {
    title: "Dry-Erase Markers, 12 Pack",
    price: 12.5,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "magento-microdata.html": {
    title: "Wandtafel 90 x 60 cm",
    price: 89,
    currency: "EUR",
    image: true,
    coupon: null,
    source: "microdata",
  },
  "bigcommerce.html": {
    title: "Kids' Ergonomic Wobble Stool",
    price: 149.95,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "amazon-like-microdata.html": {
    title: "Scientific Calculator, 240 Functions, Solar",
    price: 15.99,
    currency: "USD",
    image: true,
    coupon: null,
    source: "microdata",
  },
  "bestbuy-like-graph.html": {
    title: "Epson - PowerLite Classroom Projector - White",
    price: 499.99,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "walmart-like-type-array.html": {
    title: "Crayola Washable Markers, 40 Count",
    price: 16.97,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "aggregate-offer.html": {
    title: "Composition Notebooks, Wide Ruled",
    price: 7.49,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "open-graph-only.html": {
    title: "Recycled Kraft Paper Roll, 30 m",
    price: 34,
    currency: "USD",
    image: true,
    coupon: null,
    source: "open-graph",
  },
  "title-only.html": {
    title: "Laminating Pouches, 100 Pack",
    price: null,
    currency: null,
    image: false,
    coupon: null,
    source: "title",
  },
  "broken-json-ld.html": {
    title: "Bulletin Board Borders, 12 Rolls",
    price: 9.99,
    currency: "USD",
    image: true,
    coupon: null,
    source: "open-graph",
  },
  "trailing-comma-json-ld.html": {
    title: "Glue Sticks, 30 Pack",
    price: 11.25,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "comma-decimal-eur.html": {
    title: 'Interaktives Whiteboard 78"',
    price: 1299,
    currency: "EUR",
    image: true,
    coupon: null,
    source: "open-graph",
  },
  "microdata-price-text-eu.html": {
    title: "Cartable scolaire 38 cm",
    price: 1249.5,
    currency: "EUR",
    image: true,
    coupon: null,
    source: "microdata",
  },
  "multiple-currencies.html": {
    title: "Phonics Flash Cards",
    price: 18,
    currency: "GBP",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "products/kit/relative-image.html": {
    title: "Robotics Starter Kit for Classrooms",
    price: 129,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "product-group-variants.html": {
    title: "Teacher Tote Bag",
    price: 39,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "coupon-in-text.html": {
    title: "Classroom Rug 8x10",
    price: 219,
    currency: "USD",
    image: true,
    coupon: "TEACH15",
    source: "open-graph",
  },
  "coupon-decoy.html": {
    title: "Pencil Sharpener, Electric",
    price: 27.5,
    currency: "USD",
    image: false,
    coupon: null,
    source: "open-graph",
  },
  "offer-discount-code.html": {
    title: "Document Camera HD",
    price: 79,
    currency: "USD",
    image: true,
    coupon: "SCHOOL10",
    source: "json-ld",
  },
  "nested-main-entity.html": {
    title: "Headphones for Kids, 10 Pack",
    price: 64.9,
    currency: "CAD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "html-entities.html": {
    title: "Crayons & Markers Set – 64 pieces",
    price: 1299,
    currency: "USD",
    image: true,
    coupon: null,
    source: "json-ld",
  },
  "not-an-image.html": {
    title: "Whiteboard Erasers, 6 Pack",
    price: 8.4,
    currency: "USD",
    image: false,
    coupon: null,
    source: "open-graph",
  },
  "latin1-charset.html": {
    title: "Tasse à café pour enseignant",
    price: 12.9,
    currency: "EUR",
    image: false,
    coupon: null,
    source: "open-graph",
  },
};

describe("the product page corpus", () => {
  it("lists every page of the folder, at least 20", () => {
    const files = fs
      .readdirSync(PRODUCT_PAGES_DIR, { recursive: true, encoding: "utf8" })
      .filter((name) => name.endsWith(".html"))
      .map((name) => name.split(path.sep).join("/"))
      .sort();
    expect(files).toEqual(Object.keys(CORPUS).sort());
    expect(files.length).toBeGreaterThanOrEqual(20);
  });

  it.each(Object.entries(CORPUS))("%s", async (file, expected) => {
    const response = await preview(`${pages.origin}/${file}`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect({
      title: body.title,
      price: body.price,
      currency: body.currency,
      image: body.image_url !== null,
      coupon: body.coupon_code,
      source: body.source,
    }).toEqual(expected);
    if (expected.image) {
      expect(body.image_url).toMatch(/^\/media\/link-previews\/[\w.-]+\.webp$/);
    }
  });
});

describe("POST /api/link_preview", () => {
  it("needs a signed-in member", async () => {
    const visitor = new TestClient(t.app);
    const response = await preview(`${pages.origin}/shopify.html`, visitor);
    expect(response.statusCode).toBe(401);
  });

  it("stores the picture re-encoded, as the member's upload, and the deal form posts it", async () => {
    const response = await preview(`${pages.origin}/bigcommerce.html`);
    const imageUrl: string = response.json().image_url;
    const stored = imageUrl.slice("/media/".length);
    const bytes = await t.deps.media.get(stored);
    expect(bytes).not.toBeNull();
    const meta = await sharp(bytes!).metadata();
    expect(meta.format).toBe("webp");
    expect([meta.width, meta.height]).toEqual([48, 36]);
    const record = await t.deps.db
      .selectFrom("media")
      .select("user_id")
      .where("path", "=", stored)
      .executeTakeFirst();
    expect(record?.user_id).toBe(memberId);

    // The picture goes with the deal as its image link (deal_image), fetched by no one again.
    const db = t.deps.db;
    const [store, category, dealCategory] = await Promise.all([
      db.selectFrom("stores").select("id").executeTakeFirstOrThrow(),
      db.selectFrom("categories").select("id").executeTakeFirstOrThrow(),
      db
        .selectFrom("forum_categories")
        .select("id")
        .where("kind", "=", "deal")
        .executeTakeFirstOrThrow(),
    ]);
    const before = pages.requests.length;
    const saved = await member.post("/api/save_deal", {
      user_id: memberId,
      deal_category: dealCategory.id,
      store_id: store.id,
      category_id: category.id,
      title: "Wobble stool from a link",
      deal_description: "<p>Read from the shop's page.</p>",
      link: `${pages.origin}/bigcommerce.html?utm_source=test`,
      deal_image: imageUrl,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const post = await db
      .selectFrom("posts")
      .select("image_url")
      .where("unique_id", "=", saved.json().response.unique_id)
      .executeTakeFirstOrThrow();
    expect(post.image_url).toBe(imageUrl);
    expect(pages.requests.length).toBe(before);
  });

  it("matches the store by domain, www. and subdomains included", async () => {
    const db = t.deps.db;
    // The corpus is served at images.chalkboard.test: a store at www.chalkboard.test matches.
    const store = await db
      .insertInto("stores")
      .values({
        title: "Chalkboard Test Shop",
        slug: "chalkboard-test-shop",
        link: "https://www.chalkboard.test/",
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const body = (await preview(`${pages.origin}/aggregate-offer.html`)).json();
    expect(body.store_id).toBe(store.id);
    expect(body.store_name).toBe("Chalkboard Test Shop");
    // A store at the page's own host is the closer match.
    const exact = await db
      .insertInto("stores")
      .values({ title: "Images Shop", slug: "images-shop", link: "http://images.chalkboard.test" })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await preview(`${pages.origin}/aggregate-offer.html`)).json().store_id).toBe(exact.id);
    await db.deleteFrom("stores").where("id", "in", [store.id, exact.id]).execute();
  });

  it("lists deals already posted for the same product and its lowest price in 90 days", async () => {
    const db = t.deps.db;
    const link = `${pages.origin}/walmart-like-type-array.html`;
    const day = 24 * 60 * 60 * 1000;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day);
    const recent = await insertPost(db, {
      title: "Crayola markers, 40",
      link,
      link_key: linkKey(link),
      price: 18.5,
      created_at: at(3),
    });
    const cheaper = await insertPost(db, {
      title: "Crayola markers, cheaper",
      link: `${link}?utm_campaign=mail`,
      link_key: linkKey(link),
      price: 14.25,
      created_at: at(40),
      expires_at: at(30),
    });
    // Older than 90 days: listed as a deal of the product, not counted in the low.
    await insertPost(db, {
      title: "Crayola markers, long ago",
      link,
      link_key: linkKey(link),
      price: 9.99,
      created_at: at(120),
    });
    // Another product entirely.
    await insertPost(db, {
      title: "Something else",
      link: `${pages.origin}/shopify.html`,
      link_key: linkKey(`${pages.origin}/shopify.html`),
      price: 1,
    });
    const body = (await preview(link)).json();
    expect(body.duplicates.map((d: { title: string }) => d.title)).toEqual([
      "Crayola markers, 40",
      "Crayola markers, cheaper",
      "Crayola markers, long ago",
    ]);
    expect(body.duplicates[0]).toMatchObject({
      unique_id: recent.unique_id,
      slug: recent.slug,
      price: 18.5,
      expired: false,
      url: `/post/${recent.unique_id}/${recent.slug}`,
    });
    expect(body.duplicates[1]).toMatchObject({ unique_id: cheaper.unique_id, expired: true });
    expect(body.lowest_price_90_days).toMatchObject({
      price: 14.25,
      currency: "USD",
      unique_id: cheaper.unique_id,
      url: `/post/${cheaper.unique_id}/${cheaper.slug}`,
    });
  });

  it("copies a shop's full-size photo with its sizes, as an upload is", async () => {
    const response = await preview(`${pages.origin}/full-size-photo`);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.title).toBe("Reading Nook Beanbag");
    // Stored as an upload is: at most 1600 px, with its responsive variants named by its size.
    expect(body.image_url).toMatch(/^\/media\/link-previews\/[\w-]+\.1600x1200\.webp$/);
  });

  it("follows redirects and reports where the page was", async () => {
    const body = (await preview(`${pages.origin}/moved`)).json();
    expect(body.title).toBe("Magnetic Classroom Timer");
    expect(body.final_link).toBe(`${pages.origin}/shopify.html`);
  });

  it.each([
    [
      "a private address",
      "http://10.0.0.7/product",
      /cannot be read: 10\.0\.0\.7 is a private or reserved address/,
    ],
    ["an HTTP error", "/missing", /could not be read: .* answered 404 \(Not Found\)/],
    ["not HTML", "/not-html", /not a web page \(it answered application\/pdf\)/],
    ["too large", "/huge", /larger than 3 MB, too large/],
    ["too slow", "/slow", /did not answer within 1\.2 s/],
    ["a name that does not resolve", "https://no-such-shop.invalid/p", /does not resolve/],
  ])("says why a page cannot be read: %s", async (_, link, message) => {
    const started = Date.now();
    const response = await preview(link.startsWith("/") ? `${pages.origin}${link}` : link);
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json().errors.link).toMatch(message);
    // Generous on a loaded machine; the slow page would hold the call far longer without the limit.
    expect(Date.now() - started).toBeLessThan(6_000);
  });

  it("reads nothing from a blocked domain, nor for an unconfirmed member", async () => {
    const db = t.deps.db;
    await db.insertInto("blocked_domains").values({ domain: "blocked-shop.example" }).execute();
    const before = pages.requests.length;
    const blocked = await preview("https://www.blocked-shop.example/p/1");
    expect(blocked.statusCode).toBe(422);
    expect(blocked.json().errors.link).toBe(
      "Links to blocked-shop.example are not allowed on this site.",
    );
    await db.deleteFrom("blocked_domains").where("domain", "=", "blocked-shop.example").execute();

    const unconfirmedId = await createTestUser(db, { confirmed: false });
    const unconfirmed = new TestClient(t.app);
    await unconfirmed.signInAs(db, unconfirmedId);
    expect((await preview(`${pages.origin}/shopify.html`, unconfirmed)).statusCode).toBe(403);
    expect(pages.requests.length).toBe(before);
  });

  it("refuses what is not a web address", async () => {
    const response = await preview("ftp://example.com/file");
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.link).toBeTruthy();
  });
});

describe("the nightly sweep of link-preview pictures", () => {
  const HOUR = 60 * 60 * 1000;

  /** The stored file of a /media/ path, and every variant beside it. */
  const filesOf = (relative: string) => [relative, ...variantFiles(relative)];
  const present = (files: string[]) => Promise.all(files.map((f) => t.deps.media.exists(f)));

  async function age(relative: string, hours: number) {
    await t.deps.db
      .updateTable("media")
      .set({ created_at: new Date(Date.now() - hours * HOUR) })
      .where("path", "=", relative)
      .execute();
  }

  async function previewPicture(client: TestClient, page: string): Promise<string> {
    const response = await preview(`${pages.origin}/${page}`, client);
    expect(response.statusCode, response.body).toBe(200);
    const url: string = response.json().image_url;
    expect(url).toMatch(/^\/media\/link-previews\//);
    return url;
  }

  it("deletes a day-old picture no deal was posted with, and keeps every other", async () => {
    const db = t.deps.db;
    const posterId = await createTestUser(db, { name: "Sweep Poster" });
    const poster = new TestClient(t.app);
    await poster.signInAs(db, posterId);
    const [store, category, dealCategory] = await Promise.all([
      db.selectFrom("stores").select("id").executeTakeFirstOrThrow(),
      db.selectFrom("categories").select("id").executeTakeFirstOrThrow(),
      db
        .selectFrom("forum_categories")
        .select("id")
        .where("kind", "=", "deal")
        .executeTakeFirstOrThrow(),
    ]);
    const post = async (imageUrl: string, title: string) => {
      const saved = await poster.post("/api/save_deal", {
        user_id: posterId,
        deal_category: dealCategory.id,
        store_id: store.id,
        category_id: category.id,
        title,
        deal_description: "<p>Posted from a link.</p>",
        link: `https://sweep-shop.example/${encodeURIComponent(title)}`,
        deal_image: imageUrl,
      });
      expect(saved.statusCode, saved.body).toBe(200);
      return saved.json().response.unique_id as string;
    };

    const unposted = await previewPicture(poster, "full-size-photo");
    const posted = await previewPicture(poster, "shopify.html");
    const postedThenRemoved = await previewPicture(poster, "bigcommerce.html");
    const recent = await previewPicture(poster, "magento-microdata.html");
    await post(posted, "Timer posted from its preview");
    const removedId = await post(postedThenRemoved, "Stool posted then removed");
    await db
      .updateTable("posts")
      .set({ status: "removed" })
      .where("unique_id", "=", removedId)
      .execute();
    // The member's other uploads, as old: a deal's uploaded picture and an avatar.
    const png = await sharp({
      create: { width: 700, height: 500, channels: 3, background: "#3a7" },
    })
      .png()
      .toBuffer();
    const upload = await storeUploadedImage(t.deps.media, "deals", png, { variants: true });
    const avatar = await storeUploadedImage(t.deps.media, "avatars", png, { maxSize: 512 });
    await insertMediaRecord(db, posterId, upload);
    await insertMediaRecord(db, posterId, avatar);

    const relativeOf = (url: string) => url.slice("/media/".length);
    const old = [unposted, posted, postedThenRemoved].map(relativeOf);
    for (const relative of [...old, upload.path, avatar.path]) await age(relative, 25);
    await age(relativeOf(recent), 23);
    expect(variantFiles(relativeOf(unposted)).length).toBe(6);
    expect(await present(filesOf(relativeOf(unposted)))).not.toContain(false);

    const lines: string[] = [];
    const warnings: string[] = [];
    await sweepExpired({
      ...t.deps,
      log: { info: (line) => lines.push(line), warn: (line) => warnings.push(line) },
    })();

    expect(await present(filesOf(relativeOf(unposted)))).toEqual(
      filesOf(relativeOf(unposted)).map(() => false),
    );
    const kept = [posted, postedThenRemoved, recent].map(relativeOf);
    for (const relative of [...kept, upload.path, avatar.path]) {
      expect(await present(filesOf(relative)), relative).not.toContain(false);
    }
    const rows = await db
      .selectFrom("media")
      .select("path")
      .where("user_id", "=", posterId)
      .execute();
    expect(rows.map((row) => row.path).sort()).toEqual([...kept, upload.path, avatar.path].sort());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("and 1 link-preview pictures no deal was posted with");
    expect(warnings).toEqual([]);
  });
});

describe("POST /api/link_preview rate limit", () => {
  let limited: TestApp;
  afterAll(async () => {
    await limited?.close();
  });

  it("allows a member 30 previews in ten minutes", async () => {
    limited = await createTestApp({ env: { RATE_LIMIT: "on", LINK_CHECK_ALLOW_LOOPBACK: "on" } });
    const id = await createTestUser(limited.deps.db);
    const client = new TestClient(limited.app);
    await client.signInAs(limited.deps.db, id);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await preview(`${pages.origin}/missing`, client)).statusCode);
    }
    expect(statuses.slice(0, 30).every((status) => status === 422)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
