import type { BrowserContext } from "@playwright/test";
import { createSession } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { findEmailPreferences } from "../../core/member/notifications/preferences.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { freePort } from "../helpers/server-process.ts";
import { createTestUser } from "../helpers/users.ts";
import { VIEWPORTS, expect, expectAccessible, hydrated, test } from "./fixtures.ts";

/**
 * The weekly digest in Chromium (record 0087): a member switches it on in their email settings,
 * and an administrator sets its day and hour on the console's Settings page, where a refused value
 * is named. Axe at every width. Its own server and database (as console-mail.spec.ts), so that the
 * shared demo accounts' settings stay as they are.
 */

let t: TestApp;
let origin: string;
let adminId: number;

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await createTestApp({ pages: true, env: { PUBLIC_URL: origin } });
  adminId = await createTestUser(t.deps.db, { name: "Digest Admin" });
  await t.deps.db.updateTable("users").set({ role: "admin" }).where("id", "=", adminId).execute();
  await t.app.listen({ port, host: "127.0.0.1" });
});

test.afterAll(async () => {
  await t?.close();
});

async function signInAs(context: BrowserContext, userId: number) {
  const { token } = await createSession(t.deps.db, userId, "e2e");
  await context.addCookies([{ name: SESSION_COOKIE, value: token, url: origin }]);
}

for (const viewport of VIEWPORTS) {
  test.describe(`${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a member opts in to the weekly digest", async ({ page, context }) => {
      const memberId = await createTestUser(t.deps.db, { name: `Digest ${viewport.name}` });
      await signInAs(context, memberId);
      await page.goto(`${origin}/user/settings/email`);
      const digest = page.getByRole("checkbox", { name: "Weekly digest" });
      await expect(digest).not.toBeChecked();
      await expectAccessible(page);
      await hydrated(digest);
      await digest.check();
      await page.getByRole("button", { name: "Save email settings" }).click();
      await expect(page.getByText("Your email settings are saved.")).toBeVisible();
      expect((await findEmailPreferences(t.deps.db, memberId)).weekly_digest).toBe(true);
      await page.reload();
      await expect(page.getByRole("checkbox", { name: "Weekly digest" })).toBeChecked();
    });

    test("an administrator sets the digest's day and hour", async ({ page, context }) => {
      await signInAs(context, adminId);
      await page.goto(`${origin}/admin/settings`);
      const form = page.getByRole("form", { name: "Weekly digest" });
      await expect(form).toBeVisible();
      await expectAccessible(page);
      const day = form.getByRole("combobox", { name: "Day" });
      await hydrated(day);
      const weekday = (VIEWPORTS.indexOf(viewport) + 1) % 7;
      const dayName = [
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
      ][weekday]!;
      await day.selectOption({ label: dayName });
      await form.getByRole("combobox", { name: "Hour" }).selectOption({ label: "18:00 UTC" });
      await form.getByRole("button", { name: "Save digest time" }).click();
      await expect(
        form.getByText(`The weekly digest now goes out on ${dayName} at 18:00 UTC.`),
      ).toBeVisible();
      await expect(form.getByText(`Now: ${dayName} at 18:00 UTC.`)).toBeVisible();
      const row = await t.deps.db
        .selectFrom("general_settings")
        .select(["digest_weekday", "digest_hour"])
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ digest_weekday: weekday, digest_hour: 18 });
    });
  });
}

test("the console names a refused day without JavaScript", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await signInAs(context, adminId);
    const page = await context.newPage();
    await page.goto(`${origin}/admin/settings`);
    const form = page.getByRole("form", { name: "Weekly digest" });
    // A value no option offers, as a hand-made post would send it.
    await form.getByRole("combobox", { name: "Day" }).evaluate((select: HTMLSelectElement) => {
      select.add(new Option("Someday", "9"));
      select.value = "9";
    });
    await form.getByRole("button", { name: "Save digest time" }).click();
    await expect(
      page.getByText("Choose a day of the week: a whole number from 0 (Sunday) to 6 (Saturday)."),
    ).toBeVisible();
  } finally {
    await context.close();
  }
});
