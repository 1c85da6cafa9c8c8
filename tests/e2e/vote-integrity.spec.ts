import { randomBytes } from "node:crypto";
import { DEMO_PASSWORD, DEMO_STAFF } from "../../db/demo/people.ts";
import {
  expect,
  expectAccessible,
  hydrated,
  postDealThroughApi,
  signInThroughApi,
  test,
} from "./fixtures.ts";

/**
 * Vote integrity (record 0091): a moderator opens a member's page in the console, sees their
 * vote, warns them, then blocks their voting until a date; the member's next vote is refused with
 * the end and the reason, and My Account says so; lifting the block lets them vote again.
 */

const ADMIN = DEMO_STAFF.find((staff) => staff.role === "admin")!;
const PASSWORD = "Vote#Block42";

/** A date `days` from now, as the date input and the server read it (YYYY-MM-DD, UTC). */
function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

const longDate = (day: string) =>
  new Intl.DateTimeFormat("en-GB", {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${day}T00:00:00Z`));

test("a moderator warns, then blocks a member's voting; the member is refused and told why", async ({
  page,
  browser,
}) => {
  const tag = randomBytes(3).toString("hex");
  // A deal of the administrator's, and a new member who votes on it.
  const adminId = await signInThroughApi(page, { email: ADMIN.email, password: DEMO_PASSWORD });
  const deal = await postDealThroughApi(page, adminId, { title: `Integrity deal ${tag}` });
  const deal2 = await postDealThroughApi(page, adminId, { title: `Integrity second ${tag}` });

  const memberContext = await browser.newContext();
  const memberPage = await memberContext.newPage();
  const email = `e2e-integrity-${Date.now()}-${tag}@example.com`;
  const name = `Vera Voter ${tag}`;
  const signup = await memberPage.request.post("/api/signup", {
    data: { name, email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  const memberId = await signInThroughApi(memberPage, { email, password: PASSWORD });
  await memberPage.goto(deal.url);
  const like = memberPage.locator(".like-buttons").getByRole("button", { name: /^Like/ });
  await hydrated(like);
  await like.click();
  await expect(like).toHaveAttribute("aria-pressed", "true");

  // The console: Users links to the member's page, which lists the vote.
  await page.goto(`/admin/users?q=${encodeURIComponent(email)}`);
  await page.getByRole("link", { name }).click();
  await page.waitForURL(`**/admin/users/${memberId}`);
  await expect(page.getByRole("heading", { level: 1 })).toContainText(name);
  const row = page.getByRole("row").filter({ hasText: `Integrity deal ${tag}` });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell", { name: "Hot", exact: true })).toBeVisible();
  await expect(row.getByRole("link", { name: `Integrity deal ${tag}` })).toHaveAttribute(
    "href",
    new RegExp(deal.unique_id),
  );
  await expect(row.locator("code")).toHaveText(/^[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}$/);
  await expect(page.getByText("A block needs a warning first")).toBeVisible();
  await expect(page.getByRole("button", { name: "Block voting" })).toHaveCount(0);
  await expectAccessible(page);

  // Warn, with a reason.
  const warnButton = page.getByRole("button", { name: "Warn about votes" });
  await hydrated(warnButton);
  await warnButton.click();
  const warnDialog = page.getByRole("dialog", { name: /^Warn .* about their votes\?/ });
  await expect(warnDialog).toBeVisible();
  await warnDialog.getByLabel("Reason").fill("Every vote of yours goes to one member's deals.");
  await warnDialog.getByRole("button", { name: "Warn about votes" }).click();
  await expect(warnDialog).toBeHidden();
  await expect(page.getByText("Every vote of yours goes to one member's deals.")).toBeVisible();

  // Block: the reason is asked for, the end date required; the dialog passes axe.
  await page.getByRole("button", { name: "Block voting" }).click();
  const blockDialog = page.getByRole("dialog", { name: `Block ${name}'s voting?` });
  await expect(blockDialog).toBeVisible();
  await expectAccessible(page);
  await blockDialog.getByRole("button", { name: "Block voting" }).click();
  await expect(blockDialog.getByText("Please give a reason")).toBeVisible();
  await blockDialog.getByLabel("Reason").fill("Kept on after the warning.");
  const until = daysFromNow(7);
  await blockDialog.getByLabel(/^Until/).fill(until);
  await blockDialog.getByRole("button", { name: "Block voting" }).click();
  await expect(blockDialog).toBeHidden();
  await expect(page.getByText(`Voting blocked until ${longDate(until)}`)).toBeVisible();

  // The member's next vote is refused, with the end and the reason.
  await memberPage.goto(deal2.url);
  const like2 = memberPage.locator(".like-buttons").getByRole("button", { name: /^Like/ });
  await hydrated(like2);
  await like2.click();
  await expect(
    memberPage.getByText(
      `Your voting is blocked until ${longDate(until)}: Kept on after the warning.`,
    ),
  ).toBeVisible();
  await expect(like2).toHaveAttribute("aria-pressed", "false");

  // My Account says so, with the warning's reason and the rules.
  await memberPage.goto("/user/profile");
  const voting = memberPage.getByRole("region", { name: "Voting" });
  await expect(voting.getByText(`Your voting is blocked until ${longDate(until)}`)).toBeVisible();
  await expect(voting.getByText("Every vote of yours goes to one member's deals.")).toBeVisible();
  await voting.getByText("The voting rules").click();
  await expect(
    voting.getByText(/voting the same way on 5 or more posts by one member/),
  ).toBeVisible();
  await expectAccessible(memberPage);

  // Lifted: the member votes again.
  await page.getByRole("button", { name: "Lift voting block" }).click();
  await page
    .getByRole("dialog", { name: /^Lift the block/ })
    .getByRole("button", { name: "Lift voting block" })
    .click();
  await expect(page.getByText("May vote")).toBeVisible();
  await memberPage.goto(deal2.url);
  const like3 = memberPage.locator(".like-buttons").getByRole("button", { name: /^Like/ });
  await hydrated(like3);
  await like3.click();
  await expect(like3).toHaveAttribute("aria-pressed", "true");
  await memberContext.close();
});
