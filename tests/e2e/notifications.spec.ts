import type { Browser, Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  hydrated,
  mailbox,
  postDealThroughApi,
  signInThroughApi,
  test,
} from "./fixtures.ts";

/**
 * Notifications (record 0044): another member comments on my deal → the bell's count rises → the
 * bell opens /user/notifications → the item links to the deal → "Mark all as read" clears the
 * count. Email settings toggles persist. Axe on both pages, at 375 px and 1280 px.
 */

const PASSWORD = "Chalk#Board42";
const DEMO_PASSWORD = "Chalkboard#2026";
// Each width acts as its own staff account (their deals are never held for review), so the two
// journeys, which may run side by side, never count each other's notifications.
const WIDTHS = [
  { width: 375, height: 812, account: "moderator@example.com" },
  { width: 1280, height: 900, account: "admin@example.com" },
] as const;

async function confirmedCommenter(browser: Browser, label: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const email = `e2e-notify-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: `Notify ${label}`, email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await page.goto(await mailbox.linkTo(email, /\/confirm\//));
  // The page confirms once its script runs (POST /api/verify): wait for it to say so.
  await expect(page.getByRole("main").getByRole("link", { name: "Login" })).toBeVisible({
    timeout: 20_000,
  });
  await signInThroughApi(page, { email, password: PASSWORD });
  return page;
}

function bell(page: Page) {
  return page.getByRole("link", { name: /^Notifications, / });
}

async function unreadOf(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute("aria-label")) ?? "";
  const match = /Notifications, (\d+) unread/.exec(label);
  return match ? Number(match[1]) : 0;
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a comment on my deal rings the bell; the item links to the deal; mark all read clears it", async ({
      page,
      browser,
    }) => {
      test.slow(); // two browsers, a confirmation and a comment: over a minute on a busy machine
      const myId = await signInThroughApi(page, {
        email: viewport.account,
        password: DEMO_PASSWORD,
      });
      const title = `Bell test deal ${viewport.width} ${Date.now()}`;
      const deal = await postDealThroughApi(page, myId, { title });

      await page.goto("/");
      await expect(bell(page)).toBeVisible();
      const before = await unreadOf(page);

      const other = await confirmedCommenter(browser, String(viewport.width));
      await other.goto(new URL(deal.url, "http://site.test").pathname);
      const text = `Is this still on? ${Date.now()}`;
      // Posting again is only for a click the page was not ready for: a second comment would ring
      // the bell twice.
      const posted = other.locator(".comment").filter({ hasText: text });
      await expect(async () => {
        if ((await posted.count()) === 0) {
          await other.getByLabel("Your comment").fill(text);
          await other.getByRole("button", { name: "POST COMMENT" }).click({ timeout: 2_000 });
        }
        await expect(posted.first()).toBeVisible({ timeout: 10_000 });
      }).toPass({ timeout: 40_000 });
      await other.context().close();

      // A move to another page, without a reload, brings the new count (the root's loader runs
      // again for a member). The marker on `window` shows the page was never loaded afresh.
      const dealLink = page.locator(".deal-card-title a").first();
      await hydrated(dealLink);
      await page.evaluate(() => Object.assign(window, { bellTestMarker: true }));
      await dealLink.click();
      await expect(page).toHaveURL(/\/post\//);
      await expect(bell(page)).toHaveAttribute("aria-label", `Notifications, ${before + 1} unread`);
      expect(await page.evaluate(() => "bellTestMarker" in window)).toBe(true);

      await bell(page).click();
      await expect(page).toHaveURL(/\/user\/notifications$/);
      await expect(page.getByRole("heading", { level: 1, name: "Notifications" })).toBeVisible();
      const item = page.locator(".notification").filter({ hasText: title }).first();
      await expect(item).toContainText("commented on your deal");
      await expectAccessible(page);

      await item.getByRole("link", { name: "View" }).click();
      await expect(page).toHaveURL(new RegExp(`/post/${deal.unique_id}/`));
      await expect(page.getByRole("heading", { level: 1 })).toContainText(title);

      await page.goto("/user/notifications");
      await expect(async () => {
        await page.getByRole("button", { name: "Mark all as read" }).click({ timeout: 2_000 });
        await expect(page.getByText("Nothing unread.")).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: 20_000 });
      await expect(bell(page)).toHaveAttribute("aria-label", "Notifications, none unread");
    });

    test("email settings toggles persist", async ({ page }) => {
      await signInThroughApi(page, { email: viewport.account, password: DEMO_PASSWORD });
      await page.goto("/user/settings/email");
      await expect(page.getByRole("heading", { level: 1, name: "Email settings" })).toBeVisible();
      await expectAccessible(page);
      const likes = page.getByRole("checkbox", { name: "Likes on my posts" });
      const wanted = !(await likes.isChecked());
      await expect(async () => {
        await likes.setChecked(wanted, { timeout: 2_000 });
        await page.getByRole("button", { name: "Save email settings" }).click({ timeout: 2_000 });
        await expect(page.getByText("Your email settings are saved.")).toBeVisible({
          timeout: 2_000,
        });
      }).toPass({ timeout: 20_000 });
      await page.reload();
      await expect(page.getByRole("checkbox", { name: "Likes on my posts" })).toBeChecked({
        checked: wanted,
      });
      // Back as it was, for the next run.
      await expect(async () => {
        await likes.setChecked(!wanted, { timeout: 2_000 });
        await page.getByRole("button", { name: "Save email settings" }).click({ timeout: 2_000 });
        await expect(page.getByText("Your email settings are saved.")).toBeVisible({
          timeout: 2_000,
        });
      }).toPass({ timeout: 20_000 });
    });
  });
}
