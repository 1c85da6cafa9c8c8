import type { Page, Request } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

// The home page and moving about: deals first on a phone, the filters in the address,
// Back after LOAD MORE keeps the cards and the place, query changes keep the scroll, a progress bar
// for slow navigations, links to New Deals and the Forum everywhere, and 404s that offer a way on.

const PHONE = { name: "phone", width: 390, height: 844 } as const;
const DESKTOP = { name: "desktop", width: 1280, height: 900 } as const;

const recentCards = (page: Page) =>
  page.locator("section[aria-labelledby=recent-heading] .deal-card");

async function cardLinks(page: Page, selector = "section[aria-labelledby=recent-heading]") {
  return page
    .locator(`${selector} .deal-card-title a`)
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")));
}

/**
 * Requests for the home page's lists: the JSON API, and React Router's data requests that include
 * the home route. (React Router revalidates the root's loader — settings, who is signed in — on
 * every navigation; that request is not one for the lists.)
 */
function watchListRequests(page: Page) {
  const seen: string[] = [];
  const listener = (request: Request) => {
    const url = new URL(request.url());
    const forHome =
      url.pathname.endsWith(".data") &&
      (url.searchParams.get("_routes") ?? "routes/home").split(",").includes("routes/home");
    if (url.pathname.startsWith("/api/") || forHome) seen.push(`${url.pathname}${url.search}`);
  };
  page.on("request", listener);
  return { seen, stop: () => page.off("request", listener) };
}

/** On a phone the filters are folded into the bar: open it first. */
async function openFilters(page: Page) {
  const toggle = page.getByRole("button", { name: /Filter deals/ });
  if (await toggle.isVisible()) {
    await toggle.click();
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
  }
}

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));

/** Waits until the page is interactive: React Router's client router is up and idle. */
async function hydrated(page: Page) {
  await page.waitForFunction(() => {
    const router = (
      window as unknown as { __reactRouterDataRouter?: { state: { initialized: boolean } } }
    ).__reactRouterDataRouter;
    return router?.state.initialized === true;
  });
  await page.waitForLoadState("networkidle");
}

for (const viewport of [PHONE, DESKTOP]) {
  test.describe(`home at ${viewport.name} width`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
    });

    test("the first screen shows a complete deal, and the page is accessible", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      const box = await page.locator(".deal-card").first().boundingBox();
      expect(box).not.toBeNull();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
      // The spec's texts stay.
      await expect(page.getByRole("heading", { name: "Trending Deals" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Recent Deals" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Teachers Wishlist" })).toBeAttached();
      await openFilters(page);
      await expect(page.getByLabel("By Merchant")).toBeVisible();
      await expect(page.getByLabel("By Category")).toBeVisible();
      await expectAccessible(page);
    });

    test("the filters live in the address: reload and a shared link show the same deals", async ({
      page,
      browser,
    }) => {
      await page.goto("/");
      await hydrated(page);
      await openFilters(page);
      await page.getByLabel("By Merchant").selectOption({ label: "Staples" });
      await expect(page).toHaveURL(/\/\?store=\d+$/);
      await page.getByLabel("By Category").selectOption({ index: 1 });
      await expect(page).toHaveURL(/\/\?store=\d+&category=\d+$/);
      await expect(page.getByLabel("By Category")).toHaveValue(/^\d+$/);
      const chosenCategory = await page.getByLabel("By Category").inputValue();
      // Back to one filter, to have deals to compare.
      await page.getByLabel("By Category").selectOption({ label: "All categories" });
      await expect(page).toHaveURL(/\/\?store=\d+$/);
      expect(chosenCategory).toMatch(/^\d+$/);
      const address = page.url();
      await expect
        .poll(async () => {
          const stores = await recentCards(page).locator(".deal-card-store").allTextContents();
          return [...new Set(stores.map((s) => s.toLowerCase()))];
        })
        .toEqual(["staples"]);
      const shown = await cardLinks(page);

      await page.reload();
      await expect(page.getByLabel("By Merchant", { exact: true })).toHaveValue(/^\d+$/);
      expect(await cardLinks(page)).toEqual(shown);

      // Opened fresh, by someone else: the server renders the same filtered lists.
      const other = await browser.newContext({ viewport });
      const fresh = await other.newPage();
      const response = await fresh.goto(address);
      expect(response?.status()).toBe(200);
      const html = await response!.text();
      expect(html).toContain("Recent Deals");
      expect(await cardLinks(fresh)).toEqual(shown);
      await openFilters(fresh);
      await expect(fresh.getByLabel("By Merchant")).toHaveValue(
        new URL(address).searchParams.get("store")!,
      );
      await other.close();

      // Clearing both returns to the unfiltered lists and address.
      await openFilters(page);
      await page.getByRole("button", { name: "Clear filters" }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect
        .poll(
          async () =>
            new Set(await recentCards(page).locator(".deal-card-store").allTextContents()).size,
        )
        .toBeGreaterThan(1);
    });

    test("changing a filter keeps the view where it is", async ({ page }) => {
      await page.goto("/");
      await hydrated(page);
      await openFilters(page);
      const select = page.getByLabel("By Category");
      // Scroll so the select is near the top of the window, not at the page's top.
      await select.evaluate((el) => {
        const top = el.getBoundingClientRect().top + window.scrollY;
        window.scrollTo(0, Math.max(0, top - 60));
      });
      const before = await scrollY(page);
      expect(before).toBeGreaterThan(0);
      await select.selectOption({ index: 1 });
      await expect(page).toHaveURL(/\?category=\d+$/);
      await expect(page.locator(".home-lists")).toHaveAttribute("aria-busy", "false");
      // Where it was: not back at the top. (On a phone the Clear filters button that appears
      // above the deals adds a row, and the browser's scroll anchoring keeps the deals in view.)
      const after = await scrollY(page);
      expect(after).toBeGreaterThan(0);
      expect(Math.abs(after - before)).toBeLessThanOrEqual(80);
    });

    test("Back after LOAD MORE shows the same deals at the same place, with no request", async ({
      page,
    }) => {
      await page.goto("/");
      await hydrated(page);
      const button = page.getByRole("button", { name: "LOAD MORE" });
      for (const expected of [30, 45]) {
        const answered = page.waitForResponse("**/api/recent_deal_pagination");
        await button.click();
        expect((await answered).status()).toBe(200);
        await expect(recentCards(page)).toHaveCount(expected);
      }
      const listed = await cardLinks(page);
      // Down to the 40th card, then open it.
      const target = recentCards(page).nth(39);
      await target.evaluate((el) => el.scrollIntoView({ block: "center" }));
      const place = await scrollY(page);
      expect(place).toBeGreaterThan(viewport.height);
      const cardTop = () => target.evaluate((el) => Math.round(el.getBoundingClientRect().top));
      const placeOnScreen = await cardTop();
      const link = target.locator(".deal-card-title a");
      const href = await link.getAttribute("href");
      const title = (await link.textContent())!.trim();
      await link.click();
      await expect(page).toHaveURL(new RegExp(`${href}$`));
      await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
      // A new page opens at the top (the spec's scroll on a route change).
      expect(await scrollY(page)).toBe(0);

      const requests = watchListRequests(page);
      await page.goBack();
      await expect(page).toHaveURL(/\/$/);
      await expect(recentCards(page)).toHaveCount(45);
      expect(await cardLinks(page)).toEqual(listed);
      // The same card at the same height in the window (the scroll offset itself may differ by
      // what the browser's scroll anchoring does while the carousel above settles), within the
      // pixel that rounding a fractional restored offset can move it by.
      await expect
        .poll(async () => Math.abs((await cardTop()) - placeOnScreen))
        .toBeLessThanOrEqual(1);
      expect(await scrollY(page)).toBeGreaterThan(viewport.height);
      await expect(button).toBeVisible();
      requests.stop();
      expect(requests.seen).toEqual([]);

      // And LOAD MORE carries on from there.
      const answered = page.waitForResponse("**/api/recent_deal_pagination");
      await button.click();
      expect(((await (await answered).request().postDataJSON()) as { page: number }).page).toBe(4);
    });
  });
}

test.describe("navigation progress bar", () => {
  test("shows during a slow navigation, once, and goes when it ends", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto("/");
    await hydrated(page);
    // Counts every appearance of the bar, however short.
    await page.evaluate(() => {
      const w = window as unknown as { progressSeen: number };
      w.progressSeen = 0;
      new MutationObserver((records) => {
        for (const r of records)
          for (const n of r.addedNodes)
            if (n instanceof HTMLElement && n.matches(".nav-progress")) w.progressSeen++;
      }).observe(document.body, { childList: true });
    });
    const seen = () =>
      page.evaluate(() => (window as unknown as { progressSeen: number }).progressSeen);

    // Slow: the forum's data takes 1.5 s to come.
    let forumData: { body: Buffer; headers: Record<string, string>; status: number } | null = null;
    await page.route("**/forum.data*", async (route) => {
      if (forumData) return route.fulfill(forumData);
      const response = await route.fetch();
      forumData = {
        body: await response.body(),
        headers: response.headers(),
        status: response.status(),
      };
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill(forumData);
    });
    const footer = page.getByRole("navigation", { name: "Browse" });
    await footer.getByRole("link", { name: "Forum" }).click();
    const bar = page.getByRole("progressbar", { name: "Loading page" });
    await expect(bar).toBeVisible();
    await expect(page).toHaveURL(/\/forum$/);
    await expect(bar).toHaveCount(0);
    expect(await seen()).toBe(1);

    // A navigation quicker than 150 ms shows no bar: tests/unit/navigation-progress.test.tsx
    // (a timing in a browser on a shared machine would make that half flaky).
  });
});

test.describe("links to New Deals and the Forum", () => {
  test("the home page and the footer of every page lead to them", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/");
    const shortcuts = page.getByRole("navigation", { name: "More deals" });
    await expect(shortcuts.getByRole("link", { name: "New Deals" })).toHaveAttribute(
      "href",
      "/newdeals",
    );
    await expect(shortcuts.getByRole("link", { name: "Forum" })).toHaveAttribute("href", "/forum");
    // The spec's navigation bar stays as it was.
    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.click();
    const navLinks = await page.locator("#navbar-menu .nav-link").allTextContents();
    expect(navLinks.slice(0, 6)).toEqual([
      "Home",
      "Stores",
      "Categories",
      "Submit Deals",
      "Educators",
      "Contact Us",
    ]);
    expect(navLinks.slice(6)).toEqual(["Login", "Register"]);
    await page.getByRole("button", { name: "Close menu" }).click();

    for (const path of ["/", "/store", "/contact", "/no-such-page"]) {
      await page.goto(path);
      const footer = page.getByRole("contentinfo").getByRole("navigation", { name: "Browse" });
      await expect(footer.getByRole("link", { name: "New Deals" })).toHaveAttribute(
        "href",
        "/newdeals",
      );
      await expect(footer.getByRole("link", { name: "Forum" })).toHaveAttribute("href", "/forum");
    }
    await page
      .getByRole("contentinfo")
      .getByRole("navigation", { name: "Browse" })
      .getByRole("link", { name: "New Deals" })
      .click();
    await expect(page).toHaveURL(/\/newdeals$/);
    await expect(page.getByRole("heading", { name: "New Deals", exact: true })).toBeVisible();
  });
});

test.describe("unknown items", () => {
  const UNKNOWN = [
    "/store/no-such-store-anywhere",
    "/category/no-such-category-anywhere",
    "/post/nosuchpost/no-such-deal",
    "/educator/nosuchpost/no-such-discussion",
    "/profile/987654321",
    "/no/such/page",
  ];

  for (const viewport of [PHONE, DESKTOP]) {
    test(`answer 404 with the notice and ways on, in the site's layout (${viewport.name})`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      for (const path of UNKNOWN) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(404);
        await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
        await expect(page.locator("main .no-data")).toHaveText("No Data Found");
        await expect(page.getByRole("banner")).toBeVisible();
        await expect(page.getByRole("contentinfo")).toBeVisible();
        const ways = page.getByRole("navigation", { name: "Keep browsing" });
        await expect(ways.getByRole("link", { name: "New Deals" })).toHaveAttribute(
          "href",
          "/newdeals",
        );
        await expect(ways.getByRole("link", { name: "Forum" })).toHaveAttribute("href", "/forum");
        await expect(page.getByRole("link", { name: "Go To Home" })).toHaveAttribute("href", "/");
      }
      await expectAccessible(page);
      // The search box on the page finds deals.
      await page.getByLabel("Search all deals").fill("crayons");
      await page.getByRole("button", { name: "Find deals" }).click();
      await expect(page).toHaveURL(/\/search\?query=crayons$/);
    });
  }

  test("a client navigation to an unknown item shows the same page", async ({ page }) => {
    await page.goto("/store/no-such-store-anywhere");
    await hydrated(page);
    const ways = page.getByRole("navigation", { name: "Keep browsing" });
    await ways.getByRole("link", { name: "Forum" }).click();
    await expect(page).toHaveURL(/\/forum$/);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toHaveCount(0);
    // Back is a client navigation: the store's data answers 404 and the same page shows. (The
    // store's route has a client loader, so its data may come in a request of its own, beside the
    // root's: `_routes` names the routes a data request is for.)
    const answered = page.waitForResponse((r) => {
      const url = new URL(r.url());
      return (
        url.pathname.endsWith(".data") &&
        (url.searchParams.get("_routes") ?? "routes/store").split(",").includes("routes/store")
      );
    });
    await page.goBack();
    expect((await answered).status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await expect(page.locator("main .no-data")).toHaveText("No Data Found");
  });
});
