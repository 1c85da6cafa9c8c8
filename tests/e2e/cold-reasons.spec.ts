import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  VIEWPORTS,
  expect,
  expectAccessible,
  hydrated,
  postDealThroughApi,
  signInThroughApi,
  test,
} from "./fixtures.ts";

/**
 * Cold votes say why (record 0086): on a deal page the cold button asks for the reason in a
 * dialog, by keyboard as by pointer; the poster and moderators then read the counts per reason,
 * other members and visitors do not.
 */

// The demo data's administrator (db/demo/people.ts), with the demo password: the deal's poster.
const ADMIN = { email: "admin@example.com", password: "Chalkboard#2026" };
const PASSWORD = "Chalk#Board42";

/** A fresh deal posted by the administrator, whose page no other journey votes on. */
async function postedDeal(page: Page, label: string) {
  const adminId = await signInThroughApi(page, ADMIN);
  const tag = randomBytes(3).toString("hex");
  const deal = await postDealThroughApi(page, adminId, { title: `Cold reasons ${label} ${tag}` });
  await page.context().clearCookies();
  return deal;
}

/** A new member, signed in on the page's browser context. */
async function signedInMember(page: Page, label: string) {
  const email = `e2e-cold-${label}-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: "Cold Voter", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await signInThroughApi(page, { email, password: PASSWORD });
}

test.describe("at 375 px (phone)", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("a member chooses a reason with the keyboard; the poster sees it counted, others do not", async ({
    page,
  }) => {
    const deal = await postedDeal(page, "keyboard");
    await signedInMember(page, "keyboard");
    await page.goto(deal.url);
    const unlike = page.locator(".like-buttons").getByRole("button", { name: /^Unlike/ });
    await hydrated(unlike);
    await expect(unlike).toHaveAttribute("aria-haspopup", "dialog");
    const dialog = page.getByRole("dialog", { name: "Why is this deal cold?" });

    // Enter opens the list on its first reason; Escape closes it, votes nothing, and gives the
    // focus back to the button.
    await unlike.focus();
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Expired" })).toBeFocused();
    const reasons = dialog.getByRole("listitem");
    await expect(reasons).toHaveText([
      "Expired",
      "Not a deal",
      "Cheaper elsewhere",
      "Repost",
      "Spam or referral",
      "Wrong price",
    ]);
    // The list fits the phone's screen.
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(unlike).toBeFocused();
    await expect(unlike).toHaveAttribute("aria-pressed", "false");

    // Tab to Repost, Enter: the cold vote goes with its reason.
    await page.keyboard.press("Enter");
    await expect(dialog).toBeVisible();
    for (const name of ["Not a deal", "Cheaper elsewhere", "Repost"]) {
      await page.keyboard.press("Tab");
      await expect(dialog.getByRole("button", { name })).toBeFocused();
    }
    const voted = page.waitForRequest("**/api/product_like_unlike");
    await page.keyboard.press("Enter");
    expect((await voted).postDataJSON()).toMatchObject({ btn_type: "unlike", reason: "repost" });
    await expect(dialog).toBeHidden();
    await expect(unlike).toHaveAttribute("aria-pressed", "true");
    await expect(unlike).toBeFocused();
    // A reason-giving cold vote weighs a whole vote: -10° on a deal nobody had voted on.
    await expect(page.locator(".like-buttons .temp-badge")).toHaveText("-10°");
    // Another member sees no counts per reason.
    await expect(page.getByText("Cold votes:")).toHaveCount(0);

    // The poster (an administrator here) reads the count under the buttons.
    await page.context().clearCookies();
    await signInThroughApi(page, ADMIN);
    await page.goto(deal.url);
    await expect(page.locator(".cold-reason-counts")).toHaveText(
      "Cold votes: Repost 1 (only the poster and moderators see this)",
    );
    await expectAccessible(page);

    // A visitor's page has no counts.
    await page.context().clearCookies();
    await page.goto(deal.url);
    await expect(
      page.locator(".like-buttons").getByRole("button", { name: /^Unlike/ }),
    ).toBeVisible();
    await expect(page.getByText("Cold votes:")).toHaveCount(0);
  });
});

for (const viewport of VIEWPORTS.filter((v) => v.name !== "phone")) {
  test.describe(`at ${viewport.width} px (${viewport.name})`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the reasons dialog fits, passes axe, and a click on a reason votes", async ({ page }) => {
      const deal = await postedDeal(page, viewport.name);
      await signedInMember(page, viewport.name);
      await page.goto(deal.url);
      const unlike = page.locator(".like-buttons").getByRole("button", { name: /^Unlike/ });
      await hydrated(unlike);
      await unlike.click();
      const dialog = page.getByRole("dialog", { name: "Why is this deal cold?" });
      await expect(dialog).toBeVisible();
      const box = (await dialog.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Wrong price" }).click();
      await expect(dialog).toBeHidden();
      await expect(unlike).toHaveAttribute("aria-pressed", "true");
      // Taking the cold vote back asks nothing.
      await unlike.click();
      await expect(unlike).toHaveAttribute("aria-pressed", "false");
      await expect(dialog).toBeHidden();
    });
  });
}

test("a visitor's reason goes with their cold vote through signing in", async ({ page }) => {
  const deal = await postedDeal(page, "visitor");
  const email = `e2e-cold-visitor-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: "Cold Visitor", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await page.context().clearCookies();

  await page.goto(deal.url);
  const unlike = page.locator(".like-buttons").getByRole("button", { name: /^Unlike/ });
  await hydrated(unlike);
  await unlike.click();
  await page
    .getByRole("dialog", { name: "Why is this deal cold?" })
    .getByRole("button", { name: "Cheaper elsewhere" })
    .click();
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  const voted = page.waitForRequest("**/api/product_like_unlike");
  await page.getByRole("button", { name: "Login" }).click();
  expect((await voted).postDataJSON()).toMatchObject({
    btn_type: "unlike",
    reason: "cheaper_elsewhere",
  });
  await expect(
    page.locator(".like-buttons").getByRole("button", { name: /^Unlike/ }),
  ).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator(".like-buttons .temp-badge")).toHaveText("-10°");
});
