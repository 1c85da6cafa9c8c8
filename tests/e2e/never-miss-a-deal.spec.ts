import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  expect,
  mailbox,
  postDealThroughApi,
  signInThroughApi,
  test,
  xsrfToken,
} from "./fixtures.ts";

/**
 * Following, the feed, notifications and alerts (records 0043–0045) on a phone: follow a store →
 * another member posts a deal there → it is in My Feed and the bell's count rises → create an alert
 * → a matching deal is posted → the alert mail arrives, and its one-click unsubscribe link works
 * without signing in.
 */

const PASSWORD = "Chalk#Board42";
/** A demo account that may post at once (a new account must confirm its address first). */
const POSTER = { email: "moderator@example.com", password: "Chalkboard#2026" };

function bell(page: Page) {
  return page.getByRole("link", { name: /^Notifications, / });
}

async function unread(page: Page): Promise<number> {
  const label = (await bell(page).getAttribute("aria-label")) ?? "";
  return Number(/Notifications, (\d+) unread/.exec(label)?.[1] ?? 0);
}

/** Another member posts a deal (in the submit form's first store, like every API-posted deal). */
async function postAsAnotherMember(page: Page, title: string) {
  const other = await page.context().browser()!.newContext();
  const otherPage = await other.newPage();
  const posterId = await signInThroughApi(otherPage, POSTER);
  await postDealThroughApi(otherPage, posterId, { title });
  await other.close();
}

test("follow, feed, bell, alert mail and its unsubscribe link", async ({ page }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 375, height: 812 });
  const tag = randomBytes(3)
    .toString("hex")
    .replace(/\d/g, (d) => "abcdefghij"[Number(d)]!);
  const email = `e2e-journey-${Date.now()}-${tag}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: "Regular Reader", email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await signInThroughApi(page, { email, password: PASSWORD });

  // Follow the store every API-posted deal goes to.
  const options = (await (await page.request.get("/api/submit_deal")).json()).response;
  const store = options.store[0] as { id: number; title: string };
  const stores = (await (await page.request.get("/api/stores_list")).json()).response
    .selected_data as { id: number; slug: string }[];
  await page.goto(`/store/${stores.find((s) => s.id === store.id)!.slug}`);
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: `Follow ${store.title}`, exact: true }).click();
  await expect(
    page.getByRole("button", { name: `Following ${store.title}`, exact: true }),
  ).toHaveAttribute("aria-pressed", "true");
  const before = await unread(page);

  const feedTitle = `Pipe cleaners 200 pack ${tag}`;
  await postAsAnotherMember(page, feedTitle);
  await page.goto("/user/feed");
  await expect(page.getByRole("article").filter({ hasText: feedTitle })).toBeVisible();
  // The news reaches the bell from the queue, within seconds.
  await expect(async () => {
    await page.reload();
    expect(await unread(page)).toBeGreaterThan(before);
  }).toPass({ timeout: 30_000 });

  // An instant alert for a word only the next deal has.
  const word = `axolotl${tag}`;
  await page.goto("/user/alerts");
  await page.waitForLoadState("networkidle");
  await page.getByLabel("Keywords").fill(word);
  await expect(async () => {
    await page.getByRole("button", { name: "Create alert", exact: true }).click({ timeout: 2_000 });
    await expect(page.getByText("Alert saved.")).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });

  const alertTitle = `Plush ${word} for the reading corner`;
  await postAsAnotherMember(page, alertTitle);
  let mail: string | undefined;
  await expect
    .poll(
      () => {
        mail = mailbox
          .read()
          .find((m) => m.to.includes(email.toLowerCase()) && m.body.includes(alertTitle))?.body;
        return mail;
      },
      { timeout: 60_000 },
    )
    .toBeTruthy();
  expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  // The link as the mail's body shows it (the header may be folded).
  const links = mail!.match(/https?:\/\/[^\s"'<>]*\/unsubscribe\?token=[^\s"'<>]+/g) ?? [];
  const link = links.sort((a, b) => b.length - a.length)[0]!;
  expect(link).toBeTruthy();

  // Signed out, the link asks and unsubscribes.
  await page.context().clearCookies();
  await page.goto(new URL(link).pathname + new URL(link).search);
  await page.getByRole("button", { name: "Unsubscribe", exact: true }).click();
  await expect(page.getByRole("heading", { name: "You are unsubscribed", level: 1 })).toBeVisible();

  await signInThroughApi(page, { email, password: PASSWORD });
  const preferences = await page.request.post("/api/email_preferences", {
    headers: { "x-xsrf-token": await xsrfToken(page) },
    data: {},
  });
  const kinds = (await preferences.json()).response.kinds as { kind: string; enabled: boolean }[];
  expect(kinds.find((k) => k.kind === "alert")?.enabled).toBe(false);
});
