import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  hydrated,
  postDealThroughApi,
  signInThroughApi,
  test,
  xsrfToken,
} from "./fixtures.ts";

/**
 * Vote weight by level (record 0090): on a deal page, a Trusted member's thumbs up shows the
 * weighted degrees at once, before the server answers, and the same after it and after a reload.
 *
 * No demo member is Trusted by the default thresholds, so the administrator lowers them for the
 * journey until the demo account (the member with the most points) is, and puts them back after.
 * No other journey votes as the demo account.
 */

// The demo data's accounts (db/demo/people.ts), with the demo password.
const ADMIN = { email: "admin@example.com", password: "Chalkboard#2026" };
const DEMO = { email: "demo@example.com", password: "Chalkboard#2026" };

interface Thresholds {
  member_points: number;
  regular_points: number;
  trusted_points: number;
}

async function setThresholds(page: Page, levels: Thresholds) {
  const response = await page.request.post("/api/admin/reputation_levels", {
    headers: { "x-xsrf-token": await xsrfToken(page) },
    data: levels,
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test.describe("at 1280 px (desktop)", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("a Trusted member's like shows 30° at once, as the server counts it", async ({ page }) => {
    // The demo account's points decide the thresholds that make it Trusted.
    const demoId = await signInThroughApi(page, DEMO);
    const profile = await page.request.post("/api/user_profile", {
      headers: { "x-xsrf-token": await xsrfToken(page) },
      data: { user_id: demoId, page: 1 },
    });
    expect(profile.ok(), await profile.text()).toBe(true);
    const points = (await profile.json()).response.reputation.points as number;
    expect(points).toBeGreaterThanOrEqual(3);
    await page.context().clearCookies();

    const adminId = await signInThroughApi(page, ADMIN);
    const tag = randomBytes(3).toString("hex");
    const deal = await postDealThroughApi(page, adminId, { title: `Vote weight ${tag}` });
    const read = await page.request.get("/api/admin/reputation_levels");
    expect(read.ok(), await read.text()).toBe(true);
    const before = (await read.json()).levels as Thresholds;
    await setThresholds(page, {
      member_points: points - 2,
      regular_points: points - 1,
      trusted_points: points,
    });
    try {
      await page.context().clearCookies();
      await signInThroughApi(page, DEMO);
      await page.goto(deal.url);
      const like = page.locator(".like-buttons").getByRole("button", { name: /^Like/ });
      const badge = page.locator(".like-buttons .temp-badge");
      await hydrated(like);
      await expect(badge).toHaveText("0°");

      // Hold the server's answer: the degrees shown meanwhile are the page's own reckoning.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/product_like_unlike", async (route) => {
        await held;
        await route.continue();
      });
      const answered = page.waitForResponse("**/api/product_like_unlike");
      await like.click();
      await expect(like).toHaveAttribute("aria-pressed", "true");
      await expect(badge).toHaveText("30°");
      release();
      const answer = await (await answered).json();
      expect(answer).toMatchObject({ is_liked: 1, likes: 1, temperature: 30 });
      await expect(badge).toHaveText("30°");
      await expect(like).toContainText("1");
      await page.unroute("**/api/product_like_unlike");
      await expectAccessible(page);

      // After a reload the page knows the vote's weight: taking it back shows 0° at once.
      await page.reload();
      await hydrated(like);
      await expect(badge).toHaveText("30°");
      const takenBack = page.waitForResponse("**/api/product_like_unlike");
      await like.click();
      await expect(badge).toHaveText("0°");
      expect(await (await takenBack).json()).toMatchObject({ is_liked: -1, temperature: 0 });
      await expect(badge).toHaveText("0°");
    } finally {
      await page.context().clearCookies();
      await signInThroughApi(page, ADMIN);
      await setThresholds(page, before);
    }
  });
});
