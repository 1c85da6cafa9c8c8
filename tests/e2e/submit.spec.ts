import sharp from "sharp";
import type { Page } from "@playwright/test";
import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

// A demo member of the seeded data (every demo account has the demo password); the demo account
// itself is left to the account journeys.
const MEMBER = { email: "sarah.kim@example.org", password: "Chalkboard#2026" };

async function signIn(page: Page) {
  const response = await page.request.post("/api/signin", { data: MEMBER });
  expect(response.ok(), await response.text()).toBe(true);
}

function pngBuffer(): Promise<Buffer> {
  return sharp({ create: { width: 120, height: 90, channels: 3, background: "#2f6b4f" } })
    .png()
    .toBuffer();
}

/** The shown tab's panel (the other panel stays in the page, hidden). */
function visiblePanel(page: Page) {
  return page.locator('[role="tabpanel"]:not([hidden])');
}

/** Chooses the first real option of a select (the first is the "Select a …" prompt). */
async function chooseFirst(page: Page, label: RegExp) {
  const select = visiblePanel(page).getByLabel(label);
  const value = await select.locator("option").nth(1).getAttribute("value");
  await select.selectOption(value!);
}

/** Types into the TipTap editor once its chunk has loaded. */
async function typeDescription(page: Page, text: string) {
  const editor = visiblePanel(page).locator('.rte-content[contenteditable="true"]');
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.type(text);
}

test.describe("Submit Deals", () => {
  test("a visitor is sent to /login", async ({ page }) => {
    await page.goto("/submitdeal");
    await expect(page).toHaveURL(/\/login\?next=%2Fsubmitdeal$/);
  });

  for (const viewport of VIEWPORTS) {
    test(`both forms at ${viewport.name} width are usable and accessible`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page);
      await page.goto("/submitdeal");
      await expect(page.getByRole("heading", { level: 1, name: "Submit Deals" })).toBeVisible();
      const dealTab = page.getByRole("tab", { name: "Deal" });
      await expect(dealTab).toHaveAttribute("aria-selected", "true");
      await expect(visiblePanel(page).getByLabel(/Deal category/)).toBeVisible();
      await expect(visiblePanel(page).locator(".rte-content")).toBeVisible();
      await expectAccessible(page);

      await page.getByRole("tab", { name: "Discussion" }).click();
      await expect(page.getByLabel(/Deal category/)).toBeHidden();
      await expect(page.getByRole("button", { name: "Submit Discussion" })).toBeVisible();
      await expectAccessible(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }

  test("the tabs work from the keyboard", async ({ page }) => {
    await signIn(page);
    await page.goto("/submitdeal");
    await page.getByRole("tab", { name: "Deal" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "Discussion" })).toBeFocused();
    await expect(page.getByRole("tab", { name: "Discussion" })).toHaveAttribute(
      "aria-selected",
      "true",
    );
    await page.keyboard.press("Home");
    await expect(page.getByRole("tab", { name: "Deal" })).toHaveAttribute("aria-selected", "true");
  });

  test("each form shows its validation messages", async ({ page }) => {
    await signIn(page);
    await page.goto("/submitdeal");
    await page.getByRole("button", { name: "Submit Deal" }).click();
    for (const message of [
      "Please select a deal category.",
      "Please select a store.",
      "Title is required.",
      "Description is required.",
    ]) {
      await expect(page.getByText(message).first()).toBeVisible();
    }
    await expect(visiblePanel(page).getByLabel(/Deal category/)).toBeFocused();
    await visiblePanel(page)
      .getByLabel(/Discount/)
      .fill("150");
    await visiblePanel(page)
      .getByLabel(/Deal link/)
      .fill("not a link");
    await page.getByRole("button", { name: "Submit Deal" }).click();
    await expect(page.getByText("Discount must be a number from 0 to 100.")).toBeVisible();
    await expect(
      page.getByText("Please enter a valid link starting with http:// or https://."),
    ).toBeVisible();

    await page.getByRole("tab", { name: "Discussion" }).click();
    await page.getByRole("button", { name: "Submit Discussion" }).click();
    const panel = visiblePanel(page);
    await expect(panel.getByText("Please select a category.")).toBeVisible();
    await expect(panel.getByText("Description is required.")).toBeVisible();
  });

  test("a deal with an image is submitted, shown, and the form resets after 3 s", async ({
    page,
  }) => {
    await signIn(page);
    await page.goto("/submitdeal");
    const title = `Washable markers 24-pack ${Date.now()}`;
    await chooseFirst(page, /Deal category/);
    await chooseFirst(page, /^Store/);
    await chooseFirst(page, /^Category/);
    await visiblePanel(page)
      .getByLabel(/^Title/)
      .fill(title);
    await visiblePanel(page)
      .getByLabel(/^Price/)
      .fill("7.49");
    await visiblePanel(page)
      .getByLabel(/Discount/)
      .fill("25");
    await visiblePanel(page)
      .getByLabel(/Deal link/)
      .fill(`https://www.example.com/markers-${Date.now()}`);
    await visiblePanel(page)
      .getByLabel(/Upload an image/)
      .setInputFiles({
        name: "markers.png",
        mimeType: "image/png",
        buffer: await pngBuffer(),
      });
    await expect(visiblePanel(page).getByAltText("Preview of the chosen image")).toBeVisible();
    await typeDescription(page, "Bright colors that wash out of clothes.");
    await visiblePanel(page).getByRole("button", { name: "Bold" }).click();
    await page.keyboard.type(" Great for art centers.");

    await page.getByRole("button", { name: "Submit Deal" }).click();
    const notice = visiblePanel(page).locator(".submit-notice .alert-success");
    await expect(notice).toContainText("Deal has been Submitted.");
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeLessThan(50);
    const postLink = notice.getByRole("link", { name: "View your post." });
    const href = await postLink.getAttribute("href");
    expect(href).toMatch(/^\/post\/[a-z0-9]+\/washable-markers-24-pack-\d+$/);

    // The message clears and the form empties 3 s later.
    await expect(notice).toBeHidden({ timeout: 6000 });
    await expect(visiblePanel(page).getByLabel(/^Title/)).toHaveValue("");

    await page.goto(href!);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.locator('img[src^="/media/deals/"]').first()).toBeVisible();
    await expect(page.locator("strong", { hasText: "Great for art centers." })).toBeVisible();
  });

  test("a second post of the same link points to the existing deal", async ({ page }) => {
    await signIn(page);
    const link = `https://www.example.com/laminator-${Date.now()}`;
    for (const attempt of [1, 2]) {
      await page.goto("/submitdeal");
      await chooseFirst(page, /Deal category/);
      await chooseFirst(page, /^Store/);
      await chooseFirst(page, /^Category/);
      await visiblePanel(page)
        .getByLabel(/^Title/)
        .fill(`Thermal laminator ${attempt}`);
      await visiblePanel(page)
        .getByLabel(/Deal link/)
        .fill(link);
      await typeDescription(page, "Laminates letter-size pages.");
      await page.getByRole("button", { name: "Submit Deal" }).click();
      if (attempt === 1) {
        await expect(visiblePanel(page).locator(".submit-notice")).toContainText(
          "Deal has been Submitted.",
        );
      }
    }
    const notice = visiblePanel(page).locator(".submit-notice .alert-danger");
    await expect(notice).toContainText("This deal has already been posted.");
    await notice.getByRole("link", { name: /Thermal laminator 1/ }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Thermal laminator 1" }),
    ).toBeVisible();
  });

  test("a discussion is submitted and shown in the educators' forum", async ({ page }) => {
    await signIn(page);
    await page.goto("/submitdeal");
    await page.getByRole("tab", { name: "Discussion" }).click();
    const panel = visiblePanel(page);
    const title = `Favorite read-alouds for October ${Date.now()}`;
    await chooseFirst(page, /^Category/);
    await panel.getByLabel(/^Title/).fill(title);
    await typeDescription(page, "Which picture books do your students ask for again?");
    await panel.getByRole("button", { name: "Submit Discussion" }).click();
    const notice = panel.locator(".submit-notice .alert-success");
    await expect(notice).toContainText("Discussion has been Submitted.");
    const href = await notice.getByRole("link", { name: "View your post." }).getAttribute("href");
    expect(href).toMatch(/^\/educator\/[a-z0-9]+\/favorite-read-alouds-for-october-\d+$/);
    await page.goto(href!);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  });
});

test.describe("Payment", () => {
  test("a visitor is sent to /login", async ({ page }) => {
    await page.goto("/payment");
    await expect(page).toHaveURL(/\/login\?next=%2Fpayment$/);
  });

  for (const viewport of VIEWPORTS) {
    test(`without Stripe keys the page says so at ${viewport.name} width`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await signIn(page);
      await page.goto("/payment");
      await expect(page.getByRole("heading", { level: 1, name: "Subscription" })).toBeVisible();
      await expect(page.getByText("$10.99")).toBeVisible();
      await expect(page.getByText("Payments are not configured on this site.")).toBeVisible();
      await expectAccessible(page);
    });
  }
});
