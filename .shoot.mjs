import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3111";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
for (const [name, width] of [["phone", 375], ["desktop", 1280]]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`${base}/login`);
  await page.getByLabel("Email").fill("admin@example.com");
  await page.getByLabel("Password", { exact: true }).fill("Chalkboard#2026");
  await page.getByRole("button", { name: /log ?in|sign in/i }).first().click();
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  for (const path of process.argv.slice(2)) {
    await page.goto(`${base}${path}`);
    await page.waitForLoadState("networkidle");
    const file = `/tmp/cc-shots/${name}-${path.replace(/[^a-z0-9]+/gi, "_")}.png`;
    await page.evaluate(() => document.querySelector("main h1, .console-main h1")?.scrollIntoView()); await page.screenshot({ path: file, fullPage: false });
  }
  await page.close();
}
await browser.close();
