import type { Locator, Page, Request } from "@playwright/test";
import { expect, hydrated, signInThroughApi, test, xsrfToken } from "./fixtures.ts";

// Back keeps the place on the listings (docs/decisions/0111-back-keeps-the-place.md): after a page
// change or a filter, opening a deal and pressing Back shows the same cards at the same place, with
// no request for the list. The home page's LOAD MORE is in browse-home.spec.ts.

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/** The list's container: a listing's grid by default. */
const LISTING = ".listing-grid";

const cards = (page: Page, list: Locator | string = LISTING) =>
  (typeof list === "string" ? page.locator(list) : list).locator(".deal-card");

const cardStores = (page: Page) => page.locator(".listing-grid .deal-card-store").allTextContents();

const cardLinks = (page: Page, list: Locator | string = LISTING) =>
  (typeof list === "string" ? page.locator(list) : list)
    .locator(".deal-card-title a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")));

/**
 * Requests for a list's data: the JSON API (`/api/filter`), and React Router's data requests for
 * the list's route (a `.data` request names the routes it loads in `_routes`; without it, it loads
 * every route of the page). The root's own revalidation is not one for the list.
 */
function watchListRequests(page: Page, routeId: string) {
  const seen: string[] = [];
  const listener = (request: Request) => {
    const url = new URL(request.url());
    const forRoute =
      url.pathname.endsWith(".data") &&
      (url.searchParams.get("_routes") ?? routeId).split(",").includes(routeId);
    // A member's cards ask for the member's own votes on them as they mount (app/lib/card-votes.ts):
    // not the list's data.
    const forList =
      (url.pathname.startsWith("/api/") && url.pathname !== "/api/my_reactions") || forRoute;
    if (forList) seen.push(`${url.pathname}${url.search}`);
  };
  page.on("request", listener);
  return { seen, stop: () => page.off("request", listener) };
}

const topOf = (element: Locator) =>
  element.evaluate((el) => Math.round(el.getBoundingClientRect().top));

/**
 * Opens the listing's last card (scrolled to the middle of the window), presses Back, and checks
 * that the same cards are shown with that card at the same height, and that nothing asked for the
 * list's data.
 */
async function openLastCardAndComeBack(
  page: Page,
  routeId: string,
  list: Locator | string = LISTING,
) {
  const listed = await cardLinks(page, list);
  expect(listed.length).toBeGreaterThan(0);
  const address = page.url();
  const target = cards(page, list).last();
  await target.evaluate((el) => el.scrollIntoView({ block: "center" }));
  const place = await page.evaluate(() => Math.round(window.scrollY));
  expect(place).toBeGreaterThan(0);
  const placeOnScreen = await topOf(target);
  const link = target.locator(".deal-card-title a");
  const href = (await link.getAttribute("href"))!;
  const title = (await link.textContent())!.trim();
  await link.click();
  await expect(page).toHaveURL(new RegExp(`${href}$`));
  // The deal's page on screen (the address changes before it is shown).
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  const requests = watchListRequests(page, routeId);
  await page.goBack();
  await expect(page).toHaveURL(address);
  await expect(cards(page, list)).toHaveCount(listed.length);
  expect(await cardLinks(page, list)).toEqual(listed);
  // The same card at the same height in the window, within the pixel that rounding a fractional
  // restored offset can move it by.
  await expect.poll(async () => Math.abs((await topOf(target)) - placeOnScreen)).toBeLessThan(3);
  requests.stop();
  expect(requests.seen).toEqual([]);
  return listed;
}

for (const viewport of WIDTHS) {
  test.describe(`Back keeps the place at ${viewport.width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize(viewport);
    });

    test("a store's second page: the same deals at the same place, with no request", async ({
      page,
    }) => {
      await page.goto("/store/amazon");
      await hydrated(page.locator(".listing-results"));
      const pager = page.getByRole("navigation", { name: "Amazon Deals pages" });
      const answered = page.waitForResponse((r) => new URL(r.url()).pathname.endsWith(".data"));
      await pager.getByRole("link", { name: "Page 2" }).click();
      expect((await answered).status()).toBe(200);
      await expect(page).toHaveURL(/\/store\/amazon\?page=2$/);
      await expect(page.getByText(/^Showing 16–/)).toBeVisible();
      const listed = await openLastCardAndComeBack(page, "routes/store");

      // Back once more, to page 1: kept too, with no request.
      const requests = watchListRequests(page, "routes/store");
      await page.goBack();
      await expect(page).toHaveURL(/\/store\/amazon$/);
      await expect(page.getByText(/^Showing 1–15 of/)).toBeVisible();
      expect(await cardLinks(page)).not.toEqual(listed);
      requests.stop();
      expect(requests.seen).toEqual([]);

      // A fresh visit to the same address (not a Back) asks the server again.
      const fresh = page.waitForRequest(
        (r) =>
          new URL(r.url()).pathname.endsWith(".data") &&
          (new URL(r.url()).searchParams.get("_routes") ?? "routes/store").includes("routes/store"),
      );
      await pager.getByRole("link", { name: "Page 2" }).click();
      await fresh;
      await expect(page.getByText(/^Showing 16–/)).toBeVisible();
    });

    test("a search's second page: the same results at the same place, with no request", async ({
      page,
    }) => {
      await page.goto("/search?query=pencils");
      await hydrated(page.locator(".listing-results"));
      const pager = page.getByRole("navigation", { name: /pages$/ });
      await pager.getByRole("link", { name: "Next" }).click();
      await expect(page).toHaveURL(/[?&]page=2/);
      await expect(page.getByText(/^Showing 16–/)).toBeVisible();
      await openLastCardAndComeBack(page, "routes/search");
    });
  });
}

test("a filtered listing (fetched by the page itself) comes back without a request, from a deal or another sort", async ({
  page,
}) => {
  await page.setViewportSize(WIDTHS[1]);
  await page.goto("/newdeals");
  await hydrated(page.locator(".listing-results"));
  // Checking a store puts the listing in filtered mode: POST /api/filter, not the loader.
  const filterCall = page.waitForResponse((r) => r.url().endsWith("/api/filter"));
  await page.getByRole("group", { name: "Stores" }).getByLabel("Search stores").fill("stapl");
  await page.getByRole("checkbox", { name: /Staples/ }).check();
  expect((await filterCall).status()).toBe(200);
  await expect(page).toHaveURL(/store_id=\d+/);
  await expect.poll(async () => new Set(await cardStores(page)).size).toBe(1);
  await expect(page.locator(".listing-results")).toHaveAttribute("aria-busy", "false");
  const filtered = await cardLinks(page);

  // Another sort of the same filter (fetched too), then Back inside the page: the results of the
  // entry returned to, as they were, with no call (the loader's data is still the unfiltered one).
  const sorted = page.waitForResponse((r) => r.url().endsWith("/api/filter"));
  await page
    .getByRole("navigation", { name: "Sort deals" })
    .getByRole("link", { name: "Price low to high" })
    .click();
  expect((await sorted).status()).toBe(200);
  await expect(page).toHaveURL(/sort=price/);
  await expect(page.locator(".listing-results")).toHaveAttribute("aria-busy", "false");
  expect(await cardLinks(page)).not.toEqual(filtered);
  const requests = watchListRequests(page, "routes/new-deals");
  await page.goBack();
  await expect(page).not.toHaveURL(/sort=price/);
  await expect(page.locator(".listing-results")).toHaveAttribute("aria-busy", "false");
  expect(await cardLinks(page)).toEqual(filtered);
  requests.stop();
  expect(requests.seen).toEqual([]);

  // Then a deal, and Back.
  await openLastCardAndComeBack(page, "routes/new-deals");
  expect(new Set(await cardStores(page)).size).toBe(1);
});

test("a member's saved deals, second page: the same deals at the same place, with no request", async ({
  page,
}) => {
  await page.setViewportSize(WIDTHS[0]);
  const email = `e2e-back-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const member = { email, password: "Chalk#Board42" };
  const signup = await page.request.post("/api/signup", {
    data: { name: "Back Tester", ...member },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await signInThroughApi(page, member);
  // Twenty-nine saved deals: two pages of saved deals, fourteen on the second.
  const ids: string[] = [];
  for (const address of ["/newdeals", "/newdeals?page=2"]) {
    await page.goto(address);
    ids.push(...(await cardLinks(page)).map((href) => href!.split("/")[2]!));
  }
  const token = await xsrfToken(page);
  for (const id of ids.slice(0, 29)) {
    const saved = await page.request.post("/api/save_deal_toggle", {
      data: { unique_id: id },
      headers: { "X-XSRF-TOKEN": token },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
  }

  await page.goto("/user/saved");
  const grid = page.locator("section[aria-label='Saved deals']");
  await hydrated(grid);
  await page
    .getByRole("navigation", { name: "Saved deals pages" })
    .getByRole("link", { name: "Page 2" })
    .click();
  await expect(page).toHaveURL(/\/user\/saved\?page=2$/);
  await expect(grid.locator(".deal-card")).toHaveCount(14);
  await openLastCardAndComeBack(page, "routes/saved", grid);
});
