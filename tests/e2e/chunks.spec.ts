import { expect, test } from "./fixtures.ts";

test("a widget whose script chunk fails leaves the page working and reports the failure", async ({
  page,
}) => {
  const reports: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") reports.push(message.text());
  });
  await page.route(/\/assets\/WishlistSlider-[^/]+\.js$/, (route) => route.abort());
  await page.goto("/");
  // The carousel loads when the strip comes near the window.
  await page.getByRole("heading", { name: "Teachers Wishlist" }).scrollIntoViewIfNeeded();
  await expect.poll(() => reports.join("\n")).toContain("Loading chunk wishlist-carousel failed");
  // The plain, server-rendered wishlist stays, and the rest of the page works.
  await expect(page.locator(".wishlist-strip")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent Deals" })).toBeVisible();
  await expect(page.locator(".wishlist-carousel .slick-slider")).toHaveCount(0);
});
