import type { Browser, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

/**
 * Expiry (record 0037): three members say a deal has expired from its page, and it shows the
 * Expired banner; a moderator reopens it. Listings keep "Hide expired" in the URL, on by default
 * for new deals; an expired card is greyed under an Expired banner.
 */

const PASSWORD = "Chalk#Board42";
const MODERATOR = { email: "moderator@example.com", password: "Chalkboard#2026" };

/** A fresh browser context signed in as a new member (or as `account`). */
async function signedIn(
  browser: Browser,
  label: string,
  account?: { email: string; password: string },
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  let credentials = account;
  if (!credentials) {
    const email = `e2e-expiry-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const signup = await page.request.post("/api/signup", {
      data: { name: `Expiry ${label}`, email, password: PASSWORD },
    });
    expect(signup.status(), await signup.text()).toBe(201);
    credentials = { email, password: PASSWORD };
  }
  const signin = await page.request.post("/api/signin", { data: credentials });
  expect(signin.ok(), await signin.text()).toBe(true);
  return page;
}

/**
 * Presses a button of the hydrated page until `done` shows: a click before hydration does nothing
 * (the server-rendered button has no handler yet).
 */
async function pressUntil(page: Page, name: string, done: () => Promise<void>) {
  await expect(async () => {
    const button = page.getByRole("button", { name, exact: true });
    if (await button.isVisible()) await button.click({ timeout: 2_000 });
    await done();
  }).toPass({ timeout: 20_000 });
}

test("three members mark a deal expired: it shows the Expired banner, and a moderator reopens it", async ({
  browser,
  request,
}) => {
  // A live deal away from the first pages other tests use.
  const listing = await (
    await request.post("/api/category_page", { data: { type: "d", page: 4, expired: "hide" } })
  ).json();
  const deal = (listing.response.deal_data as { unique_id: string; slug: string }[]).at(-1)!;
  const path = `/post/${deal.unique_id}/${deal.slug}`;

  for (const [i, label] of ["one", "two", "three"].entries()) {
    const page = await signedIn(browser, label);
    await page.goto(path);
    const panel = page.getByRole("region", { name: "Has this deal expired?" });
    if (i > 0) await expect(panel).toContainText(`${i} of 3 members say this has expired`);
    if (i < 2) {
      await pressUntil(page, "Expired?", async () => {
        await expect(panel).toContainText(`${i + 1} of 3 members say this has expired`, {
          timeout: 1_000,
        });
      });
      await expect(panel.getByRole("status")).toHaveText("Thanks: your mark is counted.");
      await expect(page.getByRole("button", { name: "Expired?", exact: true })).toHaveCount(0);
      if (i === 0) await expectAccessible(page);
    } else {
      await pressUntil(page, "Expired?", async () => {
        await expect(page.getByText("This deal has expired")).toBeVisible({ timeout: 1_000 });
      });
      await expect(
        page.locator(".post-media .expired-badge, .alert-expired").first(),
      ).toBeVisible();
      const jsonLd = await page
        .locator('script[type="application/ld+json"]')
        .evaluateAll((scripts) => scripts.map((s) => s.textContent ?? ""));
      if (jsonLd.some((text) => text.includes('"Product"'))) {
        expect(jsonLd.join("\n")).toContain("https://schema.org/OutOfStock");
      }
      await expectAccessible(page);
    }
    await page.context().close();
  }

  // Gone from live new deals at once.
  const after = await (
    await request.post("/api/category_page", { data: { type: "d", page: 4, expired: "hide" } })
  ).json();
  expect(
    (after.response.deal_data as { unique_id: string }[]).map((d) => d.unique_id),
  ).not.toContain(deal.unique_id);

  const moderator = await signedIn(browser, "moderator", MODERATOR);
  await moderator.goto(path);
  await pressUntil(moderator, "Reopen deal", async () => {
    await expect(moderator.getByText("This deal has expired")).toHaveCount(0, { timeout: 1_000 });
  });
  await expect(moderator.getByRole("button", { name: "Expired?", exact: true })).toBeVisible();
  await moderator.context().close();
});

test.describe("Hide expired", () => {
  for (const viewport of [
    { width: 375, height: 812 },
    { width: 1280, height: 900 },
  ]) {
    test(`is kept in the URL, on for new deals and off for a store (${viewport.width} px)`, async ({
      page,
      request,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto("/newdeals");
      const toggle = page.getByRole("switch", { name: "Hide expired" });
      await expect(toggle).toBeChecked();
      await expect(page.locator(".deal-card.expired")).toHaveCount(0);
      await expect(async () => {
        if (await toggle.isChecked()) await toggle.click({ timeout: 2_000 });
        await expect(page).toHaveURL(/[?&]expired=show/, { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(toggle).not.toBeChecked();
      await toggle.click();
      await expect(page).not.toHaveURL(/expired=/);
      await expect(toggle).toBeChecked();

      // Shown, expired deals come last: the last page's cards are greyed under a banner.
      const shown = await (
        await request.post("/api/category_page", { data: { type: "d", page: 1, expired: "show" } })
      ).json();
      const last = shown.response.deal_data_pagination.last_page as number;
      await page.goto(`/newdeals?expired=show&page=${last}`);
      const expiredCard = page.locator(".deal-card.expired").first();
      await expect(expiredCard).toBeVisible();
      await expect(expiredCard.locator(".card-tag-expired")).toHaveText("Expired");
      await expect(page.getByRole("switch", { name: "Hide expired" })).not.toBeChecked();
      await expectAccessible(page);

      // A store's deals show expired ones (last) until the switch hides them.
      await page.goto("/store/amazon");
      const storeToggle = page.getByRole("switch", { name: "Hide expired" });
      await expect(storeToggle).not.toBeChecked();
      await expect(async () => {
        if (!(await storeToggle.isChecked())) await storeToggle.click({ timeout: 2_000 });
        await expect(page).toHaveURL(/[?&]expired=hide/, { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      await expect(storeToggle).toBeChecked();
      await page.reload();
      await expect(page.getByRole("switch", { name: "Hide expired" })).toBeChecked();
    });
  }
});
