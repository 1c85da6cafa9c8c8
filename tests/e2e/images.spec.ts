import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Locator, Page } from "@playwright/test";
import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

// A demo member of the seeded data (every demo account has the demo password).
const MEMBER = { email: "sarah.kim@example.org", password: "Chalkboard#2026" };
const PHONE = VIEWPORTS[0];
const DESKTOP = VIEWPORTS[2];

/** A photo-like picture, larger than the biggest variant. */
function productPhoto(label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="900">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#f1d9a6"/><stop offset="1" stop-color="#3d6f8e"/></linearGradient></defs>
    <rect width="1200" height="900" fill="url(#g)"/>
    <rect x="300" y="220" width="600" height="460" rx="30" fill="#c0392b"/>
    <text x="600" y="480" font-size="64" font-family="sans-serif" fill="#fff" text-anchor="middle">${label}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Two deals with pictures, posted by a demo member into the same store and category, found by a
 * word no other deal has. The pictures get their variants at upload.
 */
const tag = `zq${randomBytes(3).toString("hex")}`;
const posted: { unique_id: string; url: string }[] = [];

test.beforeAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: process.env.E2E_BASE_URL });
  const request = context.request;
  const signedIn = await request.post("/api/signin", { data: MEMBER });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const userId = (await signedIn.json()).response.user_id as number;
  const xsrf = (await context.cookies()).find((c) => c.name === "XSRF-TOKEN")!.value;
  const options = (await (await request.get("/api/submit_deal")).json()).response;
  for (const [i, product] of ["Laminator", "Label maker"].entries()) {
    const title = `${product} for the classroom ${tag}`;
    const response = await request.post("/api/save_deal", {
      headers: { "x-xsrf-token": xsrf },
      multipart: {
        user_id: String(userId),
        deal_category: String(options.forum_category_deal[0].id),
        store_id: String(options.store[0].id),
        category_id: String(options.category[0].id),
        title,
        link: `https://www.example.com/products/${tag}-${i}`,
        deal_description: `<p>${product} with everything a classroom needs.</p>`,
        price: String(19.99 + i * 10),
        image: {
          name: `${product}.jpg`,
          mimeType: "image/jpeg",
          buffer: await productPhoto(product),
        },
      },
    });
    expect(response.ok(), await response.text()).toBe(true);
    posted.push((await response.json()).response);
  }
  await context.close();
});

/** Waits until the image has loaded and returns the URL the browser chose for it. */
async function chosenSource(image: Locator): Promise<string> {
  await image.scrollIntoViewIfNeeded();
  await expect
    .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  return image.evaluate((img: HTMLImageElement) => img.currentSrc);
}

/**
 * One <img> (media are served by this server: no MEDIA_BASE_URL), whose srcset names the variants
 * without their format, and sizes; width and height are the picture's own (when known).
 */
async function expectResponsive(image: Locator, size: [string, string] | null = ["1200", "900"]) {
  await expect(image).toHaveAttribute("srcset", /\.w320 320w, /);
  await expect(image).not.toHaveAttribute("srcset", /\.(avif|webp) \d+w/);
  await expect(image).toHaveAttribute("sizes", /\d+px/);
  if (size) {
    await expect(image).toHaveAttribute("width", size[0]);
    await expect(image).toHaveAttribute("height", size[1]);
  }
  await expect(image.locator("xpath=parent::picture")).toHaveCount(0);
  await expect(image.locator("xpath=preceding-sibling::source")).toHaveCount(0);
}

/** The Content-Type and Vary of every /media/ answer the page received, by URL. */
function mediaResponses(page: Page): Map<string, { type: string; vary: string }> {
  const seen = new Map<string, { type: string; vary: string }>();
  page.on("response", async (response) => {
    if (!new URL(response.url()).pathname.startsWith("/media/")) return;
    const headers = await response.allHeaders();
    seen.set(response.url(), { type: headers["content-type"] ?? "", vary: headers["vary"] ?? "" });
  });
  return seen;
}

/** The image fills its slot exactly (the slot's CSS sizes the <img> as it did the <picture>'s). */
async function expectFillsSlot(image: Locator, slot: Locator) {
  const [imageBox, slotBox] = [await image.boundingBox(), await slot.boundingBox()];
  expect(imageBox).not.toBeNull();
  expect(imageBox!.width).toBeGreaterThan(50);
  for (const key of ["x", "y", "width", "height"] as const) {
    expect(Math.abs(imageBox![key] - slotBox![key]), key).toBeLessThan(1);
  }
}

/** Chromium asked for the negotiated URL and the server answered it in AVIF, Vary: Accept. */
async function expectAvif(seen: Map<string, { type: string; vary: string }>, url: string) {
  expect(url).toMatch(/\.w\d+$/);
  await expect.poll(() => seen.get(url)?.type).toBe("image/avif");
  expect(seen.get(url)!.vary.toLowerCase()).toContain("accept");
}

async function searchResults(page: Page) {
  const response = await page.goto(`/search?query=${tag}`);
  expect(response?.status()).toBe(200);
  const images = page.locator(".deal-card .deal-card-image img");
  await expect(images).toHaveCount(2);
  return images;
}

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`responsive images at ${viewport.name} width`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
    });

    test("a listing's first card image loads first, the others lazily, each from a variant", async ({
      page,
    }) => {
      const seen = mediaResponses(page);
      const images = await searchResults(page);
      await expect(images.first()).toHaveAttribute("loading", "eager");
      await expect(images.first()).toHaveAttribute("fetchpriority", "high");
      await expect(images.nth(1)).toHaveAttribute("loading", "lazy");
      await expect(images.nth(1)).not.toHaveAttribute("fetchpriority", /.*/);
      for (const image of await images.all()) await expectResponsive(image);
      await expectFillsSlot(images.first(), page.locator(".deal-card .deal-card-image").first());

      // A card is at most 280 px wide (96 px on a phone): the 320 px variant, never the original,
      // and in AVIF, which Chromium's Accept names.
      for (const image of await images.all()) {
        const chosen = await chosenSource(image);
        expect(chosen).toMatch(/\.1200x900\.w320$/);
        await expectAvif(seen, chosen);
      }
      await expectAccessible(page);
    });

    test("the home page's first deal image is not lazy; later ones are", async ({ page }) => {
      await page.goto("/");
      const firstCard = page.locator(".deal-grid").first().locator(".deal-card").first();
      await expect(firstCard).toBeVisible();
      const images = page.locator(".deal-card-image img");
      expect(await images.count()).toBeGreaterThan(1);
      // Every card image but the first list's first is lazy (a card may have no picture at all).
      const notLazy = page.locator('.deal-card-image img:not([loading="lazy"])');
      expect(await notLazy.count()).toBeLessThanOrEqual(1);
      if ((await firstCard.locator("img").count()) === 1) {
        await expect(firstCard.locator("img")).toHaveAttribute("loading", "eager");
        await expect(firstCard.locator("img")).toHaveAttribute("fetchpriority", "high");
        await expectResponsive(firstCard.locator("img"), null);
      }
    });

    test("the deal page's picture is not lazy and has a srcset; related deals link on", async ({
      page,
    }) => {
      const seen = mediaResponses(page);
      const response = await page.goto(posted[0]!.url);
      expect(response?.status()).toBe(200);
      // Preloaded from the head by the same srcset (the server picks the format: no type).
      const preload = page.locator('head link[rel="preload"][as="image"][imagesrcset]');
      await expect(preload).toHaveCount(1);
      await expect(preload).toHaveAttribute("imagesrcset", /\.1200x900\.w320 320w, /);
      await expect(preload).toHaveAttribute("fetchpriority", "high");
      await expect(preload).not.toHaveAttribute("type", /.*/);
      const picture = page.locator(".post-media img");
      await expect(picture).toHaveAttribute("loading", "eager");
      await expect(picture).toHaveAttribute("fetchpriority", "high");
      await expectResponsive(picture);
      await expectFillsSlot(picture, page.locator(".post-media"));
      // Full width less the card's padding on a phone (303 px); at most 500 px on a desktop.
      const chosen = await chosenSource(picture);
      expect(chosen).toMatch(viewport === PHONE ? /\.w320$/ : /\.w640$/);
      await expectAvif(seen, chosen);

      const related = page.getByRole("region", { name: "Related deals" });
      await expect(related.getByRole("heading", { level: 2, name: "Related deals" })).toBeVisible();
      const relatedCards = related.locator(".deal-card");
      const count = await relatedCards.count();
      expect(count).toBeGreaterThanOrEqual(1);
      expect(count).toBeLessThanOrEqual(6);
      await expect(related.locator(`a[href*="${posted[0]!.unique_id}"]`)).toHaveCount(0);
      await expectAccessible(page);

      const first = relatedCards.first().locator(".deal-card-title a");
      const title = (await first.textContent())!.trim();
      await first.click();
      await expect(page).toHaveURL(/\/post\//);
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    });
  });
}
