import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, expectAccessible, mailbox, test } from "./fixtures.ts";

const PASSWORD = "Chalk#Board42";
const MODERATOR = { email: "moderator@example.com", password: "Chalkboard#2026" };

/** A new member, confirmed through their mailed link, then signed in: answers their id. */
async function newMember(page: Page, name: string): Promise<{ id: number; email: string }> {
  const email = `educator-${randomBytes(4).toString("hex")}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name, email, password: PASSWORD },
  });
  expect(signup.ok(), await signup.text()).toBe(true);
  const link = await mailbox.linkTo(email, /\/confirm\//);
  const code = new URL(link).pathname.split("/").pop()!;
  const verify = await page.request.post("/api/verify", { data: { confirmation_code: code } });
  expect(verify.ok(), await verify.text()).toBe(true);
  const signin = await page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect(signin.ok(), await signin.text()).toBe(true);
  return { id: (await signin.json()).response.user_id as number, email };
}

/** The XSRF cookie the server set for this page's context, to echo on unsafe calls. */
async function xsrf(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === "XSRF-TOKEN")?.value ?? "";
}

/** The home page's JSON, Teachers Wishlist included. */
async function homeText(page: Page): Promise<string> {
  const response = await page.request.post("/api/home", {
    data: { user_id: "" },
    headers: { "x-xsrf-token": await xsrf(page) },
  });
  expect(response.ok()).toBe(true);
  return response.text();
}

test.describe("verified educators", () => {
  test("a member asks by school email, opens the mailed link and gets the badge", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const name = "Rosa Delgado";
    const { id } = await newMember(page, name);

    // Not verified yet: the wishlist form says how to get verified.
    await page.goto("/user/wishlist/new");
    await expect(
      page.getByText("Only verified educators can add a Teachers Wishlist entry."),
    ).toBeVisible();
    await page.getByRole("link", { name: "Get verified as an educator" }).click();
    await expect(
      page.getByRole("heading", { level: 1, name: "Get verified as an educator" }),
    ).toBeVisible();

    // From My Account.
    await page.goto("/user/profile");
    await page.getByRole("link", { name: "Get verified as an educator" }).click();
    await expect(page).toHaveURL(/\/user\/verify-educator$/);
    await page.setViewportSize({ width: 375, height: 812 });
    await expectAccessible(page);

    // A lookalike domain is refused with what is accepted.
    const field = page.getByRole("textbox", { name: "School email address" });
    await field.fill("rosa@edu.evil.com");
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(
      page.getByText(/edu\.evil\.com is not a school or district domain/).first(),
    ).toBeVisible();

    const schoolEmail = `rosa-${randomBytes(3).toString("hex")}@lincoln.k12.ca.us`;
    await field.fill(schoolEmail);
    await page.getByRole("button", { name: "Send confirmation link" }).click();
    await expect(page.getByText(`We sent a confirmation link to ${schoolEmail}`)).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your request" })).toBeVisible();

    const link = await mailbox.linkTo(schoolEmail, /\/user\/verify-educator\/confirm\//);
    await page.goto(new URL(link).pathname);
    await expect(page.getByText("you are now a verified educator")).toBeVisible();

    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto("/user/profile");
    const heading = page.getByRole("heading", { level: 1, name: new RegExp(name) });
    await expect(heading.getByText("Verified educator")).toBeVisible();
    await expect(page.getByRole("link", { name: "Add your Teachers Wishlist" })).toBeVisible();

    // Everyone sees it on the public profile.
    await page.goto(`/profile/${id}`);
    await expect(
      page.getByRole("heading", { level: 1 }).getByText("Verified educator"),
    ).toBeVisible();

    // The wishlist form explains why a school address is safer, and sends the entry for approval.
    await page.goto("/user/wishlist/new");
    await expect(
      page.getByRole("heading", { name: /school.s address, not your home/ }),
    ).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("First name").fill("Rosa");
    await page.getByLabel("Last name").fill("Delgado");
    await page.getByLabel("School and town").fill("Lincoln Elementary, Fresno, CA");
    await page
      .getByLabel("Amazon wishlist URL")
      .fill("https://www.amazon.com/hz/wishlist/ls/ROSA1");
    await page.getByRole("button", { name: "Send for approval" }).click();
    await expect(page.getByText("once a moderator has approved it").first()).toBeVisible();
    await expect(page.getByText("Waiting for a moderator").first()).toBeVisible();
  });

  test("a moderator approves a reviewed request and a teacher's wishlist in the console", async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    const name = `Sam Okafor ${randomBytes(2).toString("hex")}`;
    await newMember(page, name);
    const asked = await page.request.post("/api/educator_verification/review", {
      data: { note: "I teach grade 4 at Lincoln Elementary; my page is on the school site." },
      headers: { "x-xsrf-token": await xsrf(page) },
    });
    expect(asked.ok(), await asked.text()).toBe(true);

    const staffContext = await browser.newContext({ baseURL });
    const staff = await staffContext.newPage();
    const signin = await staff.request.post("/api/signin", { data: MODERATOR });
    expect(signin.ok()).toBe(true);
    await staff.setViewportSize({ width: 1280, height: 900 });
    await staff.goto("/admin/educators");
    await expect(
      staff.getByRole("heading", { level: 1, name: "Verified educators" }),
    ).toBeVisible();
    await expectAccessible(staff);
    const row = staff.getByRole("row").filter({ hasText: name });
    await row.getByRole("button", { name: "Approve" }).click();
    await staff.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
    await expect(staff.getByRole("row").filter({ hasText: name })).toHaveCount(0);

    // Now verified, the teacher sends a wishlist; it stays off the home page until approved.
    const lastName = `Okafor${randomBytes(2).toString("hex")}`;
    const sent = await page.request.post("/api/wishlist_submit", {
      data: {
        first_name: "Sam",
        last_name: lastName,
        school_location: "Lincoln Elementary, Tulsa, OK",
        amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/SAM1",
      },
      headers: { "x-xsrf-token": await xsrf(page) },
    });
    expect(sent.ok(), await sent.text()).toBe(true);
    expect(await homeText(page)).not.toContain(lastName);

    await staff.goto("/admin/wishlist");
    await expect(staff.getByRole("heading", { name: /Waiting for approval/ })).toBeVisible();
    const entry = staff.getByRole("row").filter({ hasText: lastName });
    await entry.getByRole("button", { name: "Approve" }).click();
    await staff.getByRole("dialog").getByRole("button", { name: "Approve" }).click();
    await expect(
      staff.getByRole("table", { name: "Teachers Wishlist entries" }).getByText(lastName),
    ).toBeVisible();
    await expect.poll(() => homeText(page)).toContain(lastName);

    // Both console pages fit a phone and stay accessible.
    await staff.setViewportSize({ width: 375, height: 812 });
    for (const path of ["/admin/educators", "/admin/wishlist"]) {
      await staff.goto(path);
      await expect(staff.locator(".console-main h1")).toBeVisible();
      await expectAccessible(staff);
      const overflow = await staff.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
    await staffContext.close();
  });
});
