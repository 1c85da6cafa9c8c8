import { randomBytes } from "node:crypto";
import type { BrowserContext } from "@playwright/test";
import {
  expect,
  expectAccessible,
  postDealThroughApi,
  signInThroughApi,
  test,
} from "./fixtures.ts";

// The demo data's administrator (db/demo/people.ts), with the demo password.
const ADMIN = { email: "admin@example.com", password: "Chalkboard#2026" };

/** Outside sites (the stores) answer with a stub page: nothing leaves the machine. */
async function stubOutsideWorld(context: BrowserContext) {
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<title>outside</title>" }),
  );
}

test.describe("honest links", () => {
  test("an affiliate deal: GRAB DEAL through /go marked sponsored, the label's tooltip, the clean link", async ({
    page,
    context,
  }) => {
    await stubOutsideWorld(context);
    const userId = await signInThroughApi(page, ADMIN);
    const tag = randomBytes(3).toString("hex");
    const base = `https://www.example.com/products/honest-globe-${tag}`;
    const link = `${base}?tag=chalk-20&utm_source=newsletter&color=blue`;
    const deal = await postDealThroughApi(page, userId, {
      title: `Honest globe ${tag}`,
      link,
      price: "12.50",
      description: "<p>Posted for the honest links journey.</p>",
    });

    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto(deal.url);
    const grab = page.getByRole("link", { name: /^GRAB DEAL/ });
    await expect(grab).toHaveAttribute("href", `/go/${deal.unique_id}`);
    await expect(grab).toHaveAttribute("rel", "sponsored nofollow noopener");
    await expect(grab).toHaveAttribute("target", "_blank");

    // The label explains itself to screen readers, and to keyboard, mouse and touch users.
    const label = page.getByRole("button", { name: "Affiliate link" });
    await expect(label).toHaveAccessibleDescription(/may earn a commission/);
    const tooltip = page.getByRole("tooltip");
    await expect(tooltip).toBeHidden();
    await grab.focus();
    await page.keyboard.press("Tab");
    await expect(label).toBeFocused();
    await expect(tooltip).toBeVisible();
    await expect(tooltip).toContainText("clean link");
    await page.keyboard.press("Escape");
    await expect(tooltip).toBeHidden();
    await page.keyboard.press("Tab");
    await expect(tooltip).toBeHidden();
    await label.click();
    await expect(tooltip).toBeVisible();

    const clean = page.getByRole("link", { name: /^Clean link/ });
    await expect(clean).toHaveAttribute("href", `${base}?color=blue`);
    await expect(clean).toHaveAttribute("rel", "nofollow noopener noreferrer");
    await expect(clean).toHaveAttribute("target", "_blank");
    // The spec's disclosure banner stays.
    await expect(page.getByText(/may earn a commission from brands/).first()).toBeVisible();
    await expectAccessible(page);

    // GRAB DEAL goes through /go, which counts the click and redirects to the stored link.
    await page.setViewportSize({ width: 1280, height: 900 });
    // (A route does not catch a redirect's next request, so the tab itself may not load here.)
    const [, outbound] = await Promise.all([
      context.waitForEvent("page"),
      context.waitForEvent("request", (request) => request.url() === link),
      grab.click(),
    ]);
    expect(outbound.redirectedFrom()?.url()).toMatch(new RegExp(`/go/${deal.unique_id}$`));
    await expectAccessible(page);
  });

  test("a plain deal: no affiliate label, rel without sponsored", async ({ page }) => {
    const userId = await signInThroughApi(page, ADMIN);
    const tag = randomBytes(3).toString("hex");
    const link = `https://www.example.com/products/plain-ruler-${tag}?size=30cm`;
    const deal = await postDealThroughApi(page, userId, {
      title: `Plain ruler ${tag}`,
      link,
      price: "12.50",
      description: "<p>Posted for the honest links journey.</p>",
    });

    await page.goto(deal.url);
    await expect(page.getByRole("link", { name: /^GRAB DEAL/ })).toHaveAttribute(
      "rel",
      "nofollow noopener",
    );
    await expect(page.getByRole("button", { name: "Affiliate link" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: /^Clean link/ })).toHaveAttribute("href", link);
  });

  test("the console's store form takes an affiliate template, and the store page counts clicks", async ({
    page,
  }) => {
    await signInThroughApi(page, ADMIN);
    const tag = randomBytes(3).toString("hex");
    const title = `Partner Pencils ${tag}`;
    await page.goto("/admin/stores");
    await page.getByRole("link", { name: "New store" }).click();
    await page.getByLabel(/^Title/).fill(title);
    const template = page.getByLabel(/^Affiliate template/);
    await template.fill("https://partner.example/?u=");
    await page.getByRole("button", { name: "Create store" }).click();
    await expect(page.getByText(/contains \{url\}/).first()).toBeVisible();
    await expect(template).toHaveAttribute("aria-invalid", "true");

    await template.fill("https://partner.example/?u={url}");
    await page.getByRole("button", { name: "Create store" }).click();
    await expect(page.getByText(`Store “${title}” was created.`)).toBeVisible();

    await page.goto(`/store/partner-pencils-${tag}`);
    await expect(page.getByText("0 clicks in the last 30 days")).toBeVisible();
  });
});
