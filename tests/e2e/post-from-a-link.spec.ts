import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";
import { linkKey } from "../../core/posts/identity.ts";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../../db/demo/seed.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { insertPost } from "../helpers/console.ts";
import { startProductPages, type ProductPages } from "../helpers/product-pages.ts";
import { expect, expectAccessible, hydrated, test } from "./fixtures.ts";

/**
 * Post from a link on a phone (docs/decisions/0110-post-from-a-link.md): pasting a shop's link
 * into Submit Deal fills the fields the member has not typed into, each stays editable, the deals
 * already posted for the product and its 90-day low show before submitting, and a page that
 * cannot be read says why.
 *
 * The server must fetch the product pages from this machine (LINK_CHECK_ALLOW_LOOPBACK), which a
 * production server refuses, so the spec builds its own from the production build, as csp.spec.ts
 * does, beside the corpus's HTTPS server (tests/helpers/product-pages.ts) in this process.
 */

let t: TestApp;
let pages: ProductPages;
let origin: string;
let storeId: number;
let earlier: { unique_id: string; slug: string; title: string };

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  pages = await startProductPages();
  t = await createTestApp({ pages: true, env: { LINK_CHECK_ALLOW_LOOPBACK: "on" } });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const db = t.deps.db;
  // The corpus is served at images.chalkboard.test: this store is matched by its domain.
  storeId = (
    await db
      .insertInto("stores")
      .values({
        title: "Bright Minds Supply",
        slug: "bright-minds",
        link: "https://chalkboard.test",
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const link = `${pages.origin}/shopify.html`;
  earlier = await insertPost(db, {
    title: "Magnetic timer for the whiteboard",
    link,
    link_key: linkKey(link),
    price: 21,
    store_id: storeId,
  });
});

test.afterAll(async () => {
  await t?.close();
  await pages?.close();
});

test.use({ viewport: { width: 375, height: 812 } });

async function openSubmitDeal(page: Page) {
  const signedIn = await page.request.post(`${origin}/api/signin`, {
    data: { email: DEMO_EMAIL, password: DEMO_PASSWORD },
  });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  await page.goto(`${origin}/submitdeal`);
  const link = page.getByLabel("Deal link");
  await hydrated(link);
  return link;
}

/** Pastes `text` into the focused field as a person does (the clipboard, then Ctrl+V). */
async function paste(page: Page, text: string) {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press("ControlOrMeta+V");
}

test("a pasted link fills the form, which stays editable and shows the product's deals", async ({
  page,
  context,
}) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin });
  const link = await openSubmitDeal(page);
  const form = page.getByRole("form", { name: "Submit a deal" });
  // The member's own title is theirs: the page's never replaces it.
  await form.getByLabel("Title").fill("Whiteboard timer, my words");

  await link.click();
  await paste(page, `${pages.origin}/shopify.html`);
  const status = form.getByRole("status").filter({ hasText: /page/ });
  await expect(status).toHaveText(
    "Filled in from the page: price, store and picture. Check them before you submit.",
  );
  await expect(link).toHaveValue(`${pages.origin}/shopify.html`);
  await expect(form.getByLabel("Title")).toHaveValue("Whiteboard timer, my words");
  await expect(form.getByLabel("Price ($)")).toHaveValue("24.99");
  await expect(form.getByLabel("Store")).toHaveValue(String(storeId));
  const picture = form.getByRole("img", { name: "Preview of the chosen image" });
  await expect(picture).toHaveAttribute("src", /^\/media\/link-previews\/[\w.-]+\.webp$/);
  await expect(form.getByLabel("Or an image link (https://…)")).toHaveValue(
    /^\/media\/link-previews\//,
  );
  expect(await picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

  // Before submitting: the deal already posted for this product, and its lowest price.
  const found = form.getByRole("region", { name: "Already posted" });
  await expect(
    found.getByRole("link", { name: /Magnetic timer for the whiteboard/ }),
  ).toHaveAttribute("href", `/post/${earlier.unique_id}/${earlier.slug}`);
  await expect(found).toContainText("Lowest price in the last 90 days: $21.00");

  // Every filled field is an ordinary field.
  await form.getByLabel("Price ($)").fill("19.99");
  await expect(form.getByLabel("Price ($)")).toHaveValue("19.99");
  await form.getByLabel("Store").selectOption({ index: 1 });
  await expect(form.getByLabel("Store")).not.toHaveValue(String(storeId));

  await expectAccessible(page);
});

test("a link that cannot be read says why, and the form works as before", async ({ page }) => {
  const link = await openSubmitDeal(page);
  const form = page.getByRole("form", { name: "Submit a deal" });
  const status = form.locator(".link-preview-status");

  // Typed, then left: read on leaving the field; "Reading the page…" while the page is slow.
  await link.fill(`${pages.origin}/slow`);
  await link.press("Tab");
  await expect(status).toHaveText("Reading the page…");
  await expect(status).toHaveText(
    "The page did not answer within 1.2 s. You can fill in the form yourself.",
  );
  await expect(status).toHaveAttribute("aria-live", "polite");

  await link.fill(`${pages.origin}/not-html`);
  await link.press("Tab");
  await expect(status).toHaveText(
    "The link is not a web page (it answered application/pdf). You can fill in the form yourself.",
  );
  await expect(form.getByLabel("Title")).toHaveValue("");
  await form.getByLabel("Title").fill("Typed by hand");
  await expect(form.getByLabel("Title")).toHaveValue("Typed by hand");
  await expectAccessible(page);
});
