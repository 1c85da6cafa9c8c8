import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

// "Sign-in that returns you" (record 0035): a visitor who is sent to sign in comes back to the page
// they were on, and what they tried there (follow, comment) is done.

const PASSWORD = "Chalkboard#2026";
/** Demo members no other browser test uses, one per width so the two runs never meet. */
const MEMBERS = {
  375: { email: "hannah.schmidt@example.com", name: "Hannah Schmidt" },
  1280: { email: "brianna.davis@example.com", name: "Brianna Davis" },
} as const;
/** The member they follow: Andre Williams, user 18 of the demo data. */
const FOLLOWEE = { id: 18, name: "Andre Williams" };

/** Fills in and sends the login form, then waits out the spec's 3 s message. */
async function logInOnPage(page: Page, email: string) {
  await expect(page).toHaveURL(/\/login/);
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.locator("#main").getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Successfully Login")).toBeVisible();
}

/** Opens a page and waits until its scripts have run, so its buttons answer a click. */
async function openPage(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState("networkidle");
}

/** The newest deal's page path, from the new-deals listing. */
async function newestDealPath(page: Page): Promise<string> {
  await page.goto("/newdeals");
  const href = await page.locator('#main a[href^="/post/"]').first().getAttribute("href");
  expect(href).toMatch(/^\/post\//);
  return href!;
}

for (const width of [375, 1280] as const) {
  const member = MEMBERS[width];

  test.describe(`returning after sign-in at ${width} px`, () => {
    test.beforeEach(async ({ page }) => {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    });

    test("FOLLOW while signed out: sign in, back on the profile, following", async ({ page }) => {
      // Start from a known state: the member does not follow Andre yet.
      const signIn = await page.request.post("/api/signin", {
        data: { email: member.email, password: PASSWORD },
      });
      expect(signIn.ok()).toBe(true);
      await openPage(page, `/profile/${FOLLOWEE.id}`);
      const unfollow = page.getByRole("button", {
        name: `UN FOLLOW ${FOLLOWEE.name}`,
        exact: true,
      });
      if (await unfollow.isVisible()) {
        await unfollow.click();
        await expect(
          page.getByRole("button", { name: `FOLLOW ${FOLLOWEE.name}`, exact: true }),
        ).toBeVisible();
      }
      await page.context().clearCookies();

      await openPage(page, `/profile/${FOLLOWEE.id}`);
      await page.getByRole("button", { name: `FOLLOW ${FOLLOWEE.name}`, exact: true }).click();
      await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fprofile%2F${FOLLOWEE.id}$`));
      await logInOnPage(page, member.email);

      await expect(page).toHaveURL(new RegExp(`/profile/${FOLLOWEE.id}$`));
      await expect(
        page.getByRole("button", { name: `UN FOLLOW ${FOLLOWEE.name}`, exact: true }),
      ).toBeVisible();
      await expect(page.getByRole("navigation", { name: "Main" })).toContainText("My Account");
      // Done once: a reload does not follow (or unfollow) again.
      await page.reload();
      await expect(
        page.getByRole("button", { name: `UN FOLLOW ${FOLLOWEE.name}`, exact: true }),
      ).toBeVisible();

      // Leave the member as found, for the other runs.
      await page.getByRole("button", { name: `UN FOLLOW ${FOLLOWEE.name}`, exact: true }).click();
      await expect(
        page.getByRole("button", { name: `FOLLOW ${FOLLOWEE.name}`, exact: true }),
      ).toBeVisible();
    });

    test("a comment typed while signed out is posted on return", async ({ page }) => {
      const deal = await newestDealPath(page);
      const text = `Grabbed two for my classroom at ${width} px — thanks! (${Date.now()})`;
      await openPage(page, deal);
      const box = page.getByLabel("Your comment");
      await box.fill(text);
      await page.getByRole("button", { name: "LEAVE A COMMENT" }).click();
      await expect(page).toHaveURL(/\/login\?next=%2Fpost%2F/);
      await logInOnPage(page, member.email);

      await expect(page).toHaveURL(new RegExp(`${deal}$`));
      const comment = page.getByRole("article", { name: `Comment by ${member.name}` }).filter({
        hasText: text,
      });
      await expect(comment).toBeVisible();
      await expect(page.getByRole("status").filter({ hasText: /comment/i })).toBeVisible();
      await expect(page.getByLabel("Your comment")).toHaveValue("");
      // Posted once: a reload shows it once.
      await page.reload();
      await expect(comment).toHaveCount(1);
    });

    test("an off-site next is ignored: signing in ends on the home page", async ({ page }) => {
      await openPage(page, `/login?next=${encodeURIComponent("https://evil.example/steal")}`);
      await expect(page.locator('input[name="next"]')).toHaveCount(0);
      await logInOnPage(page, member.email);
      await expect(page).toHaveURL(/^http:\/\/(127\.0\.0\.1|localhost):\d+\/$/);
      for (const hostile of ["//evil.example", "/\\evil.example", "/%2F%2Fevil.example"]) {
        await page.goto(`/login?next=${encodeURIComponent(hostile)}`);
        await expect(page).toHaveURL(/^http:\/\/(127\.0\.0\.1|localhost):\d+\/$/);
      }
    });

    test("Google sign-in with next returns to that page", async ({ page }) => {
      await page.goto(`/login?next=${encodeURIComponent("/newdeals?page=2")}`);
      await page.locator("#main").getByRole("link", { name: "Google", exact: true }).click();
      await expect(page).toHaveURL(/\/newdeals\?page=2$/);
      await expect(page.getByRole("navigation", { name: "Main" })).toContainText("My Account");
    });
  });
}

test("the navigation bar's Login and Register links carry the page, and keep it between them", async ({
  page,
}) => {
  await openPage(page, "/newdeals?page=2");
  const nav = page.getByRole("navigation", { name: "Main" });
  const next = encodeURIComponent("/newdeals?page=2");
  await expect(nav.getByRole("link", { name: "Login" })).toHaveAttribute(
    "href",
    `/login?next=${next}`,
  );
  await nav.getByRole("link", { name: "Register" }).click();
  await expect(page).toHaveURL(new RegExp(`/register\\?next=${next}$`));
  await page.locator("#main").getByRole("link", { name: "Login" }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=${next}$`));
});
