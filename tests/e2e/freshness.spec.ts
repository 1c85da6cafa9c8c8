import type { Page } from "@playwright/test";
import { buildDemoPlan } from "../../db/demo/plan.ts";
import { expect, expectAccessible, mailbox, test } from "./fixtures.ts";

/**
 * Freshness (record 0038) in the browser: the deal page says when the deal was last verified, and a
 * member's Worked on a coupon deal moves its "worked for N of M" count and its last verified.
 * Each viewport signs up a new, confirmed member, so each answer is a new one.
 */

const PASSWORD = "Chalk#Board42";
const WIDTHS = [
  { name: "phone", width: 375, height: 812 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

// Coupon deals with no end date, from the end of the demo plan (other browser tests use the first).
const COUPONS = buildDemoPlan("full")
  .posts.filter((p) => p.kind === "coupon" && p.couponCode && p.expiresAfterMin === null)
  .slice(-2);

async function confirmedMember(page: Page, label: string) {
  const email = `e2e-fresh-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: "Fresh Tester", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await page.goto(await mailbox.linkTo(email, /\/confirm\//));
  // The page confirms once its script runs (POST /api/verify): wait for it to say so.
  await expect(page.getByRole("main").getByRole("link", { name: "Login" })).toBeVisible({
    timeout: 20_000,
  });
  const signin = await page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect(signin.ok(), await signin.text()).toBe(true);
}

/** "Worked for 3 of 4 people …" → [3, 4]; nobody yet → [0, 0]. */
async function counts(page: Page): Promise<[number, number]> {
  const text = (await page.getByTestId("coupon-worked").textContent()) ?? "";
  const match = /Worked for (\d+) of (\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
}

WIDTHS.forEach((viewport, i) => {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a visitor reads Last verified; a member's Worked moves the count", async ({ page }) => {
      const deal = COUPONS[i]!;
      const path = `/post/${deal.uniqueId}/${deal.slug}`;

      await page.goto(path);
      const panel = page.getByRole("region", { name: "Is this deal still good?" });
      await expect(panel.getByTestId("last-verified")).toHaveText(
        /^Last verified (.+ ago|just now)$/,
      );
      await expect(panel.getByRole("link", { name: "Sign in" })).toBeVisible();
      await expect(panel.getByRole("button", { name: "Worked" })).toHaveCount(0);

      await confirmedMember(page, viewport.name);
      await page.goto(path);
      const worked = panel.getByRole("button", { name: "Worked", exact: true });
      await expect(worked).toHaveAttribute("aria-pressed", "false");
      const [before, total] = await counts(page);
      await expectAccessible(page);

      // A click before hydration does nothing: click until the answer is in.
      await expect(async () => {
        if ((await worked.getAttribute("aria-pressed")) !== "true") await worked.click();
        await expect(worked).toHaveAttribute("aria-pressed", "true", { timeout: 2_000 });
      }).toPass({ timeout: 15_000 });
      await expect(panel.getByRole("status")).toHaveText(
        "Thanks! We counted that the code worked for you.",
      );
      await expect(panel.getByTestId("coupon-worked")).toHaveText(
        `Worked for ${before + 1} of ${total + 1} ${total + 1 === 1 ? "person" : "people"} in the last 30 days`,
      );
      await expect(panel.getByTestId("last-verified")).toHaveText("Last verified just now");
      await expect(panel).toContainText("by a member whose code worked");

      // It stays so after a reload, with the member's answer pressed.
      await page.reload();
      await expect(panel.getByTestId("coupon-worked")).toContainText(
        `Worked for ${before + 1} of ${total + 1}`,
      );
      await expect(panel.getByRole("button", { name: "Worked", exact: true })).toHaveAttribute(
        "aria-pressed",
        "true",
      );
    });
  });
});
