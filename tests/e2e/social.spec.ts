import { expect, test } from "./fixtures.ts";

// The global setup's OpenID Connect provider signs in "Social Teacher" with a verified address.
test("Google sign-in runs the code flow and signs the person in", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/login");
  await page.locator("#main").getByRole("link", { name: "Google", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "My Account" })).toBeVisible();
  await nav.getByRole("link", { name: "My Account" }).click();
  await expect(page.getByRole("heading", { name: "Social Teacher" })).toBeVisible();
});

test("Facebook sign-in is offered on the register screen", async ({ page }) => {
  await page.goto("/register");
  await expect(
    page.locator("#main").getByRole("link", { name: "Facebook", exact: true }),
  ).toHaveAttribute("href", "/auth/facebook?intent=login");
});
