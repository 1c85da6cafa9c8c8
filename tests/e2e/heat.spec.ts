import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, test } from "./fixtures.ts";

/**
 * Heat (record 0008): the temperature badge on cards and the deal page, voting from a card in one
 * tap (optimistic, rolled back when refused; a cold vote first asks why, record 0086), compact
 * rows on phones, the grid | list toggle.
 * Each test that votes does so as a new member, and takes the vote back at the end.
 */

const PASSWORD = "Chalk#Board42";
const WIDTHS = [
  { name: "phone", width: 375, height: 812 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

function newEmail(label: string) {
  return `e2e-heat-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

/** A new member, signed in on the page's browser context. */
async function signedInMember(page: Page, label: string) {
  const email = newEmail(label);
  const signup = await page.request.post("/api/signup", {
    data: { name: "Heat Tester", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const signin = await page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect(signin.ok(), await signin.text()).toBe(true);
  return email;
}

/** The temperature a badge shows, read from its name ("Temperature 120 degrees, hot"), checked against its text. */
async function degrees(where: Locator): Promise<number> {
  const badge = where.getByRole("img", { name: /^Temperature -?\d+ degrees/ }).first();
  const name = (await badge.getAttribute("aria-label")) ?? "";
  const value = Number(/^Temperature (-?\d+) degrees/.exec(name)![1]);
  expect(await badge.textContent()).toBe(`${value}°`);
  return value;
}

/**
 * The first card of /newdeals that is not expired (or the `index`-th: tests that vote at once in
 * two browsers keep to cards of their own), once the page has hydrated.
 */
async function firstCard(page: Page, index = 0) {
  await page.goto("/newdeals");
  const card = page.locator(".deal-card:not(.expired)").nth(index);
  await expect(card).toBeVisible();
  return card;
}

for (const viewport of WIDTHS) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a card's badge and its deal page's badge agree; both pages pass axe", async ({
      page,
    }) => {
      const card = await firstCard(page);
      const onCard = await degrees(card);
      await expect(card.locator(".deal-card-age")).toHaveText(/ago$|^Just now$/);
      await expectAccessible(page);
      await card.getByRole("heading").getByRole("link").click();
      await page.waitForURL(/\/post\//);
      const buttons = page.locator(".like-buttons");
      await expect(buttons.locator(".temp-badge")).toBeVisible();
      expect(await degrees(buttons)).toBe(onCard);
      // The page never shows a "Loading…" line under the buttons.
      await expect(buttons.getByText("Loading…")).toHaveCount(0);
      await expectAccessible(page);
    });

    test("a member votes from a card: the badge moves at once, and the vote is theirs after a reload", async ({
      page,
    }) => {
      await signedInMember(page, `vote-${viewport.name}`);
      const card = await firstCard(page);
      // Other journeys post deals meanwhile: after the reload, find this deal's card by its id.
      const postId = await card.getAttribute("data-post-id");
      const before = await degrees(card);
      const hot = card.getByRole("button", { name: "Vote hot" });
      await expect(hot).toHaveAttribute("aria-pressed", "false");

      // Hold the server's answer: the card must not wait for it.
      let release: () => void = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route("**/api/product_like_unlike", async (route) => {
        await held;
        await route.continue();
      });
      const answered = page.waitForResponse("**/api/product_like_unlike");
      await hot.click();
      await expect(hot).toHaveAttribute("aria-pressed", "true");
      expect(await degrees(card)).toBe(before + 10);
      release();
      expect((await answered).status()).toBe(200);
      await page.unroute("**/api/product_like_unlike");
      await expect(hot).toHaveAttribute("aria-pressed", "true");

      // The cards are the same for everyone; the member's own vote comes from /api/my_reactions.
      const mine = page.waitForResponse("**/api/my_reactions");
      await page.reload();
      expect((await mine).status()).toBe(200);
      const again = page.locator(`.deal-card[data-post-id="${postId}"]`);
      await expect(again.getByRole("button", { name: "Vote hot" })).toHaveAttribute(
        "aria-pressed",
        "true",
      );

      // Taking it back (the same button again) leaves the deal as it was.
      await again.getByRole("button", { name: "Vote hot" }).click();
      await expect(again.getByRole("button", { name: "Vote hot" })).toHaveAttribute(
        "aria-pressed",
        "false",
      );
    });

    test("a cold vote from a card asks why, as the deal page's does", async ({ page }) => {
      await signedInMember(page, `cold-${viewport.name}`);
      const card = await firstCard(page, viewport.name === "phone" ? 2 : 3);
      const before = await degrees(card);
      const cold = card.getByRole("button", { name: "Vote cold" });
      await expect(cold).toHaveAttribute("aria-haspopup", "dialog");

      // Escape closes the question without a vote, and focus is back on the button.
      await cold.click();
      const dialog = page.getByRole("dialog", { name: "Why is this deal cold?" });
      await expect(dialog.getByRole("button", { name: "Expired" })).toBeFocused();
      await expectAccessible(page);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(cold).toBeFocused();
      await expect(cold).toHaveAttribute("aria-pressed", "false");

      // A reason votes, and goes with the vote: a reasoned cold vote weighs a whole vote.
      await cold.click();
      const sent = page.waitForRequest("**/api/product_like_unlike");
      await dialog.getByRole("button", { name: "Wrong price" }).click();
      expect((await sent).postDataJSON()).toMatchObject({
        btn_type: "unlike",
        reason: "wrong_price",
      });
      await expect(cold).toHaveAttribute("aria-pressed", "true");
      expect(await degrees(card)).toBe(before - 10);
      await expect(cold).toBeFocused();

      // Taking it back asks nothing.
      const undone = page.waitForResponse("**/api/product_like_unlike");
      await cold.click();
      expect((await undone).status()).toBe(200);
      await expect(dialog).toBeHidden();
      await expect(cold).toHaveAttribute("aria-pressed", "false");
      expect(await degrees(card)).toBe(before);
    });

    test("a refused vote is rolled back with the server's message", async ({ page }) => {
      await signedInMember(page, `refused-${viewport.name}`);
      const card = await firstCard(page);
      const before = await degrees(card);
      await page.route("**/api/product_like_unlike", (route) =>
        route.fulfill({
          status: 429,
          contentType: "application/json",
          body: JSON.stringify({ status: false, message: "Too many requests. Try again later." }),
        }),
      );
      const cold = card.getByRole("button", { name: "Vote cold" });
      await cold.click();
      await page
        .getByRole("dialog", { name: "Why is this deal cold?" })
        .getByRole("button", { name: "Cheaper elsewhere" })
        .click();
      await expect(card.getByRole("alert")).toHaveText("Too many requests. Try again later.");
      await expect(cold).toHaveAttribute("aria-pressed", "false");
      expect(await degrees(card)).toBe(before);
    });
  });
}

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("cards are compact rows: at least 3 whole deals on the first screen of /newdeals", async ({
    page,
  }) => {
    await page.goto("/newdeals");
    const cards = page.locator(".deal-card");
    await expect(cards.first()).toBeVisible();
    const boxes = await cards.evaluateAll((nodes) =>
      nodes.map((node) => {
        const box = node.getBoundingClientRect();
        const image = node.querySelector(".deal-card-image")!.getBoundingClientRect();
        return { top: box.top, bottom: box.bottom, height: box.height, image: image.width };
      }),
    );
    expect(boxes[0]!.image).toBe(96);
    expect(boxes[0]!.height).toBeLessThan(180);
    expect(boxes.filter((box) => box.bottom <= 812).length).toBeGreaterThanOrEqual(3);
  });
});

test.describe("grid | list", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("the choice is remembered across a reload, without a cookie", async ({ page, context }) => {
    await page.goto("/newdeals");
    const toggle = page.getByRole("group", { name: "Show deals as" }).first();
    await expect(toggle.getByRole("button", { name: "Grid" })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const card = page.locator(".deal-card").first();
    const gridWidth = (await card.boundingBox())!.width;

    await toggle.getByRole("button", { name: "List" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-card-layout", "list");
    await expect.poll(async () => (await card.boundingBox())!.width).toBeGreaterThan(gridWidth * 2);

    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-card-layout", "list");
    await expect(
      page
        .getByRole("group", { name: "Show deals as" })
        .first()
        .getByRole("button", { name: "List" }),
    ).toHaveAttribute("aria-pressed", "true");
    const cookies = await context.cookies();
    expect(cookies.map((c) => c.name).filter((name) => /layout/i.test(name))).toEqual([]);
    await expectAccessible(page);

    await page
      .getByRole("group", { name: "Show deals as" })
      .first()
      .getByRole("button", { name: "Grid" })
      .click();
    await expect(page.locator("html")).toHaveAttribute("data-card-layout", "grid");
  });
});

test("a visitor votes from a card, signs in, and is back on the same page with the vote counted", async ({
  page,
}) => {
  const email = newEmail("visitor");
  const signup = await page.request.post("/api/signup", {
    data: { name: "Heat Visitor", email, password: PASSWORD },
  });
  expect(signup.status()).toBe(201);

  await page.goto("/newdeals?page=2");
  const card = page.locator(".deal-card:not(.expired)").first();
  const postId = Number(await card.getAttribute("data-post-id"));
  const before = await degrees(card);
  await card.getByRole("button", { name: "Vote hot" }).click();
  await page.waitForURL(/\/login\?next=/);
  expect(new URL(page.url()).searchParams.get("next")).toBe("/newdeals?page=2");

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname === "/newdeals" && url.search === "?page=2", {
    timeout: 15_000,
  });
  const back = page.locator(`.deal-card[data-post-id="${postId}"]`);
  await expect(back.getByRole("button", { name: "Vote hot" })).toHaveAttribute(
    "aria-pressed",
    "true",
  );
  expect(await degrees(back)).toBe(before + 10);
  const mine = await page.request.post("/api/my_reactions", {
    data: { post_ids: [postId] },
    headers: {
      "x-xsrf-token":
        (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN")?.value ?? "",
    },
  });
  expect((await mine.json()).reactions).toEqual([{ post_id: postId, is_liked: 1 }]);
});
