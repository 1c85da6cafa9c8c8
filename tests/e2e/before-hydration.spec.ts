import type { Page, Route } from "@playwright/test";
import { expect, hydrated, test } from "./fixtures.ts";

// A kit form submitted before the page's scripts have run posts to its page (docs/decisions/0079
// and 0081). This spec holds the scripts back to make that moment as long as it likes.

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

test("a kit form submitted before the scripts run posts to its page and shows the server's messages", async ({
  page,
}) => {
  const scripts = await holdScripts(page);
  await page.goto("/register", { waitUntil: "domcontentloaded" });

  await page.getByLabel("Name").fill("Hattie Held");
  await page.getByLabel("Email").fill("hattie.held@example.com");
  await page.getByRole("button", { name: "Register" }).click();

  // The browser posted the form to the page (docs/decisions/0079): the route's action answered
  // with the schema's messages, and kept what was typed; nothing went into the address.
  await expect(page.getByText("Password is required !", { exact: true })).toBeVisible();
  await expect(page.getByText("Name is required !", { exact: true })).toHaveCount(0);
  await expect(page.getByText("Email is required !")).toHaveCount(0);
  await expect(page.getByLabel("Name")).toHaveValue("Hattie Held");
  await expect(page.getByLabel("Email")).toHaveValue("hattie.held@example.com");
  expect(new URL(page.url()).pathname).toBe("/register");
  expect(new URL(page.url()).search).toBe("");

  // Once the scripts run, the form checks and sends itself, starting from the posted values.
  await scripts.release();
  await hydrated(page.getByLabel("Name"));
  await page.getByLabel("Name").fill("");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Name is required !", { exact: true })).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue("hattie.held@example.com");
  expect(new URL(page.url()).search).toBe("");
});

test("a form with an action posts by itself before the scripts run", async ({ page }) => {
  const scripts = await holdScripts(page);
  await page.goto("/login", { waitUntil: "domcontentloaded" });
  await page.getByRole("button", { name: "Login" }).click();
  // The server's answer to the browser's own post: the same schema's messages.
  await expect(page.getByText("Email is required !")).toBeVisible();
  await scripts.release();
});
