import { randomBytes } from "node:crypto";
import sharp from "sharp";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, mailbox, test } from "./fixtures.ts";

/**
 * Keyword alerts (record 0045): a member creates an alert on /user/alerts; another member posts a
 * matching deal; the alert's mail arrives at the SMTP server and the in-site notification shows.
 */

const PASSWORD = "Chalk#Board42";
const POSTER = { email: "sarah.kim@example.org", password: "Chalkboard#2026" };

/** Presses a button of the hydrated page until `done` holds (a click before hydration does nothing). */
async function pressUntil(page: Page, name: string, done: () => Promise<void>) {
  await expect(async () => {
    await page.getByRole("button", { name, exact: true }).click({ timeout: 2_000 });
    await done();
  }).toPass({ timeout: 20_000 });
}

test("an alert created on /user/alerts mails and notifies its member of a matching deal", async ({
  browser,
}) => {
  const tag = randomBytes(3)
    .toString("hex")
    .replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
  const word = `quokka${tag}`;
  const email = `e2e-alerts-${Date.now()}-${tag}@example.com`;

  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  const page = await context.newPage();
  const signup = await page.request.post("/api/signup", {
    data: { name: "Alert Fan", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const signin = await page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect(signin.ok(), await signin.text()).toBe(true);

  await page.goto("/user/alerts");
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  await page.getByLabel("Keywords").fill(word);
  await expect(page.getByText("No deal of the last 30 days matches yet.")).toBeVisible({
    timeout: 15_000,
  });
  await pressUntil(page, "Create alert", async () => {
    await expect(page.getByText("Alert saved.")).toBeVisible({ timeout: 2_000 });
  });
  await expect(page.getByRole("heading", { name: word, level: 3 })).toBeVisible();
  await expect(page.getByLabel("Private RSS feed (keep it to yourself)")).toHaveValue(
    /\/alerts\/rss\//,
  );
  await expectAccessible(page);
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page);

  // Another member posts a matching deal.
  const poster = await browser.newContext();
  const signedIn = await poster.request.post("/api/signin", { data: POSTER });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  const userId = (await signedIn.json()).response.user_id as number;
  const xsrf = (await poster.cookies()).find((c) => c.name === "XSRF-TOKEN")!.value;
  const options = (await (await poster.request.get("/api/submit_deal")).json()).response;
  const title = `Plush ${word} toy for the reading corner`;
  const posted = await poster.request.post("/api/save_deal", {
    headers: { "x-xsrf-token": xsrf },
    multipart: {
      user_id: String(userId),
      deal_category: String(options.forum_category_deal[0].id),
      store_id: String(options.store[0].id),
      category_id: String(options.category[0].id),
      title,
      link: `https://www.example.com/products/${word}`,
      deal_description: "<p>A soft toy.</p>",
      price: "12.50",
      image: {
        name: "toy.png",
        mimeType: "image/png",
        buffer: await sharp({
          create: { width: 64, height: 48, channels: 3, background: "#c0a060" },
        })
          .png()
          .toBuffer(),
      },
    },
  });
  expect(posted.ok(), await posted.text()).toBe(true);
  await poster.close();

  await expect
    .poll(
      () =>
        mailbox.read().find((m) => m.to.includes(email.toLowerCase()) && m.body.includes(title)),
      { timeout: 60_000 },
    )
    .toBeTruthy();

  await page.goto("/user/notifications");
  await expect(page.getByText(title)).toBeVisible();
  await context.close();
});
