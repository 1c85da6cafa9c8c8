import { randomBytes } from "node:crypto";
import {
  expect,
  expectAccessible,
  postDealThroughApi,
  signInThroughApi,
  test,
} from "./fixtures.ts";

/**
 * Price history (record 0040): a moderator merges two deals of the same product from the console's
 * edit page; the newer, cheaper deal then shows "Lowest price in 90 days" on its card and page,
 * "Was $X here on <date>", and the server-drawn chart with its table, at phone and desktop widths
 * and in both themes. The 90-day rules themselves are tested with fixed clocks in
 * tests/integration/price-history.test.ts.
 */

// The demo data's moderator (db/demo/people.ts).
const MODERATOR = { email: "moderator@example.com", password: "Chalkboard#2026" };

test("a merged product shows its badge, previous price and chart on the card and the deal page", async ({
  page,
}) => {
  const userId = await signInThroughApi(page, MODERATOR);
  const tag = randomBytes(3).toString("hex");
  const older = await postDealThroughApi(page, userId, {
    title: `Price journey laminator ${tag} at one store`,
    price: "24.99",
    link: `https://www.example.com/products/laminator-${tag}`,
    description: "<p>Posted for the price history journey.</p>",
  });
  const newer = await postDealThroughApi(page, userId, {
    title: `Price journey laminator ${tag} at another store`,
    price: "19.99",
    link: `https://shop.example.org/item/laminator-${tag}`,
    description: "<p>Posted for the price history journey.</p>",
  });

  // The console: the newer deal is the same product as the older one, named by its address.
  await page.goto(`/admin/posts/${newer.unique_id}/edit`);
  const merge = page.getByRole("form", { name: "Same product as another deal" });
  await expect(
    merge.getByRole("heading", { name: "This deal is its product's only deal" }),
  ).toBeVisible();
  await merge.getByLabel("The other deal's id or address").fill(older.url);
  await merge.getByLabel("Reason for the merge").fill("Same laminator, two stores");
  await merge.getByRole("button", { name: "Merge products" }).click();
  await expect(merge.getByRole("alert").or(merge.getByRole("status"))).toContainText(
    "this product now has 2 deals",
  );
  // The page reloads its data: both deals are listed, this one marked.
  await expect(merge.getByRole("heading", { name: "This product's 2 deals" })).toBeVisible();
  await expect(merge.locator(".merge-product-deals li")).toHaveCount(2);
  await expect(merge.locator(".merge-product-deals li").nth(1)).toContainText("(this deal)");
  await expectAccessible(page);

  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(newer.url);
    const note = page.locator(".price-history-note");
    await expect(note.getByText("Lowest price in 90 days")).toBeVisible();
    await expect(note).toContainText(/Was \$24\.99 here on [A-Z][a-z]{2} \d{1,2}, \d{4}/);

    const chart = page.getByRole("img", { name: /Price history of Price journey laminator/ });
    await expect(chart).toBeVisible();
    await expect(chart.locator("circle")).toHaveCount(2);
    await expect(chart.locator("circle.current")).toHaveCount(1);
    await expect(chart.locator("text").filter({ hasText: "$24.99" })).toHaveCount(1);
    await expect(chart.locator("text").filter({ hasText: "$19.99" })).toHaveCount(1);
    const table = page.locator(".price-history table");
    await expect(table.locator("tbody tr")).toHaveCount(2);
    await expect(table.locator("tbody tr").nth(1)).toContainText("(this deal)");
    await expect(table.locator("tbody tr").nth(1)).toContainText("$19.99");

    // It fits the phone: the chart stays inside the page, which does not scroll sideways.
    const box = (await chart.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(width);
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      return {
        by: document.documentElement.scrollWidth - width,
        // What sticks out, to say why when it does.
        what: [...document.querySelectorAll(".price-history, .price-history *")]
          .filter((el) => el.getBoundingClientRect().right > width)
          .map((el) => el.tagName),
      };
    });
    expect(overflow.by, overflow.what.join(", ")).toBeLessThanOrEqual(0);
    await expectAccessible(page);
  }

  // Dark mode: the line and the labels take the dark theme's colours, not the page background's.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(newer.url);
  await expect(page.locator(".price-history")).toBeVisible();
  const colours = await page.evaluate(() => {
    const chart = document.querySelector(".price-history")!;
    return {
      card: getComputedStyle(chart).backgroundColor,
      line: getComputedStyle(chart.querySelector(".price-history-line")!).stroke,
      text: getComputedStyle(chart.querySelector("svg text")!).fill,
    };
  });
  expect(colours.line).not.toBe(colours.card);
  expect(colours.text).not.toBe(colours.card);
  await expectAccessible(page);

  // The older deal's page shows the chart but no badge: it had nothing to beat.
  await page.goto(older.url);
  await expect(page.getByRole("img", { name: /Price history of/ })).toBeVisible();
  // (The newer deal may be among its related deals below, with its own badge.)
  await expect(
    page.locator("article.post-detail").getByText("Lowest price in 90 days"),
  ).toHaveCount(0);

  // The card of the newer deal carries the badge (search finds it by its tag).
  await page.goto(`/search?query=${tag}`);
  const card = page.locator(".deal-card").filter({ hasText: "at another store" });
  await expect(card.locator(".card-tag-lowest")).toHaveText("Lowest price in 90 days");
  const other = page.locator(".deal-card").filter({ hasText: "at one store" });
  await expect(other).toBeVisible();
  await expect(other.locator(".card-tag-lowest")).toHaveCount(0);
});
