import type { Browser, Locator, Page } from "@playwright/test";
import { buildDemoPlan } from "../../db/demo/plan.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

/**
 * The moderation journey (record 0031): three members report a deal, it leaves /newdeals at once, a
 * moderator restores it from /admin/reports, it is back, and the reporters are told.
 */

const PASSWORD = "Chalkboard#2026";
const MODERATOR = "moderator@example.com";
// Demo members no other browser test signs in as (the full demo data has 40).
const REPORTERS = buildDemoPlan("full")
  .users.slice(30, 33)
  .map((user) => ({ email: user.email, id: user.id }));

/**
 * Clicks until `opened` shows: a click that lands before the page has hydrated does nothing (the
 * server-rendered button has no handler yet).
 */
async function openWith(button: Locator, opened: Locator) {
  await expect(async () => {
    if (!(await opened.isVisible())) await button.click({ timeout: 2_000 });
    await expect(opened).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

async function signedIn(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const response = await page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect(response.ok(), await response.text()).toBe(true);
  return page;
}

/** /newdeals as a new visitor sees it (a fresh browser: nothing cached from an earlier look). */
async function newDealsLinks(browser: Browser): Promise<string[]> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/newdeals");
  const hrefs = await page
    .locator(".listing-grid .deal-card a")
    .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
  await context.close();
  return hrefs;
}

test("three members report a deal, it leaves /newdeals, and a moderator restores it", async ({
  browser,
}) => {
  // Five members' sessions and two moderator passes: a long journey on a busy machine.
  test.slow();
  const moderator = await signedIn(browser, MODERATOR);
  const queue = await (await moderator.request.get("/api/admin/reports")).json();
  const alreadyReported = new Set(
    (queue.response.items as { item_id: string }[]).map((item) => item.item_id),
  );

  // A deal of the first page of /newdeals that nobody reported and none of the reporters posted.
  // (A visitor's call: a signed-in POST would need the XSRF header.)
  const visitorContext = await browser.newContext();
  const listing = await (
    await visitorContext.request.post("/api/category_page", { data: { type: "d", page: 1 } })
  ).json();
  await visitorContext.close();
  const deals = listing.response.deal_data as {
    unique_id: string;
    slug: string;
    title: string;
    user_id: number | null;
  }[];
  const deal = [...deals]
    .reverse()
    .find(
      (d) =>
        !alreadyReported.has(d.unique_id) &&
        d.user_id !== null &&
        !REPORTERS.some((r) => r.id === d.user_id),
    )!;
  expect(deal).toBeDefined();
  const path = `/post/${deal.unique_id}/${deal.slug}`;
  expect((await newDealsLinks(browser)).some((href) => href.startsWith(path))).toBe(true);

  for (const [i, reporter] of REPORTERS.entries()) {
    const page = await signedIn(browser, reporter.email);
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(path);
    const dialog = page.getByRole("dialog", { name: "Report this deal" });
    await openWith(page.getByRole("button", { name: "Report this deal" }), dialog);
    if (i === 0) {
      // The reason is required, and said so in words.
      await dialog.getByRole("button", { name: "Send report" }).click();
      await expect(dialog.getByText("Please choose a reason for your report.")).toBeVisible();
      await expectAccessible(page);
    }
    await dialog.getByLabel("Reason").selectOption(i === 1 ? "expired" : "wrong price");
    await dialog.getByLabel(/Note for the moderators/).fill(`Checked by reporter ${i + 1}.`);
    await dialog.getByRole("button", { name: "Send report" }).click();
    await expect(dialog).toBeHidden();
    await expect(
      page.getByText("Thank you. Your report has been sent to the moderators."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Reported this deal" })).toBeDisabled();
    await page.context().close();
  }

  // Hidden at once: gone from /newdeals for everyone, and its page is 404.
  expect((await newDealsLinks(browser)).some((href) => href.startsWith(path))).toBe(false);
  const visitor = await (await browser.newContext()).newPage();
  expect((await visitor.goto(path))?.status()).toBe(404);

  // The moderator sees it in place with its banner, and in the queue.
  await moderator.goto(path);
  await expect(moderator.locator(".moderation-banner")).toContainText("Hidden pending review");
  await moderator.setViewportSize({ width: 375, height: 812 });
  await moderator.goto("/admin/reports");
  const row = moderator.getByRole("row").filter({ hasText: deal.title });
  await expect(row).toContainText("3 reports");
  await expect(row).toContainText("Hidden");
  await expectAccessible(moderator);
  expect(await moderator.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    375,
  );

  const confirm = moderator.getByRole("dialog", { name: "Restore?" });
  await openWith(row.getByRole("button", { name: "Restore" }), confirm);
  await confirm.getByLabel("Reason").fill("Price checked: it is right.");
  await confirm.getByRole("button", { name: "Restore" }).click();
  await expect(moderator.getByRole("row").filter({ hasText: deal.title })).toHaveCount(0);

  // Back at once, and each reporter is told in-site.
  expect((await newDealsLinks(browser)).some((href) => href.startsWith(path))).toBe(true);
  const reporter = await signedIn(browser, REPORTERS[0]!.email);
  await reporter.goto("/user/profile");
  // The bell of the navigation bar ("Notifications, N unread").
  await reporter.getByRole("link", { name: /^Notifications, / }).click();
  await expect(reporter).toHaveURL(/\/user\/notifications$/);
  await expect(
    reporter.getByText(
      `Thanks for your report of “${deal.title}”: a moderator reviewed it and left it up.`,
    ),
  ).toBeVisible();
  await openWith(
    reporter.getByRole("button", { name: "Mark all as read" }),
    reporter.getByText("Nothing unread."),
  );
});

test("a visitor's Report goes to the login page", async ({ page }) => {
  await page.goto("/newdeals");
  await page.locator(".listing-grid .deal-card-title a").first().click();
  await expect(page).toHaveURL(/\/post\//);
  // Clicked again only while the page is still the deal's (a click before hydration does
  // nothing); once it has left, the login route may take a while to load on a busy machine.
  await expect(async () => {
    if (!new URL(page.url()).pathname.startsWith("/post/")) return;
    await page.getByRole("button", { name: "Report this deal" }).click({ timeout: 2_000 });
    await expect(page).not.toHaveURL(/\/post\//, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/login\?next=%2Fpost%2F[^&]+$/);
});
