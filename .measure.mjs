import { chromium } from "@playwright/test";
const base = "http://127.0.0.1:3111";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
await page.goto(`${base}/login`);
await page.getByLabel("Email").fill("admin@example.com");
await page.getByLabel("Password", { exact: true }).fill("Chalkboard#2026");
await page.getByRole("button", { name: /log ?in|sign in/i }).first().click();
await page.waitForURL((u) => !u.pathname.startsWith("/login"));
for (const path of process.argv.slice(2)) {
  await page.goto(`${base}${path}`);
  await page.waitForLoadState("networkidle");
  const wide = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll("body *")) {
      const r = el.getBoundingClientRect();
      if (r.right > 380 && el.children.length === 0) out.push(`${el.tagName}.${el.className} ${Math.round(r.width)} ${Math.round(r.right)}`);
    }
    return { scroll: document.documentElement.scrollWidth, wide: out.slice(0, 8) };
  });
  console.log(path, JSON.stringify(wide));
}
await browser.close();
