import type { Page } from "@playwright/test";
import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

const SCREENS = [
  { path: "/", heading: "Recent Deals" },
  { path: "/store", heading: "Stores" },
  { path: "/category", heading: "Categories" },
  { path: "/store/amazon", heading: "Amazon Deals" },
  { path: "/category/school-supplies", heading: "School Supplies Deals" },
  { path: "/newdeals", heading: "New Deals" },
  { path: "/search?query=crayons", heading: "Search results for “crayons”" },
] as const;

/** The number of columns a CSS grid lays out. */
async function gridColumns(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(" ").length);
}

async function cardStores(page: Page) {
  return page.locator(".listing-grid .deal-card-store").allTextContents();
}

test.describe("listing screens at every width", () => {
  for (const viewport of VIEWPORTS) {
    for (const screen of SCREENS) {
      test(`${screen.path} at ${viewport.name} is usable and accessible`, async ({ page }) => {
        await page.setViewportSize(viewport);
        const response = await page.goto(screen.path);
        expect(response?.status()).toBe(200);
        await expect(
          page.getByRole("heading", { name: screen.heading, exact: true }),
        ).toBeVisible();
        if (screen.path === "/") await expect(page.locator(".deal-card").first()).toBeVisible();
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow).toBeLessThanOrEqual(0);
        await expectAccessible(page);
      });
    }
  }
});

test.describe("home", () => {
  test("By Merchant switches to filtered mode and clearing returns to all deals", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    const recent = page.locator("section[aria-labelledby=recent-heading] .deal-card");
    await expect(recent).toHaveCount(15);
    // The choice goes into the address (?store=…) and the page's loader answers it.
    await page.getByLabel("By Merchant").selectOption({ label: "Staples" });
    await expect(page).toHaveURL(/\/\?store=\d+$/);
    await expect
      .poll(async () => new Set(await recent.locator(".deal-card-store").allTextContents()).size)
      .toBe(1);
    await expect(recent.locator(".deal-card-store").first()).toHaveText(/staples/i);

    await page.getByLabel("By Merchant").selectOption({ label: "All merchants" });
    await expect
      .poll(async () => new Set(await recent.locator(".deal-card-store").allTextContents()).size)
      .toBeGreaterThan(1);
    await expect(recent).toHaveCount(15);
  });

  test("LOAD MORE appends the next 15 recent deals", async ({ page }) => {
    await page.goto("/");
    const recent = page.locator("section[aria-labelledby=recent-heading] .deal-card");
    await expect(recent).toHaveCount(15);
    const button = page.getByRole("button", { name: "LOAD MORE" });
    const shown = await recent.evaluateAll((cards) =>
      cards.map((card) => card.querySelector("a")!.getAttribute("href")!.split("/")[2]!),
    );
    const answered = page.waitForResponse("**/api/recent_deal_pagination");
    await button.click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    // The next 15; a deal another test posted meanwhile moves one of the first 15 into them, and
    // the page does not show it twice.
    const next = ((await answer.json()) as { recent_deals: { unique_id: string }[] }).recent_deals;
    expect(next).toHaveLength(15);
    const added = next.filter((deal) => !shown.includes(deal.unique_id)).length;
    expect(added).toBeGreaterThanOrEqual(13);
    await expect(recent).toHaveCount(15 + added);
    await expect(button).toBeEnabled();
  });

  test("the Teachers Wishlist becomes a carousel that opens wish lists in a new tab", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await scrollToWishlist(page);
    await expect(page.locator(".wishlist-carousel .slick-slider")).toBeVisible();
    const active = page.locator(".wishlist-carousel .slick-slide.slick-active");
    await expect(active).toHaveCount(3);
    await expect(active.first().locator("a")).toHaveAttribute("target", "_blank");
    // Hidden slides (clones, off-screen) cannot take keyboard focus.
    const hiddenLinks = page.locator('.wishlist-carousel .slick-slide[aria-hidden="true"] a');
    for (const link of await hiddenLinks.all())
      await expect(link).toHaveAttribute("tabindex", "-1");
    await page.getByRole("button", { name: "Pause carousel" }).click();
    await expect(page.getByRole("button", { name: "Play carousel" })).toBeVisible();

    await page.setViewportSize({ width: 900, height: 900 });
    await expect(active).toHaveCount(2);
    await page.setViewportSize({ width: 700, height: 900 });
    await expect(active).toHaveCount(1);
  });

  test("the Teachers Wishlist loads its carousel only when a reader comes near it", async ({
    page,
  }) => {
    const carouselScripts: string[] = [];
    page.on("request", (request) => {
      if (/\/assets\/(WishlistSlider|react-slick)[^/]*\.js$/.test(request.url()))
        carouselScripts.push(request.url());
    });
    await page.setViewportSize({ width: 375, height: 500 });
    await page.goto("/");
    const strip = page.locator(".wishlist-strip");
    // Far below the window (more than the 600 px it loads ahead): the plain list, no script.
    expect((await strip.boundingBox())!.y).toBeGreaterThan(500 + 600);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    expect(carouselScripts).toEqual([]);
    await expect(page.locator(".wishlist-carousel .slick-slider")).toHaveCount(0);
    await expect(strip.getByRole("link").first()).toBeAttached();

    await scrollToWishlist(page);
    await expect(page.locator(".wishlist-carousel .slick-slider")).toBeVisible();
    expect(carouselScripts.length).toBeGreaterThan(0);
  });

  test("the Teachers Wishlist opens with the slide count of the window it starts in", async ({
    page,
  }) => {
    for (const [width, slides] of [
      [375, 1],
      [800, 2],
      [1280, 3],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/");
      await scrollToWishlist(page);
      await expect(page.locator(".wishlist-carousel .slick-slider")).toBeVisible();
      await expect(page.locator(".wishlist-carousel .slick-slide.slick-active")).toHaveCount(
        slides,
      );
    }
  });
});

test.describe("stores and categories grids", () => {
  test("lay out 2 columns below 767 px, 3 from 767 px and 4 from 991 px", async ({ page }) => {
    for (const [width, columns] of [
      [375, 2],
      [766, 2],
      [767, 3],
      [990, 3],
      [991, 4],
      [1280, 4],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/category");
      expect(await gridColumns(page, ".catalog-grid"), `${width} px`).toBe(columns);
    }
  });

  test("a store card opens the store's deals and the pager moves between pages", async ({
    page,
  }) => {
    await page.goto("/store");
    await expect(page.locator(".catalog-card")).toHaveCount(20);
    await page
      .getByRole("navigation", { name: "Stores pages" })
      .getByRole("link", { name: "Page 2" })
      .click();
    await expect(page).toHaveURL(/\/store\?page=2$/);
    await expect(page.getByRole("link", { name: "Page 2" })).toHaveAttribute(
      "aria-current",
      "page",
    );
    const card = page.locator(".catalog-card").first();
    const href = await card.getAttribute("href");
    await card.click();
    await expect(page).toHaveURL(new RegExp(`${href}$`));
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Stores");
  });
});

test.describe("listing pages", () => {
  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test("checking a store filters with POST /api/filter from page 1; unchecking it returns to all", async ({
    page,
  }) => {
    await page.goto("/newdeals?page=2");
    const filterCall = page.waitForRequest(
      (request) => request.url().endsWith("/api/filter") && request.method() === "POST",
    );
    await page.getByRole("group", { name: "Stores" }).getByLabel("Search stores").fill("stapl");
    await page.getByRole("checkbox", { name: /Staples/ }).check();
    const payload = (await filterCall).postDataJSON();
    expect(payload).toMatchObject({ filter_type: "newdeals", page: 1 });
    expect(payload.store_id).toHaveLength(1);
    await expect(page).toHaveURL(/store_id=\d+/);
    await expect(page).not.toHaveURL(/page=2/);
    await expect.poll(async () => new Set(await cardStores(page)).size).toBe(1);
    expect((await cardStores(page))[0]).toMatch(/staples/i);

    // Filtered pages come from the API too.
    const pager = page.getByRole("navigation", { name: "New Deals pages" });
    if (await pager.isVisible()) {
      const pageTwo = page.waitForRequest((r) => r.url().endsWith("/api/filter"));
      await pager.getByRole("link", { name: "Page 2" }).click();
      expect((await pageTwo).postDataJSON()).toMatchObject({ page: 2 });
    }

    await page.getByRole("checkbox", { name: /Staples/ }).uncheck();
    await expect(page).not.toHaveURL(/store_id=/);
    await expect.poll(async () => new Set(await cardStores(page)).size).toBeGreaterThan(1);
    await expect(page.getByText(/Showing 1–15 of \d+ deals/)).toBeVisible();
  });

  test("the price slider moves by keyboard and narrows the listing", async ({ page }) => {
    await page.goto("/category/school-supplies");
    const max = page.getByRole("slider", { name: "Maximum price" });
    const top = Number(await max.getAttribute("aria-valuemax"));
    await max.focus();
    const filterCall = page.waitForRequest((r) => r.url().endsWith("/api/filter"));
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
    const payload = (await filterCall).postDataJSON();
    expect(payload.filter_type).toBe("category");
    expect(payload.max_price).toBeLessThan(top);
    await expect(page).toHaveURL(/max_price=\d+/);
    await expect(page.getByRole("button", { name: "Clear filters" })).toBeVisible();
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect(page).not.toHaveURL(/max_price=/);
  });

  test("a store page offers Visit Store in a new tab instead of a checklist", async ({ page }) => {
    await page.goto("/store/amazon");
    const visit = page.getByRole("link", { name: /Visit Store/ });
    await expect(visit).toHaveAttribute("target", "_blank");
    await expect(visit).toHaveAttribute("rel", "nofollow noopener sponsored");
    await expect(page.getByRole("group", { name: "Stores" })).toHaveCount(0);
  });

  test("an unknown store answers 404 with the Page Not Found page", async ({ page }) => {
    const response = await page.goto("/store/no-such-store");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
  });

  test("the filter panel folds away on a tablet (phones get a bottom sheet)", async ({ page }) => {
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.goto("/newdeals");
    await expect(page.getByRole("slider", { name: "Minimum price" })).toBeHidden();
    await page.getByRole("button", { name: "Show filters" }).click();
    await expect(page.getByRole("slider", { name: "Minimum price" })).toBeVisible();
  });
});

test.describe("search", () => {
  test("the navbar search lands on results with the query kept, typos forgiven", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await page.getByRole("searchbox", { name: "Search deals" }).fill("crayns");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?query=crayns/);
    await expect(page.locator(".listing-grid .deal-card").first()).toBeVisible();
    await expect(page.locator(".listing-grid .deal-card-title").first()).toHaveText(
      /Crayon|Crayola/,
    );
    await expect(page.locator("#search-page-input")).toHaveValue("crayns");
  });

  test("an empty search is a friendly prompt", async ({ page }) => {
    const response = await page.goto("/search?query=");
    expect(response?.status()).toBe(200);
    await expect(page.getByText(/Type a product, store or category/)).toBeVisible();
    await expectAccessible(page);
  });
});

/** Scrolls the Teachers Wishlist into view: its carousel loads only near the window. */
async function scrollToWishlist(page: Page) {
  await page.getByRole("heading", { name: "Teachers Wishlist" }).scrollIntoViewIfNeeded();
}
