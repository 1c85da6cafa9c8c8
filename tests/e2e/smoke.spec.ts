import { expect, test } from "./fixtures.ts";

test.describe("smoke", () => {
  test("the home page renders its deals in the first HTML", async ({ request }) => {
    const response = await request.get("/");
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toContain("Recent Deals");
    expect(html).toContain("Trending Deals");
    expect(html).toMatch(/class="deal-card/);
  });

  // The home page at phone, tablet and desktop widths (heading, a deal card, no overflow, axe) is
  // checked with the other listing screens in listings.spec.ts.

  test("a navigation link works and is marked active", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Contact Us" })
      .click();
    await expect(page).toHaveURL(/\/contact$/);
    const active = page.locator(".nav-link.active");
    await expect(active).toHaveText("Contact Us");
    await expect(active).toHaveCSS("background-color", "rgb(53, 63, 102)");
    await expect(active).toHaveCSS("color", "rgb(255, 255, 255)");
  });

  test("the mobile menu toggles and closes on a choice", async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await page.goto("/");
    const toggle = page.getByRole("button", { name: "Open menu" });
    await toggle.click();
    await expect(page.locator("#navbar-menu")).toBeVisible();
    await page.locator("#navbar-menu").getByRole("link", { name: "Stores" }).click();
    await expect(page).toHaveURL(/\/store$/);
    await expect(page.locator("#navbar-menu")).toBeHidden();
  });

  test("a deal card opens its deal page", async ({ page }) => {
    await page.goto("/");
    const card = page.locator(".deal-card-title a").first();
    const title = (await card.textContent())!.trim();
    const href = await card.getAttribute("href");
    expect(href).toMatch(/^\/post\/[a-z0-9]+\/[a-z0-9-]+$/);
    await card.click();
    await expect(page).toHaveURL(new RegExp(href!.replace(/[/]/g, "\\/") + "$"));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  });

  test("the search box goes to /search with the query", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/");
    await page.getByRole("searchbox", { name: "Search deals" }).fill("crayons");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/search\?query=crayons/);
  });

  test("an unknown path is a 404 with a way home", async ({ page }) => {
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page Not Found" })).toBeVisible();
    await page.getByRole("link", { name: "Go To Home" }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test("the footer shows this year and opens the privacy policy in a new tab", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".site-footer")).toContainText(`© ${new Date().getFullYear()}`);
    await expect(page.locator(".site-footer")).toContainText("Follow us on");
    const privacy = page.getByRole("link", { name: "Privacy Policy" });
    await expect(privacy).toHaveAttribute("target", "_blank");
  });
});
