import type { Page } from "@playwright/test";
import { expect, expectAccessible, hydrated, test } from "./fixtures.ts";

/** The listing pages' sorts, layouts and cards, at a phone's and a desktop's width. */
const WIDTHS = [
  { name: "phone", width: 375, height: 812 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

async function cardPrices(page: Page): Promise<number[]> {
  const texts = await page
    .locator(".listing-grid .deal-card")
    .evaluateAll((cards) => cards.map((card) => card.textContent ?? ""));
  return texts.map((text) => Number(/\$(\d+(?:\.\d+)?)/.exec(text)?.[1] ?? NaN));
}

/** The Filter panel's controls: inline on a desktop, in the bottom sheet on a phone. */
async function filterScope(page: Page, phone: boolean) {
  if (!phone) return page.getByRole("complementary", { name: "Filter" });
  await page.getByRole("button", { name: /Show filters/ }).click();
  const sheet = page.getByRole("dialog", { name: "Filter deals" });
  await expect(sheet).toBeVisible();
  return sheet;
}

/** Applies the panel's choices: at once on a desktop, by "Show N deals" on a phone. */
async function applyFilters(page: Page, phone: boolean) {
  if (!phone) return;
  await page
    .getByRole("dialog")
    .getByRole("button", { name: /^Show \d+ deals?$/ })
    .click();
  await expect(page.getByRole("dialog")).toBeHidden();
}

/** Scrolls the results' top to the top of the window (so the sort bar and chips stay in view). */
async function scrollToResults(page: Page) {
  // After hydration and its first effects (the scroll to top).
  await hydrated(page.locator(".listing-results").first());
  await page.evaluate(() => document.querySelector(".listing-results")!.scrollIntoView());
  const y = await page.evaluate(() => window.scrollY);
  expect(y).toBeGreaterThan(100);
  return y;
}

async function expectScrollKept(page: Page, before: number) {
  await expect(page.locator(".listing-results")).toHaveAttribute("aria-busy", "false");
  const after = await page.evaluate(() => window.scrollY);
  expect(after).toBeGreaterThan(0);
  expect(Math.abs(after - before)).toBeLessThan(120);
}

for (const viewport of WIDTHS) {
  const phone = viewport.name === "phone";

  test.describe(`listing pages at ${viewport.width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
    });

    test("sort and filters live in the URL and survive a reload", async ({ page }) => {
      await page.goto("/newdeals");
      const sorts = page.getByRole("navigation", { name: "Sort deals" });
      await expect(sorts.getByRole("link", { name: "Sort by New" })).toHaveAttribute(
        "aria-current",
        "true",
      );
      await sorts.getByRole("link", { name: "Sort by Price low to high" }).click();
      await expect(page).toHaveURL(/\/newdeals\?sort=price$/);
      await expect
        .poll(async () => {
          const prices = (await cardPrices(page)).filter((p) => !Number.isNaN(p));
          return prices.length > 3 && prices.every((p, i) => i === 0 || prices[i - 1]! <= p);
        })
        .toBe(true);

      const scope = await filterScope(page, phone);
      const max = scope.getByRole("spinbutton", { name: "Max price" });
      await max.fill("40");
      await max.press("Enter");
      await applyFilters(page, phone);
      await expect(page).toHaveURL(/sort=price/);
      await expect(page).toHaveURL(/max_price=40/);

      await page.reload();
      await expect(
        page.getByRole("navigation", { name: "Sort deals" }).getByRole("link", {
          name: "Sort by Price low to high",
        }),
      ).toHaveAttribute("aria-current", "true");
      const chips = page.getByRole("group", { name: "Active filters" });
      await expect(chips.getByRole("button", { name: /Price up to \$40/ })).toBeVisible();
      const prices = (await cardPrices(page)).filter((p) => !Number.isNaN(p));
      expect(prices.length).toBeGreaterThan(0);
      expect(prices.every((p) => p <= 40)).toBe(true);
      expect(prices).toEqual([...prices].sort((a, b) => a - b));
    });

    test("changing the sort or a filter keeps the view on the results", async ({ page }) => {
      await page.goto("/newdeals?min_price=1");
      let before = await scrollToResults(page);
      await page
        .getByRole("navigation", { name: "Sort deals" })
        .getByRole("link", { name: "Sort by Top discount" })
        .click();
      await expect(page).toHaveURL(/sort=discount/);
      await expectScrollKept(page, before);

      before = await scrollToResults(page);
      await page
        .getByRole("group", { name: "Active filters" })
        .getByRole("button", { name: /Price from \$1/ })
        .click();
      await expect(page).not.toHaveURL(/min_price/);
      await expectScrollKept(page, before);

      // Unfiltered, a new sort reloads the listing through the loader: the view stays too.
      before = await scrollToResults(page);
      await page
        .getByRole("navigation", { name: "Sort deals" })
        .getByRole("link", { name: "Sort by Hot" })
        .click();
      await expect(page).toHaveURL(/sort=hot/);
      await expectScrollKept(page, before);
    });

    test("an empty result suggests what to do next", async ({ page }) => {
      await page.goto("/newdeals?min_price=9999990&min_discount=5");
      await expect(page.getByText("No Data Found")).toBeVisible();
      await expect(page.getByRole("link", { name: "See the newest deals" })).toHaveAttribute(
        "href",
        "/newdeals",
      );
      await expect(page.getByRole("button", { name: "Clear all filters" })).toBeVisible();
      await expectAccessible(page);
      await page.getByRole("button", { name: "Remove “Price from $9999990”" }).click();
      await expect(page).not.toHaveURL(/min_price/);
      await expect(page).toHaveURL(/min_discount=5/);
      await expect(page.locator(".listing-grid .deal-card").first()).toBeVisible();
    });

    test("store list: search as you type finds stores on other pages; A–Z jumps", async ({
      page,
    }) => {
      await page.goto("/store?page=2");
      const far = (await page.locator(".catalog-card-title").first().textContent())!.trim();
      await page.goto("/store");
      await expect(page.locator(".catalog-card-count").first()).toHaveText(
        /^(No live deals|\d+ live deals?)$/,
      );
      await page.getByRole("searchbox", { name: "Find stores" }).pressSequentially(far.slice(0, 5));
      await expect(page).toHaveURL(/\/store\?q=/);
      await expect(page.locator(".catalog-card-title", { hasText: far })).toBeVisible();
      await expect(page.getByRole("searchbox", { name: "Find stores" })).toBeFocused();
      await expectAccessible(page);

      await page.goto("/store");
      const bar = page.getByRole("navigation", { name: "Stores by first letter" });
      await expect(bar.locator('[aria-disabled="true"]').first()).toBeAttached();
      const letter = far.charAt(0).toUpperCase();
      await bar.getByRole("link", { name: `Stores starting with ${letter}`, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`#letter-${letter}$`));
      const tile = page.locator(`#letter-${letter}`);
      await expect(tile).toBeInViewport();
      expect((await tile.textContent())!.trim().toUpperCase().startsWith(letter)).toBe(true);
    });

    for (const path of ["/store", "/category", "/newdeals?sort=hot", "/search?query=crayons"]) {
      test(`axe finds nothing serious on ${path}`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator("h1")).toBeVisible();
        await expectAccessible(page);
      });
    }
  });
}

test.describe("the phone's bottom sheet", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
  });

  test("opens as a labelled modal dialog, counts deals live, closes with Escape", async ({
    page,
  }) => {
    await page.goto("/category/school-supplies");
    const toggle = page.getByRole("button", { name: /Show filters/ });
    await toggle.click();
    const sheet = page.getByRole("dialog", { name: "Filter deals" });
    await expect(sheet).toBeVisible();
    expect(await sheet.evaluate((el) => el.matches(":modal"))).toBe(true);
    const box = await sheet.boundingBox();
    expect(box!.y + box!.height).toBeGreaterThanOrEqual(811);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(sheet).toBeHidden();
    await expect(toggle).toBeFocused();

    await toggle.click();
    const show = sheet.getByRole("button", { name: /^Show \d+ deals?$/ });
    const before = Number(/\d+/.exec((await show.textContent())!)![0]);
    const counted = page.waitForResponse((r) => r.url().endsWith("/api/filter"));
    const max = sheet.getByRole("spinbutton", { name: "Max price" });
    await max.fill("10");
    await max.press("Enter");
    const answer = await (await counted).json();
    const total = answer.response.deal_data_pagination.total as number;
    expect(total).toBeLessThan(before);
    await expect(show).toHaveText(`Show ${total} ${total === 1 ? "deal" : "deals"}`);
    // Nothing applies until the button says so.
    await expect(page).not.toHaveURL(/max_price/);
    await show.click();
    await expect(sheet).toBeHidden();
    await expect(page).toHaveURL(/max_price=10/);
    await expect(page.getByText(new RegExp(`of ${total} deals`))).toBeVisible();
  });

  test("price inputs refuse a crossed range with a message, and follow the slider", async ({
    page,
  }) => {
    await page.goto("/newdeals");
    await page.getByRole("button", { name: /Show filters/ }).click();
    const sheet = page.getByRole("dialog", { name: "Filter deals" });
    const min = sheet.getByRole("spinbutton", { name: "Min price" });
    const max = sheet.getByRole("spinbutton", { name: "Max price" });
    await max.fill("5");
    await min.fill("50");
    await min.press("Enter");
    await expect(sheet.getByRole("alert")).toHaveText(
      "The minimum price must not be more than the maximum.",
    );
    await expect(min).toHaveAttribute("aria-invalid", "true");
    await min.fill("1");
    await min.press("Enter");
    await expect(sheet.getByRole("alert")).toBeHidden();
    const handle = sheet.getByRole("slider", { name: "Maximum price" });
    await expect(handle).toHaveAttribute("aria-valuenow", "5");
    await handle.focus();
    await page.keyboard.press("ArrowRight");
    await expect(max).toHaveValue("6");
  });
});
