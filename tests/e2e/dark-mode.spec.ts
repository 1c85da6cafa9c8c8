import type { Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

// Dark mode (record 0035): the system's setting by default with no cookie, a Light / Dark / System
// switch in the footer that the server remembers, and WCAG AA contrast in both themes.

/** The demo moderator (db/demo/people.ts): My Account and a console page. */
const MODERATOR = { email: "moderator@example.com", password: "Chalkboard#2026" };

/** The page's background colour, as painted. */
function pageBackground(page: Page) {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

const LIGHT_BACKGROUND = "rgb(244, 245, 248)";
const DARK_BACKGROUND = "rgb(18, 21, 29)";

async function themeCookie(page: Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === "theme");
}

test.describe("following the system", () => {
  test.use({ colorScheme: "dark" });

  test("a dark system gets the dark theme with no cookie and no choice made", async ({ page }) => {
    const response = await page.goto("/");
    expect(await response!.text()).not.toContain("data-theme=");
    expect(await pageBackground(page)).toBe(DARK_BACKGROUND);
    expect(await themeCookie(page)).toBeUndefined();
    const toggle = page.getByRole("group", { name: "Theme" });
    await expect(toggle.getByRole("button", { name: "System" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
  });
});

test("the switch applies at once, is remembered across a reload, and System forgets it", async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/newdeals");
  await page.waitForLoadState("networkidle");
  expect(await pageBackground(page)).toBe(LIGHT_BACKGROUND);
  const toggle = page.getByRole("group", { name: "Theme" });

  await toggle.getByRole("button", { name: "Dark" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect.poll(() => pageBackground(page)).toBe(DARK_BACKGROUND);
  expect((await themeCookie(page))?.value).toBe("dark");

  // The server renders the choice: the first paint of the next page is already dark.
  const reloaded = await page.reload();
  expect(await reloaded!.text()).toContain('<html lang="en" data-theme="dark"');
  expect(await pageBackground(page)).toBe(DARK_BACKGROUND);
  await expect(toggle.getByRole("button", { name: "Dark" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );

  // Light wins over a dark system too.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.waitForLoadState("networkidle");
  await toggle.getByRole("button", { name: "Light" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await expect.poll(() => pageBackground(page)).toBe(LIGHT_BACKGROUND);
  await page.goto("/forum");
  expect(await pageBackground(page)).toBe(LIGHT_BACKGROUND);

  // System: the cookie is gone and the (dark) system setting rules again.
  await page.waitForLoadState("networkidle");
  await toggle.getByRole("button", { name: "System" }).click();
  await expect(page.locator("html")).not.toHaveAttribute("data-theme", /.*/);
  await expect.poll(() => pageBackground(page)).toBe(DARK_BACKGROUND);
  expect(await themeCookie(page)).toBeUndefined();
  const again = await page.reload();
  expect(await again!.text()).not.toContain("data-theme=");
});

/** The first link of a page whose path starts with `prefix` (a store, a category, a deal). */
async function firstLink(page: Page, url: string, prefix: string): Promise<string> {
  await page.goto(url);
  const href = await page.locator(`#main a[href^="${prefix}"]`).first().getAttribute("href");
  expect(href, `a link to ${prefix}… on ${url}`).toBeTruthy();
  return href!;
}

for (const colorScheme of ["light", "dark"] as const) {
  test.describe(`AA contrast and axe in the ${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test(`public pages in ${colorScheme}`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width: 1280, height: 900 });
      const store = await firstLink(page, "/store", "/store/");
      const category = await firstLink(page, "/category", "/category/");
      const deal = await firstLink(page, "/newdeals", "/post/");
      const pages = [
        "/",
        "/newdeals",
        store,
        category,
        "/search?query=pencils",
        deal,
        "/forum",
        "/login",
      ];
      const expected = colorScheme === "dark" ? DARK_BACKGROUND : LIGHT_BACKGROUND;
      for (const url of pages) {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        expect(await pageBackground(page), url).toBe(expected);
        await expectAccessible(page);
      }
    });

    test(`My Account and the console in ${colorScheme}`, async ({ page }) => {
      await page.setViewportSize({ width: 1280, height: 900 });
      const response = await page.request.post("/api/signin", { data: MODERATOR });
      expect(response.ok()).toBe(true);
      for (const url of ["/user/profile", "/admin/reports"]) {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        await expect(page).toHaveURL(new RegExp(`${url}$`));
        await expectAccessible(page);
      }
    });

    test(`the phone layout of home and a deal in ${colorScheme}`, async ({ page }) => {
      await page.setViewportSize({ width: 375, height: 812 });
      const deal = await firstLink(page, "/newdeals", "/post/");
      for (const url of ["/", deal]) {
        await page.goto(url);
        await page.waitForLoadState("networkidle");
        await expectAccessible(page);
      }
    });
  });
}
