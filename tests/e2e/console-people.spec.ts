import type { Page } from "@playwright/test";
import { DEMO_PASSWORD, DEMO_STAFF } from "../../db/demo/people.ts";
import { expect, expectAccessible, test } from "./fixtures.ts";

// The console's users and settings pages: an administrator suspends a member whose browser is
// open, and that browser is signed out on its next page and told why when it signs in again.

const PASSWORD = "Suspend#Me42";
const ADMIN = DEMO_STAFF.find((staff) => staff.role === "admin")!;

function newEmail(label: string) {
  return `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function signInAsAdmin(page: Page) {
  const response = await page.request.post("/api/signin", {
    data: { email: ADMIN.email, password: DEMO_PASSWORD },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

async function logIn(page: Page, email: string) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
}

/** A date `days` from now, as the date input and the server read it (YYYY-MM-DD, UTC). */
function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

test("the admin suspends a member: their open browser is signed out and sign-in says why", async ({
  page,
  browser,
}) => {
  const email = newEmail("suspended");
  const signup = await page.request.post("/api/signup", {
    data: { name: "Sam Suspended", email, password: PASSWORD },
  });
  expect(signup.status()).toBe(201);

  // The member's own browser, signed in and looking at the site.
  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  await logIn(memberPage, email);
  await expect(memberPage.getByText("Successfully Login")).toBeVisible();
  await memberPage.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
  await expect(memberPage.getByRole("link", { name: "My Account" })).toBeVisible();

  // The administrator finds them in the console and suspends them with a reason and an end date.
  await signInAsAdmin(page);
  await page.goto("/admin/users");
  await page.getByLabel("Name, email or id").fill(email);
  await page.getByRole("button", { name: "Filter" }).click();
  await page.waitForURL((url) => url.searchParams.get("q") === email);
  const row = page.getByRole("row").filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row.getByText("Active")).toBeVisible();
  await row.getByRole("button", { name: "Suspend" }).click();

  const dialog = page.getByRole("dialog", { name: "Suspend Sam Suspended?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Suspend" }).click();
  await expect(dialog.getByText("Please give a reason")).toBeVisible();
  await dialog.getByLabel("Reason").fill("Posting the same coupon in every thread");
  const until = daysFromNow(14);
  await dialog.getByLabel("Until").fill(until);
  await dialog.getByRole("button", { name: "Suspend" }).click();
  await expect(dialog).toBeHidden();
  const ends = new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${until}T00:00:00Z`));
  await expect(row.getByText(`Suspended until ${ends}`)).toBeVisible();
  await expect(row.getByText("Posting the same coupon in every thread")).toBeVisible();
  await expect(row.getByRole("button", { name: "Unsuspend" })).toBeVisible();

  // The member's next page: signed out.
  await memberPage.getByRole("link", { name: "My Account" }).click();
  await expect(memberPage.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(memberPage.getByRole("link", { name: "My Account" })).toHaveCount(0);

  // Signing in again says why, and when it ends.
  await logIn(memberPage, email);
  await expect(
    memberPage.getByText(
      `Your account is suspended until ${ends}: Posting the same coupon in every thread`,
    ),
  ).toBeVisible();
  await expect(memberPage.getByRole("link", { name: "My Account" })).toHaveCount(0);

  // Lifted: the member gets in again.
  await row.getByRole("button", { name: "Unsuspend" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Unsuspend" }).click();
  await expect(row.getByText("Active")).toBeVisible();
  await logIn(memberPage, email);
  await expect(memberPage.getByText("Successfully Login")).toBeVisible();
  await memberContext.close();
});

test.describe("the users and settings pages at 375 px", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("are accessible, fit the screen, and keep a blocked domain list", async ({ page }) => {
    await signInAsAdmin(page);
    for (const path of ["/admin/users", "/admin/settings"]) {
      await page.goto(path);
      await expect(page.locator(".console-main h1")).toBeVisible();
      await expectAccessible(page);
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }

    // A bad domain is a message on the field; a good one joins the list and can be removed.
    const domain = `e2e-blocked-${Date.now()}.example`;
    const form = page.getByRole("form", { name: "Block a domain" });
    await form.getByLabel("Domain").fill("not a domain");
    await form.getByRole("button", { name: "Block" }).click();
    await expect(form.getByText("Please enter a domain name such as example.com.")).toBeVisible();
    await form.getByLabel("Domain").fill(`https://www.${domain}/deals`);
    await form.getByRole("button", { name: "Block" }).click();
    await expect(page.getByText(`Links to ${domain} are now refused.`)).toBeVisible();
    // On phones the table's rows are cards (console.css): found by their element.
    const listed = page.locator("tr").filter({ hasText: domain });
    await expect(listed).toHaveCount(1);
    await listed.getByRole("button", { name: "Remove" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove" }).click();
    await expect(page.locator("tr").filter({ hasText: domain })).toHaveCount(0);

    // The settings form refuses an empty name on the field, saving nothing.
    await page.getByLabel("Website name").fill("");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect(page.getByText("The website name is required.")).toBeVisible();
    await expect(page.getByLabel("Website name")).toBeFocused();

    // The installed app's colours: labelled colour pickers, saved with the form, and the page's
    // theme-color follows (then back to the default, for the other specs).
    await page.reload();
    const theme = page.getByLabel("Theme colour");
    await expect(theme).toHaveAttribute("type", "color");
    await expect(page.getByLabel("Background colour")).toHaveValue("#f4f5f8");
    for (const colour of ["#1a7f4b", "#353f66"]) {
      await theme.fill(colour);
      await page.getByRole("button", { name: "Save settings" }).click();
      await expect(page.getByText("The settings have been saved.")).toBeVisible();
      await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", colour);
      await page.reload();
      await expect(theme).toHaveValue(colour);
    }
  });
});
