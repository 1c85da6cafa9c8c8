import { test as playwrightTest, type Page, type Route } from "@playwright/test";
import { expect } from "./fixtures.ts";

// A page's scripts start after its first paint (docs/decisions/0057). What a visitor types, taps
// and submits before they have run is kept and given back (app/lib/held-input.ts, record 0058).
// This spec holds the page's scripts back to make that moment as long as it likes, so it uses
// Playwright's own `page`, whose goto does not wait for hydration as the fixtures' one does.

const test = playwrightTest;
test.use({ baseURL: process.env.E2E_BASE_URL });

/** Holds every script of the site until `release()` is called. */
async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(/\/assets\/.+\.js$/, (route) => {
    if (released) return route.continue();
    held.push(route);
  });
  return {
    async release() {
      released = true;
      await Promise.all(held.map((route) => route.continue()));
    },
  };
}

test("a form filled and submitted before the scripts run is checked and sent by them, not by the browser", async ({
  page,
}) => {
  const scripts = await holdScripts(page);
  await page.goto("/register", { waitUntil: "domcontentloaded" });

  await page.getByLabel("Name").fill("Hattie Held");
  await page.getByLabel("Email").fill("hattie.held@example.com");
  await page.getByRole("button", { name: "Register" }).click();
  // The Dark theme button has no handler yet: the tap waits too.
  await page.getByRole("button", { name: "Dark" }).click();

  // Nothing happened yet: the browser did not send the form itself (that would put the values,
  // passwords among them, in the address) and no message is shown.
  await expect(page.getByText("Password is required !", { exact: true })).toHaveCount(0);
  expect(new URL(page.url()).search).toBe("");
  // The two buttons say they are waiting, so the taps are not taken for lost.
  for (const name of ["Register", "Dark"]) {
    const button = page.getByRole("button", { name });
    await expect(button).toHaveAttribute("aria-busy", "true");
    await expect(button).toHaveCSS("cursor", "progress");
  }

  await scripts.release();

  // The held submit ran through the form's own check, with what was typed before hydration.
  await expect(page.getByText("Password is required !", { exact: true })).toBeVisible();
  await expect(page.getByText("Name is required !", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Email is required !")).toHaveCount(0);
  await expect(page.getByLabel("Name")).toHaveValue("Hattie Held");
  // … and the held tap on Dark ran its handler.
  await expect(page.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  for (const name of ["Register", "Dark"]) {
    await expect(page.getByRole("button", { name })).not.toHaveAttribute("aria-busy", "true");
    await expect(page.getByRole("button", { name })).not.toHaveAttribute("data-held");
  }
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(new URL(page.url()).pathname).toBe("/register");
  expect(new URL(page.url()).search).toBe("");

  // Typed before hydration and sent after it: the state holds the typed values.
  await page.getByLabel("Name").fill("");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Name is required !", { exact: true })).toBeVisible();
});

test("a form with an action posts by itself before the scripts run", async ({ page }) => {
  const scripts = await holdScripts(page);
  await page.goto("/login", { waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: "Login" }).click();
  // The server's answer to the browser's own post: the same schema's messages.
  await expect(page.getByText("Email is required !")).toBeVisible();
  await scripts.release();
});
