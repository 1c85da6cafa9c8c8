import type { BrowserContext } from "@playwright/test";
import { createSession } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { freePort } from "../helpers/server-process.ts";
import { auditOf } from "../helpers/console.ts";
import { createTestUser } from "../helpers/users.ts";
import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

/**
 * The console's Mail page (/admin/mail) in Chromium: an administrator sees the queue, the daily
 * counts and the undeliverable addresses, and clears one with the keyboard through the console's
 * confirmation dialog.
 *
 * The undeliverable addresses are rows the mail job writes; this spec writes them itself, so it
 * builds its own server from the production build (as csp.spec.ts does) on a database it can
 * write to, rather than using the global one.
 */

let t: TestApp;
let origin: string;
let adminId: number;

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  // The site's own address (PUBLIC_URL): a form posted from another origin is refused.
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await createTestApp({ pages: true, env: { PUBLIC_URL: origin } });
  adminId = await createTestUser(t.deps.db, { name: "Mail Admin" });
  await t.deps.db.updateTable("users").set({ role: "admin" }).where("id", "=", adminId).execute();
  await t.app.listen({ port, host: "127.0.0.1" });
});

test.afterAll(async () => {
  await t?.close();
});

async function signInAsAdmin(context: BrowserContext) {
  const { token } = await createSession(t.deps.db, adminId, "e2e");
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin }]);
}

async function listUndeliverable(address: string, reason: string, minutesAgo: number) {
  await t.deps.db
    .insertInto("undeliverable_addresses")
    .values({ address, reason, failed_at: new Date(Date.now() - minutesAgo * 60_000) })
    .onConflict((conflict) => conflict.column("address").doNothing())
    .execute();
}

test("an administrator sees the three sections and clears an address with the keyboard", async ({
  page,
  context,
}) => {
  await listUndeliverable("bounced-e2e@example.com", "550 5.1.1 No such user here", 5);
  await listUndeliverable("still-bouncing@example.com", "550 5.7.1 Rejected", 60);
  await t.deps.db
    .insertInto("mail_daily_counts")
    .values({ day: new Date().toISOString().slice(0, 10), sent: 41, failed: 3, suppressed: 2 })
    .onConflict((conflict) => conflict.column("day").doNothing())
    .execute();
  await signInAsAdmin(context);

  await page.goto(`${origin}/admin/mail`);
  await expect(page.getByRole("heading", { level: 1, name: "Mail" })).toBeVisible();
  await expect(
    page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Mail" }),
  ).toHaveAttribute("aria-current", "page");
  // The queue.
  await expect(page.getByRole("heading", { name: "Queue" })).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Mail in the queue now" }).getByRole("listitem"),
  ).toHaveText([/Waiting/, /Retrying/, /Sending/, /Failed/]);
  // The daily counts: today first.
  await expect(page.getByRole("heading", { name: "Sent and failed, last 30 days" })).toBeVisible();
  const days = page.getByRole("table", { name: /Mail sent, failed and suppressed per day/ });
  await expect(days.getByRole("row")).toHaveCount(31);
  await expect(days.getByRole("row").nth(1).getByRole("cell")).toHaveText(["41", "3", "2"]);
  // The undeliverable addresses, the latest failure first.
  await expect(page.getByRole("heading", { name: /Undeliverable addresses/ })).toBeVisible();
  const addresses = page.getByRole("table", {
    name: "Undeliverable addresses, latest failure first",
  });
  await expect(addresses.getByRole("row").nth(1)).toContainText("bounced-e2e@example.com");
  await expect(addresses.getByRole("row").nth(1)).toContainText("550 5.1.1 No such user here");
  await expectAccessible(page);

  // Clear, by the keyboard alone: the dialog opens on Cancel, Tab reaches Clear, Enter clears.
  const row = addresses.getByRole("row").filter({ hasText: "bounced-e2e@example.com" });
  const clear = row.getByRole("button", { name: "Clear" });
  await clear.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Clear bounced-e2e@example.com?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await expectAccessible(page);
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Clear" })).toBeFocused();
  await page.keyboard.press("Enter");

  await expect(dialog).toBeHidden();
  await expect(
    page.getByText("bounced-e2e@example.com is cleared: mail goes to it again."),
  ).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(
    addresses.getByRole("row").filter({ hasText: "still-bouncing@example.com" }),
  ).toHaveCount(1);
  const left = await t.deps.db.selectFrom("undeliverable_addresses").select("address").execute();
  expect(left.map((r) => r.address)).toEqual(["still-bouncing@example.com"]);
  expect(await auditOf(t.deps.db, "undeliverable_address", "bounced-e2e@example.com")).toEqual([
    expect.objectContaining({ action: "mail.undeliverable_clear", actor_name: "Mail Admin" }),
  ]);
});

test("Escape keeps the address", async ({ page, context }) => {
  await listUndeliverable("kept-e2e@example.com", "550 Mailbox full for good", 1);
  await signInAsAdmin(context);
  await page.goto(`${origin}/admin/mail`);
  const row = page.getByRole("row").filter({ hasText: "kept-e2e@example.com" });
  await row.getByRole("button", { name: "Clear" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Clear kept-e2e@example.com?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(row.getByRole("button", { name: "Clear" })).toBeFocused();
  await expect(row).toHaveCount(1);
});

test("without JavaScript, Clear asks on the page and the answer is posted as a form", async ({
  browser,
}) => {
  await listUndeliverable("noscript-e2e@example.com", "550 No such user", 3);
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await signInAsAdmin(context);
    const page = await context.newPage();
    await page.goto(`${origin}/admin/mail`);
    await page.getByRole("link", { name: "Clear noscript-e2e@example.com" }).click();
    const question = page.getByRole("form", { name: "Clear noscript-e2e@example.com?" });
    // (axe needs scripts: the viewport tests below scan this question.)
    await expect(question).toBeVisible();
    await question.getByRole("button", { name: "Clear" }).click();
    await expect(
      page.getByText("noscript-e2e@example.com is cleared: mail goes to it again."),
    ).toBeVisible();
    await expect(question).toHaveCount(0);
    await expect(page.getByRole("row").filter({ hasText: "noscript-e2e@example.com" })).toHaveCount(
      0,
    );
  } finally {
    await context.close();
  }
});

const LONG_ADDRESS = "a-rather-long-address-for-a-phone@some-school-district.example.org";

for (const viewport of VIEWPORTS) {
  test(`the Mail page at ${viewport.name} width fits and is accessible`, async ({
    page,
    context,
  }) => {
    await listUndeliverable(
      LONG_ADDRESS,
      `550 5.1.1 <${LONG_ADDRESS}>: Recipient address rejected: User unknown in virtual mailbox table`,
      2,
    );
    await page.setViewportSize(viewport);
    await signInAsAdmin(context);
    // With the question a browser without scripts is asked before a clear.
    await page.goto(`${origin}/admin/mail?clear=${encodeURIComponent(LONG_ADDRESS)}`);
    await expect(page.getByRole("form", { name: `Clear ${LONG_ADDRESS}?` })).toBeVisible();
    await expectAccessible(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
}
