import type { Page } from "@playwright/test";
import { ACCOUNT_MESSAGES } from "../../core/people/accounts/schema.ts";
import { expect, test, waitOutSignupFillTime } from "./fixtures.ts";

// Sign-in, sign-out and the form kit's forms are real form posts (docs/decisions/0079): they work
// in a browser that runs no script at all.

const PASSWORD = "NoScript#Chalk42";

test.use({ javaScriptEnabled: false });

test.describe("without JavaScript", () => {
  let email: string;

  test.beforeAll(async ({ playwright }) => {
    email = `e2e-noscript-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    const api = await playwright.request.newContext({ baseURL: process.env.E2E_BASE_URL });
    const signup = await api.post("/api/signup", {
      data: { name: "Nora Noscript", email, password: PASSWORD },
    });
    expect(signup.status()).toBe(201);
    await api.dispose();
  });

  async function signIn(page: Page) {
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Successfully Login")).toBeVisible();
    // The page's refresh goes home after 3 s, as the script does.
    await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
    await expect(page.getByRole("link", { name: "My Account" })).toBeVisible();
  }

  test("the login form shows the schema's messages and the server's failure", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Email is required !")).toBeVisible();
    await expect(page.getByText("Password is required !")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("Wrong#Pass99");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("These credentials do not match our records.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);
    await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
  });

  test("sign in, then sign out through the /logout page", async ({ page }) => {
    await signIn(page);
    await page.getByRole("link", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/logout");
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect(page.getByRole("link", { name: "Login" })).toBeVisible();
    await expect(page.getByRole("link", { name: "My Account" })).toHaveCount(0);
  });

  test("a forged or missing token is refused, and nobody is signed in or out", async ({ page }) => {
    const forgedSignIns: Record<string, string>[] = [
      { _csrf: "forged-token-0123456789abcdef", email, password: PASSWORD },
      { email, password: PASSWORD },
    ];
    for (const form of forgedSignIns) {
      const refused = await page.request.post("/login", { form, maxRedirects: 0 });
      expect(refused.status()).toBe(403);
    }
    await page.goto("/");
    await expect(page.getByRole("link", { name: "Login" })).toBeVisible();

    await signIn(page);
    const forgedSignOuts: Record<string, string>[] = [
      { _csrf: "forged-token-0123456789abcdef" },
      {},
    ];
    for (const form of forgedSignOuts) {
      const refused = await page.request.post("/logout", { form, maxRedirects: 0 });
      expect(refused.status()).toBe(403);
    }
    await page.goto("/");
    await expect(page.getByRole("link", { name: "My Account" })).toBeVisible();
  });

  test("the Contact Us form shows its messages and sends", async ({ page }) => {
    await page.goto("/contact");
    await page.getByRole("button", { name: "SUBMIT" }).click();
    await expect(page.getByText("All fields are required.")).toBeVisible();
    await expect(page.getByText("Name is required.")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");

    await page.getByLabel("Name").fill("Nora Noscript");
    await page.getByLabel("Subject").fill("Sent without scripts");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Mobile").fill("5551234567");
    await page.getByRole("button", { name: "SUBMIT" }).click();
    await expect(page.getByText("Contact information submitted successfully.")).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue("");
  });

  test("Register and Forgot password show their messages and send", async ({ page }) => {
    await page.goto("/register");
    await page.getByLabel("Name").fill("Nora Again");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Password is required !").first()).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue(email);

    await page.goto("/forgotpassword");
    await page.getByLabel("Email").fill(`nobody-${Date.now()}@example.com`);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Email Id not found.")).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(page.getByText("Password sent successfully to this email Id.")).toBeVisible();
    await page.waitForURL((url) => url.pathname === "/", { timeout: 10_000 });
  });

  test("Register signs up and goes to Check your email, whose form sends the link again", async ({
    page,
  }) => {
    const address = `e2e-noscript-register-${Date.now()}@example.com`;
    await page.goto("/register");
    await page.getByLabel("Name").fill("Reggie Noscript");
    await page.getByLabel("Email").fill(address);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Confirm Password").fill(PASSWORD);
    await waitOutSignupFillTime(page);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Registered Successfully !")).toBeVisible();
    await page.waitForURL((url) => url.pathname === "/verify", { timeout: 10_000 });
    await page.getByLabel("Email").fill(address);
    await page.getByRole("button", { name: "Resend confirmation email" }).click();
    await expect(page.getByText(ACCOUNT_MESSAGES.confirmationResent)).toBeVisible();
  });
});
