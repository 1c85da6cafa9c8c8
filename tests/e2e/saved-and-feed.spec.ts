import type { Page } from "@playwright/test";
import { expect, expectAccessible, postDealThroughApi, test } from "./fixtures.ts";

/**
 * Saved deals and follows (record 0043): a visitor's Save on a card is done after signing in and
 * the deal shows on /user/saved; a member follows a store, another member posts a deal there, and
 * it shows in My Feed. At a phone's width and a desktop's.
 */

const PASSWORD = "Chalk#Board42";
/** A demo account that may post at once (a new account must confirm its address first). */
const POSTER = { email: "moderator@example.com", password: "Chalkboard#2026" };

/** A new member's credentials (signed up through the API, not signed in here). */
async function newMember(page: Page, label: string) {
  const email = `e2e-saved-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: `Saver ${label}`, email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  return { email, password: PASSWORD };
}

async function signIn(page: Page, who: { email: string; password: string }) {
  const response = await page.request.post("/api/signin", { data: who });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).response.user_id as number;
}

/** Opens a page and waits until its scripts have run, so its buttons answer a click. */
async function openPage(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
}

for (const width of [375, 1280] as const) {
  test.describe(`saved deals and My Feed at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    });

    test("Save on a card while signed out: sign in, back on the page, the deal is saved", async ({
      page,
    }) => {
      // A fresh deal, newest in New Deals, posted by another member.
      const posterId = await signIn(page, POSTER);
      const title = `Washable markers 12 pack saved at ${width} px ${Date.now()}`;
      await postDealThroughApi(page, posterId, { title });
      await page.context().clearCookies();

      const saver = await newMember(page, `saver-${width}`);
      await openPage(page, "/newdeals");
      const card = page.getByRole("article").filter({ hasText: title });
      await card.getByRole("button", { name: `Save ${title}` }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fnewdeals/);
      await page.waitForLoadState("networkidle");
      await page.getByLabel("Email").fill(saver.email);
      await page.getByLabel("Password", { exact: true }).fill(saver.password);
      await page.locator("#main").getByRole("button", { name: "Login" }).click();

      await expect(page).toHaveURL(/\/newdeals/, { timeout: 15_000 });
      const save = page
        .getByRole("article")
        .filter({ hasText: title })
        .getByRole("button", { name: `Save ${title}` });
      await expect(save).toHaveAttribute("aria-pressed", "true");
      // Done once: a reload still shows it saved (from the server), not unsaved again.
      await openPage(page, "/newdeals");
      await expect(save).toHaveAttribute("aria-pressed", "true");

      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(
        nav.getByRole("link", { name: "Saved", exact: true, includeHidden: true }),
      ).toHaveAttribute("href", "/user/saved");
      await openPage(page, "/user/saved");
      await expect(page.getByRole("heading", { name: "Saved Deals", level: 1 })).toBeVisible();
      await expect(page.getByRole("article").filter({ hasText: title })).toBeVisible();
      await expectAccessible(page);

      // Unsaving from the list's card takes it off the list.
      await page
        .getByRole("article")
        .filter({ hasText: title })
        .getByRole("button", { name: `Save ${title}` })
        .click();
      await expect(
        page
          .getByRole("article")
          .filter({ hasText: title })
          .getByRole("button", { name: `Save ${title}` }),
      ).toHaveAttribute("aria-pressed", "false");
      await openPage(page, "/user/saved");
      await expect(page.getByText("You have not saved any deals yet.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Browse New Deals" })).toBeVisible();
    });

    test("follow a store: another member's new deal there shows in My Feed", async ({
      page,
      browser,
    }) => {
      const reader = await newMember(page, `reader-${width}`);
      await signIn(page, reader);

      // An empty feed suggests stores to follow.
      await openPage(page, "/user/feed");
      await expect(page.getByRole("heading", { name: "My Feed", level: 1 })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Popular stores to follow" })).toBeVisible();
      await expectAccessible(page);

      // The store every API-posted deal goes to (the submit form's first store).
      const options = (await (await page.request.get("/api/submit_deal")).json()).response;
      const store = options.store[0] as { id: number; title: string };
      const stores = (await (await page.request.get("/api/stores_list")).json()).response
        .selected_data as { id: number; slug: string }[];
      const slug = stores.find((s) => s.id === store.id)!.slug;
      await openPage(page, `/store/${slug}`);
      await page.getByRole("button", { name: `Follow ${store.title}`, exact: true }).click();
      await expect(
        page.getByRole("button", { name: `Following ${store.title}`, exact: true }),
      ).toHaveAttribute("aria-pressed", "true");

      // Another member posts there.
      const other = await browser.newContext();
      const otherPage = await other.newPage();
      const posterId = await signIn(otherPage, POSTER);
      const title = `Construction paper 500 sheets in my feed at ${width} px ${Date.now()}`;
      await postDealThroughApi(otherPage, posterId, { title });
      await other.close();

      await openPage(page, "/user/feed");
      await expect(page.getByRole("article").filter({ hasText: title })).toBeVisible();
      await expect(page.getByText(`Following: ${store.title}`)).toBeVisible();
      await expectAccessible(page);
      const nav = page.getByRole("navigation", { name: "Main" });
      await expect(nav.getByRole("link", { name: "My Feed", includeHidden: true })).toHaveAttribute(
        "href",
        "/user/feed",
      );

      // Leave the store unfollowed, as found.
      await openPage(page, `/store/${slug}`);
      await page.getByRole("button", { name: `Following ${store.title}`, exact: true }).click();
      await expect(
        page.getByRole("button", { name: `Follow ${store.title}`, exact: true }),
      ).toBeVisible();
    });
  });
}
