import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  VIEWPORTS,
  expect,
  expectAccessible,
  postDealThroughApi,
  signInThroughApi,
  test,
} from "./fixtures.ts";

// The demo data's administrator and moderator (db/demo/people.ts); every demo account has the
// demo password.
const ADMIN = { email: "admin@example.com", password: "Chalkboard#2026" };
const MODERATOR = { email: "moderator@example.com", password: "Chalkboard#2026" };

/** The row of a post in the console's list. */
function row(page: Page, title: string) {
  return page.locator("tbody tr").filter({ has: page.getByRole("link", { name: title }) });
}

test.describe("the posts console", () => {
  test("the admin edits a deal's title and the public page shows it", async ({ page }) => {
    const adminId = await signInThroughApi(page, ADMIN);
    const tag = randomBytes(3).toString("hex");
    const title = `Console journey stapler ${tag}`;
    const deal = await postDealThroughApi(page, adminId, { title: title });

    await page.goto("/admin/posts");
    const filters = page.getByRole("search", { name: "Filter posts" });
    await filters.getByLabel("Search").fill(tag);
    await filters.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(new RegExp(`q=${tag}`));
    await expect(page.locator("tbody tr")).toHaveCount(1);
    await row(page, title)
      .getByRole("link", { name: `Edit “${title}”` })
      .click();

    await expect(page.getByRole("heading", { level: 1, name: "Edit deal" })).toBeVisible();
    const newTitle = `Console journey heavy-duty stapler ${tag}`;
    await page.getByLabel("Title").fill(newTitle);
    await page.getByLabel("Reason for the change").fill("Clearer title");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByRole("status").getByText("The post has been saved.")).toBeVisible();

    await page.getByRole("link", { name: "View the post" }).click();
    await expect(page).toHaveURL(new RegExp(`/post/${deal.unique_id}/console-journey-heavy-duty`));
    await expect(page.getByRole("heading", { level: 1, name: newTitle })).toBeVisible();
    // The old address leads to the new one.
    await page.goto(deal.url);
    await expect(page.getByRole("heading", { level: 1, name: newTitle })).toBeVisible();

    // The audit log shows the edit with its before and after.
    await page.goto(`/admin/audit?item_type=d&item_id=${deal.unique_id}`);
    const entry = page.locator("tbody tr").first();
    await expect(entry.getByText("post.update")).toBeVisible();
    await expect(entry.getByText("Clearer title")).toBeVisible();
    await expect(entry.locator("del").filter({ hasText: title })).toBeVisible();
    await expect(entry.locator("ins").filter({ hasText: newTitle })).toBeVisible();
  });

  test("a moderator features two posts at once", async ({ page }) => {
    const moderatorId = await signInThroughApi(page, MODERATOR);
    const tag = randomBytes(3).toString("hex");
    const first = `Console bulk crayons ${tag}`;
    const second = `Console bulk markers ${tag}`;
    await postDealThroughApi(page, moderatorId, { title: first });
    await postDealThroughApi(page, moderatorId, { title: second });

    await page.goto(`/admin/posts?q=${tag}`);
    await expect(page.locator("tbody tr")).toHaveCount(2);
    await page.getByRole("checkbox", { name: `Select ${first}` }).check();
    await page.getByRole("checkbox", { name: `Select ${second}` }).check();
    await expect(page.getByText("2 posts selected")).toBeVisible();
    const bulk = page.getByRole("group", { name: "Bulk actions on selected posts" });
    await bulk.getByLabel("Action").selectOption("feature");
    await page.getByRole("button", { name: "Apply to selected" }).click();
    await expect(page.getByText("2 posts featured.")).toBeVisible();
    await expect(row(page, first).getByText("Featured", { exact: true })).toBeVisible();
    await expect(row(page, second).getByText("Featured", { exact: true })).toBeVisible();
    // Moderators have no hard delete.
    await expect(bulk.getByLabel("Action").locator("option", { hasText: "Delete" })).toHaveCount(0);
  });

  for (const viewport of VIEWPORTS.filter((v) => v.name !== "tablet")) {
    test(`dashboard, posts, comments and audit log are usable at ${viewport.name} width`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signInThroughApi(page, ADMIN);
      await page.goto("/admin");
      await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
      const chart = page.getByRole("img", { name: /Posts and sign-ups per day/ });
      await expect(chart).toBeVisible();
      await page.getByText("The numbers, day by day").click();
      await expect(page.getByRole("table", { name: "Posts and sign-ups per day" })).toBeVisible();
      await expectAccessible(page);

      for (const [path, heading] of [
        ["/admin/posts", "Posts"],
        ["/admin/comments", "Comments"],
        ["/admin/audit", "Audit log"],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        await expectAccessible(page);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, `${path} scrolls sideways`).toBeLessThanOrEqual(0);
      }
    });
  }

  test("a member is refused the console", async ({ page }) => {
    await signInThroughApi(page, { email: "sarah.kim@example.org", password: "Chalkboard#2026" });
    const response = await page.goto("/admin/posts");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "Not allowed" })).toBeVisible();
  });
});
