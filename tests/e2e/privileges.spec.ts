import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, mailbox, signInThroughApi, test } from "./fixtures.ts";

/**
 * Privileges by level (record 0089): a new member's deal with a link waits for review, the form
 * says why naming the thresholds, My Account lists it marked "Waiting for review", and the help
 * page states the rules.
 */

const PASSWORD = "Chalk#Board42";

/**
 * A new member (no approved post, level Newcomer), confirmed through their mailed link (only
 * confirmed members post), signed in on the page's browser context.
 */
async function signedInNewcomer(page: Page) {
  const email = `e2e-newcomer-${Date.now()}-${randomBytes(3).toString("hex")}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: "Nell Newcomer", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const link = await mailbox.linkTo(email, /\/confirm\//);
  const code = new URL(link).pathname.split("/").pop()!;
  const verify = await page.request.post("/api/verify", { data: { confirmation_code: code } });
  expect(verify.ok(), await verify.text()).toBe(true);
  await signInThroughApi(page, { email, password: PASSWORD });
}

/** The shown tab's panel of Submit Deals. */
const panel = (page: Page) => page.locator('[role="tabpanel"]:not([hidden])');

async function chooseFirst(page: Page, label: RegExp) {
  const select = panel(page).getByLabel(label);
  const value = await select.locator("option").nth(1).getAttribute("value");
  await select.selectOption(value!);
}

test("a new member's deal with a link waits for review, says why, and shows in My Account", async ({
  page,
}) => {
  await signedInNewcomer(page);
  await page.goto("/submitdeal");
  const title = `Held glue sticks ${Date.now()}`;
  await chooseFirst(page, /Deal category/);
  await chooseFirst(page, /^Store/);
  await chooseFirst(page, /^Category/);
  await panel(page)
    .getByLabel(/^Title/)
    .fill(title);
  await panel(page)
    .getByLabel(/Deal link/)
    .fill(`https://www.example.com/glue-${Date.now()}`);
  const editor = panel(page).locator('.rte-content[contenteditable="true"]');
  await expect(editor).toBeVisible();
  await editor.click();
  await page.keyboard.type("Thirty glue sticks for the class.");
  await page.getByRole("button", { name: "Submit Deal" }).click();

  const notice = panel(page).locator(".submit-notice .alert-success");
  await expect(notice).toContainText("Deal has been Submitted.");
  await expect(notice).toContainText(
    "Your post has a link, so it waits for a moderator's review; until then only you can see it. New members' posts with links are checked: members can post links without review after 2 approved posts or on reaching the Member level.",
  );

  await page.goto("/user/profile");
  const waiting = page.locator(".profile-waiting");
  await expect(waiting.getByRole("heading", { name: "Waiting for review" })).toBeVisible();
  const item = waiting.getByRole("listitem").filter({ hasText: title });
  await expect(item).toContainText("Waiting for review");
  await expect(item.getByRole("link", { name: title })).toHaveAttribute("href", /^\/post\//);
  await expectAccessible(page);

  await waiting.getByRole("link", { name: "Why posts wait" }).click();
  await expect(page).toHaveURL(/\/help#privileges$/);
  await expect(
    page.getByRole("heading", { level: 1, name: "How Chalkboard Deals works" }),
  ).toBeVisible();
});

test("the help page states levels, privileges and vote weight, and the footer links to it", async ({
  page,
}) => {
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "How it works" }).click();
  await expect(page).toHaveURL(/\/help$/);
  const privileges = page.locator("#privileges");
  await expect(privileges.getByRole("heading", { name: "Privileges by level" })).toBeVisible();
  await expect(privileges).toContainText(
    "You are a new member until you have 2 approved posts or reach the Member level.",
  );
  const weights = page.getByRole("table", { name: "What one vote counts for, by level" });
  await expect(weights.getByRole("row", { name: /Trusted/ })).toContainText("3 votes");
  await expect(
    page.getByRole("table", { name: "Levels and the points they begin at" }),
  ).toBeVisible();
  await expectAccessible(page);
});
