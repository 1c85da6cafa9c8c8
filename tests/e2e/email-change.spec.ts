import { expect, expectAccessible, hydrated, mailbox, signInThroughApi, test } from "./fixtures.ts";
import { REFUSED_DOMAIN } from "./mail-capture.ts";

// A member whose address refuses mail changes it at phone width (record 0083, amended): the
// banner's Edit profile link, the "Change email address" form, the link mailed to the new address,
// and My Account without the banner.

test("a member whose mail bounces changes their address, at phone width", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const bounced = `moving-${stamp}@${REFUSED_DOMAIN}`;
  const next = `moved-${stamp}@example.com`;
  const password = "Chalk#Board42";
  const signup = await page.request.post("/api/signup", {
    data: { name: "Moving Member", email: bounced, password },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await signInThroughApi(page, { email: bounced, password });

  const banner = page.getByRole("alert").filter({ hasText: "We could not deliver mail to" });
  // The confirmation mail is refused within about a second (the mail job's poll).
  await expect
    .poll(
      async () => {
        await page.goto("/user/profile");
        return banner.count();
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  await banner.getByRole("link", { name: "Edit profile" }).click();
  await expect(page).toHaveURL(/\/user\/profile-edit$/);

  const form = page.getByRole("form", { name: "Change email address" });
  await hydrated(form);
  await expectAccessible(page);
  await form.getByLabel("New email address").fill(next);
  await form.getByLabel("Current password").fill("Not#ThePassword1");
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(form.locator("#change-email-password-error")).toHaveText(
    "Your password is not correct.",
  );

  await form.getByLabel("Current password").fill(password);
  await form.getByRole("button", { name: "Send confirmation link" }).click();
  await expect(form.getByText(`We have sent a link to ${next}.`)).toBeVisible();
  await expect(page.getByText(`A link we sent to ${next} is waiting to be opened.`)).toBeVisible();

  const link = await mailbox.linkTo(next, /\/confirm-email-change\?token=/);
  await page.goto(new URL(link).pathname + new URL(link).search);
  await expect(page.getByText(`Your new email address will be ${next}.`)).toBeVisible();
  await expectAccessible(page);
  const use = page.getByRole("button", { name: "Use this address" });
  await hydrated(use);
  await use.click();
  await expect(page.getByText("Your email address has been changed.")).toBeVisible();

  await page.getByRole("link", { name: "Go to my account" }).click();
  await expect(page).toHaveURL(/\/user\/profile$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
  await page.goto("/user/profile-edit");
  await expect(page.locator("#email")).toHaveValue(next);
});
