import type { Page } from "@playwright/test";
import {
  VIEWPORTS,
  expect,
  expectAccessible,
  hydrated,
  mailbox,
  test,
  waitOutSignupFillTime,
} from "./fixtures.ts";

const PASSWORD = "Chalk#Board42";

function newEmail(label: string) {
  return `e2e-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
}

async function register(page: Page, email: string, name = "Erin Example") {
  await page.goto("/register");
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await waitOutSignupFillTime(page);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Registered Successfully !")).toBeVisible();
  await page.waitForURL("**/verify", { timeout: 10_000 });
}

async function logIn(page: Page, email: string, password = PASSWORD) {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Successfully Login")).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
  await expect(page.getByRole("link", { name: "My Account" })).toBeVisible();
}

test.describe("account screens at phone, tablet and desktop widths", () => {
  for (const viewport of VIEWPORTS) {
    test(`are accessible at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      for (const path of ["/login", "/register", "/forgotpassword", "/verify", "/delete-account"]) {
        await page.goto(path);
        await expect(page.locator("main h1")).toBeVisible();
        await page.locator("main form button[type=submit]").first().click();
        await expect(page.locator("main .field-error").first()).toBeVisible();
        await expectAccessible(page);
        // Nothing wider than the screen.
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        );
        expect(overflow, path).toBeLessThanOrEqual(0);
      }
      await page.goto("/confirm/not-a-real-code");
      await expect(page.locator(".alert-danger")).toBeVisible();
      await expectAccessible(page);
      await page.goto("/reset-password/not-a-real-token");
      await expect(
        page.getByText("This password reset link is invalid or has expired.", { exact: false }),
      ).toBeVisible();
      await expectAccessible(page);
    });
  }
});

test.describe("validation messages", () => {
  test("register shows the spec's messages", async ({ page }) => {
    await page.goto("/register");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Name is required !")).toBeVisible();
    await expect(page.getByText("Email is required !")).toBeVisible();
    await expect(page.getByText("Password is required !", { exact: true })).toBeVisible();
    await expect(page.getByText("Confirm Password is required !")).toBeVisible();
    await expect(page.getByLabel("Name")).toBeFocused();

    await page.getByLabel("Name").fill("A");
    await page.getByLabel("Email").fill("demo@example.com");
    await page.getByLabel("Password", { exact: true }).fill("abc");
    await page.getByLabel("Confirm Password").fill("abd");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Name should be more than 2 character!")).toBeVisible();
    await expect(
      page.getByText(
        "Password should at least one digit,one uppercase letter,one lowercase letter,one special character,and password between 4-32 characters in length.",
      ),
    ).toBeVisible();
    await expect(page.getByText("Password and Confirm password should be same.")).toBeVisible();

    // The server's answers: a taken address (message.email) and a common password.
    await page.getByLabel("Name").fill("Demo Again");
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(
      page.locator(".field-error", { hasText: "The email has already been taken." }),
    ).toBeVisible();
    await page.getByLabel("Email").fill(newEmail("common"));
    await page.getByLabel("Password", { exact: true }).fill("Password1!");
    await page.getByLabel("Confirm Password").fill("Password1!");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(
      page.locator(".field-error", { hasText: "most commonly used passwords" }),
    ).toBeVisible();
  });

  test("login shows required messages, then the server's failure for 3 seconds", async ({
    page,
  }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Email is required !")).toBeVisible();
    await expect(page.getByText("Password is required !")).toBeVisible();
    await page.getByLabel("Email").fill("demo@example.com");
    await page.getByLabel("Password").fill("Not#ThePassword1");
    await page.getByRole("button", { name: "Login" }).click();
    const failure = page.getByText("These credentials do not match our records.");
    await expect(failure).toBeVisible();
    await expect(failure).toBeHidden({ timeout: 5_000 });
    await expect(page.getByRole("link", { name: "Forgot password?" })).toHaveAttribute(
      "href",
      "/forgotpassword",
    );
    await expect(page.getByRole("link", { name: "Create an account" })).toHaveAttribute(
      "href",
      "/register",
    );
  });

  test("forgot password shows 'Email Id not found.' for an unknown address", async ({ page }) => {
    await page.goto("/forgotpassword");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Email is required !")).toBeVisible();
    await page.getByLabel("Email").fill(newEmail("nobody"));
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Email Id not found.")).toBeVisible();
  });
});

test("the register form's honeypot is off screen and out of reach; a script that fills it makes no account", async ({
  page,
}) => {
  await page.goto("/register");
  const honeypot = page.locator('input[name="website"]');
  const box = await honeypot.boundingBox();
  expect(box!.x + box!.width).toBeLessThanOrEqual(0);
  // Tab goes from the last field to the button, past the honeypot.
  await hydrated(page.getByLabel("Name"));
  await page.getByLabel("Confirm Password").focus();
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Register" })).toBeFocused();

  // A script fills every field it finds, the honeypot too, and is told it succeeded.
  const scripted = newEmail("scripted");
  await page.getByLabel("Name").fill("Scripted Signup");
  await page.getByLabel("Email").fill(scripted);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm Password").fill(PASSWORD);
  await honeypot.fill("https://spam.example", { force: true });
  await waitOutSignupFillTime(page);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByText("Registered Successfully !")).toBeVisible();
  // But no account was made: its address and password do not sign in, where a person's do.
  const signIn = (email: string) =>
    page.request.post("/api/signin", { data: { email, password: PASSWORD } });
  expect((await signIn(scripted)).status()).toBe(401);
  const person = newEmail("person");
  await register(page, person);
  expect((await signIn(person)).status()).toBe(200);
});

test("register → confirm by the mailed link → log in → log out", async ({ page }) => {
  const email = newEmail("journey");
  await register(page, email);
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  const link = await mailbox.linkTo(email, /\/confirm\//);
  await page.goto(link);
  await expect(page.getByText("Your email address has been confirmed. Thank you!")).toBeVisible();
  // The code works once.
  await page.reload();
  await expect(page.locator(".alert-danger")).toContainText("already been used");

  await logIn(page, email);
  await page.getByRole("link", { name: "Logout" }).click();
  await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  await expect(page.getByRole("link", { name: "My Account" })).toHaveCount(0);
});

test("forgot password → mailed reset link → new password → log in", async ({ page }) => {
  const email = newEmail("reset");
  await register(page, email);
  await page.goto("/forgotpassword");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(page.getByText("Password sent successfully to this email Id.")).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });

  const link = await mailbox.linkTo(email, /\/reset-password\//);
  await page.goto(link);
  await page.getByLabel("New Password", { exact: true }).fill("weak");
  await page.getByLabel("Confirm Password").fill("weak");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.locator(".field-error").first()).toContainText(
    "Password should at least one digit",
  );
  await page.getByLabel("New Password", { exact: true }).fill("Fresh#Chalk88");
  await page.getByLabel("Confirm Password").fill("Fresh#Chalk88");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("Your password has been reset.", { exact: false })).toBeVisible();
  await page.waitForURL("**/login", { timeout: 10_000 });
  await logIn(page, email, "Fresh#Chalk88");
});

test("change password: the browser gets a new session and the page keeps working", async ({
  page,
}) => {
  const email = newEmail("change");
  await register(page, email);
  await logIn(page, email);
  const session = async () =>
    (await page.context().cookies()).find((c) => c.name === "loginTokenChalkboard")?.value;
  const before = await session();

  await page.goto("/user/profile-edit");
  await page.getByRole("button", { name: "Want to change your password?" }).click();
  await page.getByLabel("Old Password").fill(PASSWORD);
  await page.getByLabel("New Password").fill("Newer#Chalk55");
  await page.getByLabel("Confirm Password").fill("Newer#Chalk55");
  await page.getByRole("button", { name: "Change Password" }).click();
  await expect(page.getByText("Your password has been changed.")).toBeVisible();
  // The session token was replaced (server/api/accounts.ts); the XSRF token followed it, so the next
  // form on the same page still saves.
  expect(await session()).toBeTruthy();
  expect(await session()).not.toBe(before);
  await page.getByLabel("Mobile *").fill("5551234567");
  await page.getByRole("button", { name: "Update Profile" }).click();
  await expect(page.getByText("Your profile has been updated")).toBeVisible();
});

test("delete account: failed sign-in, No, then Yes", async ({ page }) => {
  const email = newEmail("delete");
  await register(page, email);

  await page.goto("/delete-account");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("Wrong#Pass99");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("No Data Found !")).toBeVisible();

  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  const dialog = page.getByRole("dialog", { name: "Are you want to delete account ?" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "No" })).toBeFocused();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();

  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(dialog).toBeVisible();
  // The choice to delete their posts too: unticked, ticked by its label, sent with the call.
  const removePosts = dialog.getByLabel("Also delete my deals, discussions and comments");
  await expect(removePosts).not.toBeChecked();
  await removePosts.check();
  const call = page.waitForRequest((request) => request.url().endsWith("/api/user_deleted"));
  await dialog.getByRole("button", { name: "Yes" }).click();
  expect((await call).postDataJSON()).toMatchObject({ remove_posts: true });
  await expect(page.getByText("User deleted successfully.")).toBeVisible();
  await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
  await expect(page.getByRole("link", { name: "Login" })).toBeVisible();

  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
});
