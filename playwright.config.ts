import { defineConfig } from "@playwright/test";

/**
 * Browser tests drive Debian's Chromium (CHROMIUM_PATH, default /usr/bin/chromium) against a
 * production server that tests/e2e/global-setup.ts starts on a free port, with a fresh data folder,
 * demo content, an SMTP capture server and an OpenID Connect mock. Nothing reaches the internet.
 */
export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: process.env.CI ? 2 : 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    // Recording a trace costs about a tenth of the suite's CPU even when it is thrown away. In CI
    // (1 retry) a failed test's retry records one; locally every failure keeps its trace.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
});
