import sharp from "sharp";
import type { Page } from "@playwright/test";
import { slidesToShowAt } from "../../app/lib/slick.ts";
import { FOLLOW_CAROUSEL } from "../../core/constants.ts";
import { VIEWPORTS, expect, expectAccessible, test } from "./fixtures.ts";

// Demo members that no other browser test changes (every demo account has the demo password).
const PASSWORD = "Chalkboard#2026";
const FOLLOWER = { email: "kevin.nguyen@example.com", name: "Kevin Nguyen" };
const EDITOR = { email: "luis.ramirez@example.org", name: "Luis Ramirez" };
/** The member Kevin follows and unfollows: Jennifer Walsh, user 11 of the demo data. */
const FOLLOWEE = { id: 11, name: "Jennifer Walsh" };

async function signIn(page: Page, email: string): Promise<number> {
  const response = await page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).response.user_id as number;
}

/** The number shown above a label in the profile's counts. */
async function count(page: Page, label: string): Promise<number> {
  const item = page.getByRole("list", { name: "Activity" }).getByRole("listitem").filter({
    hasText: label,
  });
  return Number(await item.locator("strong").textContent());
}

/**
 * Waits until each follow carousel of the page has loaded and moved once. A section's plain list
 * (server-rendered) becomes a carousel only when its people outnumber the slides that fit.
 */
async function followCarouselsMovedOnce(page: Page, width: number) {
  const fit = slidesToShowAt(width, FOLLOW_CAROUSEL.slidesToShow, FOLLOW_CAROUSEL.responsive);
  for (const name of ["Followers", "Following"]) {
    const section = page.getByRole("region", { name, exact: true });
    // Distinct people: the carousel repeats some cards for its endless loop.
    const hrefs = await section
      .locator("a.follow-card")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
    if (new Set(hrefs).size <= fit) continue;
    const first = section.locator(".slick-slide.slick-active").first();
    await expect(first).toBeVisible();
    const start = await first.getAttribute("data-index");
    await expect.poll(() => first.getAttribute("data-index")).not.toBe(start);
  }
}

test.describe("profiles at phone, tablet and desktop widths", () => {
  for (const viewport of VIEWPORTS) {
    test(`My Account, a public profile and Edit profile are accessible at ${viewport.width} px`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await signIn(page, FOLLOWER.email);

      await page.goto("/user/profile");
      await expect(page.getByRole("heading", { level: 1, name: FOLLOWER.name })).toBeVisible();
      await expect(page.getByRole("link", { name: "EDIT PROFILE" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Subscription", exact: true })).toBeVisible();
      await expect(page.getByText(FOLLOWER.email)).toBeVisible();
      await expect(page.getByRole("heading", { name: "My Deals" })).toBeVisible();
      await expect(page.locator(".deal-card").first()).toBeVisible();
      await expect(page.getByRole("link", { name: "Download my data" })).toBeVisible();
      await expectAccessible(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(viewport.width);

      await page.goto(`/profile/${FOLLOWEE.id}`);
      await expect(page.getByRole("heading", { level: 1, name: FOLLOWEE.name })).toBeVisible();
      await expect(page.getByRole("button", { name: /FOLLOW/ })).toBeVisible();
      await expect(page.getByRole("link", { name: "EDIT PROFILE" })).toHaveCount(0);
      await expect(page.getByRole("heading", { name: "Subscription", exact: true })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Download my data" })).toHaveCount(0);
      await followCarouselsMovedOnce(page, viewport.width);
      await expectAccessible(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );

      await page.goto("/user/profile-edit");
      await expect(page.getByRole("heading", { level: 1, name: "Edit Profile" })).toBeVisible();
      await page.getByRole("button", { name: "Want to change your password?" }).click();
      await expect(page.getByLabel("Old Password")).toBeVisible();
      await expectAccessible(page);
    });
  }
});

test.describe("Download my data (docs/decisions/0084-download-my-data.md)", () => {
  // A plain link: it downloads before the page's scripts run, or with none at all.
  test.use({ javaScriptEnabled: false });

  test("My Account's link, reached by keyboard, downloads the member's own file", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const userId = await signIn(page, EDITOR.email);
    await page.goto("/user/profile");
    const link = page.getByRole("link", { name: "Download my data" });
    await expect(link).toHaveAttribute("download", "");
    await expect(link).toHaveAccessibleDescription(/everything Chalkboard Deals keeps about you/);
    await link.focus();
    await expect(link).toBeFocused();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.keyboard.press("Enter"),
    ]);
    expect(download.suggestedFilename()).toMatch(
      /^chalkboard-deals-my-data-\d{4}-\d{2}-\d{2}\.json$/,
    );
    const file = JSON.parse(await readDownload(await download.createReadStream()));
    expect(file.format).toBe("chalkboard-deals-my-data/1");
    expect(file.profile).toMatchObject({ id: userId, email: EDITOR.email });
  });
});

async function readDownload(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

test("the followers carousel shows the spec's number of slides and moves by itself", async ({
  page,
}) => {
  // The page's timers run on a clock the test can move forward (at the natural pace otherwise).
  await page.clock.install();
  // The demo account has more followers than a desktop row holds.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/profile/1");
  const followers = page.locator("section", {
    has: page.getByRole("heading", { name: "Followers" }),
  });
  await expect(followers.locator(".slick-slide.slick-active")).toHaveCount(7);
  const first = await followers.locator(".slick-slide.slick-active").first().textContent();
  await expect
    .poll(async () => followers.locator(".slick-slide.slick-active").first().textContent(), {
      timeout: 6000,
    })
    .not.toBe(first);

  await page.setViewportSize({ width: 768, height: 900 });
  await expect(followers.locator(".slick-slide.slick-active")).toHaveCount(5);
  await page.setViewportSize({ width: 600, height: 900 });
  await expect(followers.locator(".slick-slide.slick-active")).toHaveCount(3);
  await page.setViewportSize({ width: 400, height: 900 });
  await expect(followers.locator(".slick-slide.slick-active")).toHaveCount(2);

  // Pausing stops it: two autoplay periods of the page's time pass without a move…
  const firstActive = followers.locator(".slick-slide.slick-active").first();
  const twoPeriods = 2 * FOLLOW_CAROUSEL.autoplaySpeedMs + 500;
  await followers.getByRole("button", { name: "Pause followers" }).click();
  const play = followers.getByRole("button", { name: "Play followers" });
  await expect(play).toBeVisible();
  const paused = await firstActive.getAttribute("data-index");
  await page.clock.runFor(twoPeriods);
  await expect(firstActive).toHaveAttribute("data-index", paused!);
  // …while after Play the same time moves it again.
  await play.click();
  await expect(followers.getByRole("button", { name: "Pause followers" })).toBeVisible();
  await page.clock.runFor(twoPeriods);
  await expect.poll(() => firstActive.getAttribute("data-index")).not.toBe(paused);
});

test("FOLLOW and UN FOLLOW change the button and the counts without a page reload", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, FOLLOWER.email);
  await page.goto(`/profile/${FOLLOWEE.id}`);
  // A marker that a full reload would wipe.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = "same page"));

  const button = page.getByRole("button", { name: /FOLLOW/ });
  const startsFollowing = (await button.textContent())!.startsWith("UN FOLLOW");
  const followers = await count(page, "Followers");

  await button.click();
  await expect(
    page.getByRole("button", { name: startsFollowing ? /^FOLLOW/ : /^UN FOLLOW/ }),
  ).toBeVisible();
  await expect.poll(() => count(page, "Followers")).toBe(followers + (startsFollowing ? -1 : 1));
  const carousel = page.locator("section", {
    has: page.getByRole("heading", { name: "Followers" }),
  });
  if (startsFollowing) {
    await expect(carousel.getByRole("link", { name: FOLLOWER.name })).toHaveCount(0);
  } else {
    await expect(carousel.getByRole("link", { name: FOLLOWER.name }).first()).toBeAttached();
  }

  await page.getByRole("button", { name: startsFollowing ? /^FOLLOW/ : /^UN FOLLOW/ }).click();
  await expect(
    page.getByRole("button", { name: startsFollowing ? /^UN FOLLOW/ : /^FOLLOW/ }),
  ).toBeVisible();
  await expect.poll(() => count(page, "Followers")).toBe(followers);
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
    "same page",
  );

  // One's own public profile has no follow button.
  const self = await page.request.post("/api/user", {
    data: {},
    headers: {
      "x-xsrf-token": (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN")!.value,
    },
  });
  await page.goto(`/profile/${(await self.json()).data.user_id}`);
  await expect(page.getByRole("link", { name: "EDIT PROFILE" })).toBeVisible();
  await expect(page.getByRole("button", { name: /FOLLOW/ })).toHaveCount(0);
});

test("a visitor's FOLLOW leads to /login; My Account and Edit profile need a login", async ({
  page,
}) => {
  await page.goto(`/profile/${FOLLOWEE.id}`);
  await page.getByRole("button", { name: /FOLLOW/ }).click();
  await expect(page).toHaveURL(new RegExp(`/login\\?next=%2Fprofile%2F${FOLLOWEE.id}$`));

  await page.goto("/user/profile");
  await expect(page).toHaveURL(/\/login\?next=%2Fuser%2Fprofile$/);
  await page.goto("/user/profile-edit");
  await expect(page).toHaveURL(/\/login\?next=%2Fuser%2Fprofile-edit$/);
});

test("an unknown member's profile is the 404 page", async ({ page }) => {
  const response = await page.goto("/profile/987654");
  expect(response?.status()).toBe(404);
  await expect(page.getByText("Page Not Found")).toBeVisible();
});

test("Edit profile: validation, then an update with a new avatar", async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await signIn(page, EDITOR.email);
  await page.goto("/user/profile-edit");

  await expect(page.getByLabel("Email *")).toBeDisabled();
  await expect(page.getByLabel("Email *")).toHaveValue(EDITOR.email);

  await page.getByLabel("Name *").fill("");
  await page.getByRole("button", { name: "Update Profile" }).click();
  await expect(page.getByText("All fields are required.")).toBeVisible();
  await expect(page.getByLabel("Name *")).toBeFocused();

  await page.getByLabel("Name *").fill("Luis R. Ramirez");
  await page.getByLabel("Mobile *").fill("555 CALL");
  await page.getByRole("button", { name: "Update Profile" }).click();
  await expect(page.getByText("Mobile number should be numeric.").first()).toBeVisible();

  await page.getByLabel("Mobile *").fill("5055550123");
  await page.getByLabel("Gender").selectOption("male");
  await page.getByLabel("Date of birth").fill("1985-09-14");
  await page.getByLabel("Website").fill("luis-teaches.example.org");
  await page.getByLabel("About me").fill("5th-grade teacher and tech coach.");

  // A file that is not an image is refused before anything is sent.
  await page.getByLabel("Profile picture").setInputFiles({
    name: "notes.txt",
    mimeType: "text/plain",
    buffer: Buffer.from("not an image"),
  });
  await expect(
    page.getByText("Please choose an image file (JPEG, PNG, GIF or WebP)."),
  ).toBeVisible();

  const png = await sharp({
    create: { width: 400, height: 400, channels: 3, background: "#c2410c" },
  })
    .png()
    .toBuffer();
  await page.getByLabel("Profile picture").setInputFiles({
    name: "me.png",
    mimeType: "image/png",
    buffer: png,
  });
  await expect(page.getByAltText("Preview of your new profile picture")).toHaveAttribute(
    "src",
    /^blob:/,
  );

  await page.getByRole("button", { name: "Update Profile" }).click();
  await expect(page.getByText("Your profile has been updated")).toBeVisible();
  await expect(page.getByLabel("Website")).toHaveValue("https://luis-teaches.example.org");
  // The message goes after 3 s.
  await expect(page.getByText("Your profile has been updated")).toBeHidden({ timeout: 6000 });

  await page.goto("/user/profile");
  await expect(page.getByRole("heading", { level: 1, name: "Luis R. Ramirez" })).toBeVisible();
  const avatar = page.locator(".profile-header img.avatar");
  await expect(avatar).toHaveAttribute("src", /^\/media\/avatars\/.+\.webp$/);
  expect(await avatar.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(page.getByText("5th-grade teacher and tech coach.")).toBeVisible();
});

test("the followers carousel opens on a phone with the phone's slide count", async ({ page }) => {
  await page.setViewportSize({ width: 400, height: 900 });
  await page.goto("/profile/1");
  const followers = page.locator("section", {
    has: page.getByRole("heading", { name: "Followers" }),
  });
  await expect(followers.locator(".slick-slide.slick-active")).toHaveCount(2);
});
