import { expect, expectAccessible, signInThroughApi, test } from "./fixtures.ts";
import { REFUSED_DOMAIN } from "./mail-capture.ts";

// Record 0083: an address the receiving server refuses for good is marked undeliverable after one
// attempt, and My Account says so. The global setup's SMTP server refuses every mailbox at
// REFUSED_DOMAIN, so the new member's confirmation mail is what marks their address.

test("My Account warns a member whose address refuses mail, in light and dark", async ({
  page,
}) => {
  const email = `bounced-${Date.now()}@${REFUSED_DOMAIN}`;
  const password = "Chalk#Board42";
  const signup = await page.request.post("/api/signup", {
    data: { name: "Bounced Member", email, password },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await signInThroughApi(page, { email, password });

  const banner = page.getByRole("alert").filter({ hasText: "We could not deliver mail to" });
  // The mail job takes the confirmation within about a second (its poll) and is refused at once.
  await expect
    .poll(
      async () => {
        await page.goto("/user/profile");
        return banner.count();
      },
      { timeout: 15_000 },
    )
    .toBe(1);
  await expect(banner).toHaveText(
    `We could not deliver mail to ${email} — check your address. Edit profile`,
  );
  await page.emulateMedia({ colorScheme: "light" });
  await expectAccessible(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page);

  await banner.getByRole("link", { name: "Edit profile" }).click();
  await expect(page).toHaveURL(/\/user\/profile-edit$/);
});
