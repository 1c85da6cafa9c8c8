import sharp from "sharp";
import type { Page } from "@playwright/test";
import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

// The demo data's administrator (db/demo/people.ts), with the demo password.
const ADMIN = { email: "admin@example.com", password: "Chalkboard#2026" };

/** Signs in through the login page, as the site's owner would. */
async function signInAsAdmin(page: Page) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(ADMIN.email);
  await page.getByLabel("Password", { exact: true }).fill(ADMIN.password);
  await page.getByRole("button", { name: /log ?in/i }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

function storePicture(): Promise<Buffer> {
  return sharp({ create: { width: 160, height: 120, channels: 3, background: "#b4462f" } })
    .png()
    .toBuffer();
}

test.describe("the console's content", () => {
  test("the admin adds a store with a picture, and it appears on /store", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/stores");
    await expect(page.getByRole("heading", { level: 1, name: "Stores" })).toBeVisible();
    await page.getByRole("link", { name: "New store" }).click();

    await page.getByLabel(/^Title/).fill("Aardvark Art Supply");
    // The slug follows the title until it is typed in.
    await expect(page.getByLabel(/^Slug/)).toHaveValue("aardvark-art-supply");
    await page.getByLabel(/^Store link/).fill("https://www.aardvark-art.example/");
    await page.getByLabel(/^Description/).fill("Paints, brushes and clay for every classroom.");
    await page.getByLabel(/Upload an image/).setInputFiles({
      name: "aardvark.png",
      mimeType: "image/png",
      buffer: await storePicture(),
    });
    await expect(page.getByRole("img", { name: "Preview of the chosen image" })).toBeVisible();
    await page.getByRole("button", { name: "Create store" }).click();

    await expect(page.getByText("Store “Aardvark Art Supply” was created.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Create store" })).toBeHidden();
    const row = page.getByRole("row").filter({ hasText: "aardvark-art-supply" });
    await expect(row).toBeVisible();

    await page.goto("/store");
    const card = page.locator(".catalog-card").filter({ hasText: "Aardvark Art Supply" });
    await expect(card).toBeVisible();
    await expect(card.locator("img")).toHaveAttribute("src", /^\/media\/stores\/[\w-]+\.webp$/);
    const picture = await page.request.get(
      (await card.locator("img").getAttribute("src")) as string,
    );
    expect(picture.headers()["content-type"]).toBe("image/webp");

    await card.click();
    await expect(page).toHaveURL(/\/store\/aardvark-art-supply$/);
    await expect(
      page.getByRole("heading", { level: 1, name: "Aardvark Art Supply Deals" }),
    ).toBeVisible();
  });

  test("a file that is not an image is refused beside the field", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/categories?new=1");
    await page.getByLabel(/^Title/).fill("Not A Picture");
    await page.getByLabel(/Upload an image/).setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("just text"),
    });
    await expect(
      page.getByText("Please choose an image file (JPEG, PNG, GIF or WebP)."),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Create category" })).toBeDisabled();
  });

  test("the admin edits the privacy policy, and /privacy-policy shows it", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/pages");
    await expect(page.getByRole("heading", { level: 1, name: "Pages" })).toBeVisible();
    await page.getByRole("link", { name: "Edit Privacy Policy" }).click();
    await expect(page.getByLabel(/^Slug/)).toBeDisabled();

    const editor = page.locator('.rte-content[contenteditable="true"]');
    await expect(editor).toBeVisible();
    await expect(editor).toContainText("Information we collect");
    await editor.click();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("Enter");
    await page.keyboard.type("Our school partners never receive your email address.");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("The page “Privacy Policy” was saved.")).toBeVisible();

    await page.goto("/privacy-policy");
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await expect(
      page.getByText("Our school partners never receive your email address."),
    ).toBeVisible();
    await expect(page.getByRole("heading", { name: "1. Information we collect" })).toBeVisible();
  });

  test("the admin adds, edits, moves and deletes a social link of the footer", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto("/admin/social");
    await page.getByRole("link", { name: "Add a link" }).click();
    await expect(page.getByRole("heading", { name: "New social link" })).toBeVisible();
    await page.getByLabel(/^Name/).fill("LinkedIn");
    await page.getByLabel(/^Address/).fill("https://www.linkedin.example/company/chalkboard");
    await page.getByLabel(/^Icon/).selectOption({ label: "LinkedIn" });
    await page.getByRole("button", { name: "Add link" }).click();
    await expect(page.getByText("The LinkedIn link was added.")).toBeVisible();
    const rows = page.getByRole("row");
    const row = rows.filter({ hasText: "linkedin.example" });
    await expect(row).toBeVisible();

    await page.getByRole("link", { name: "Edit the LinkedIn link" }).click();
    await expect(page.getByRole("heading", { name: "Edit the LinkedIn link" })).toBeVisible();
    await expect(page.getByLabel(/^Address/)).toHaveValue(
      "https://www.linkedin.example/company/chalkboard",
    );
    await page.getByLabel(/^Name/).fill("LinkedIn page");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("The LinkedIn page link was saved.")).toBeVisible();

    // Added last, it moves up one place.
    const positionOf = async () =>
      (await rows.allTextContents()).findIndex((text) => text.includes("linkedin.example"));
    const before = await positionOf();
    await page.getByRole("button", { name: "Move the LinkedIn page link up" }).click();
    await expect.poll(positionOf).toBe(before - 1);

    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await expect(page.getByText("The LinkedIn page link was deleted.")).toBeVisible();
    await expect(row).toHaveCount(0);
  });

  for (const viewport of VIEWPORTS) {
    test(`the console's content pages at ${viewport.name} width fit and are accessible`, async ({
      page,
    }) => {
      // Seven pages, each checked by axe: more than one test's usual minute on a busy machine.
      test.slow();
      await page.setViewportSize(viewport);
      await signInAsAdmin(page);
      for (const path of [
        "/admin/stores?new=1",
        "/admin/featured",
        "/admin/wishlist",
        "/admin/social",
        "/admin/forums",
        "/admin/pages?new=1",
        "/admin/messages",
      ]) {
        await page.goto(path);
        await expect(page.locator(".console-main h1")).toBeVisible();
        await expectAccessible(page);
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
    });
  }
});
