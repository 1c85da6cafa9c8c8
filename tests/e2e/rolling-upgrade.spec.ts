import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "@playwright/test";
import { BUILD_SOURCES, runProductionBuild } from "../../scripts/production-build.ts";
import { placeDemoImages } from "../setup/demo-images.ts";
import { expect, hydrated, test } from "./fixtures.ts";

// A rolling upgrade, as a browser sees it (docs/decisions/0101-rolling-upgrades.md): pages loaded
// from one build go on in the same tab after the server on their port is replaced by a server of
// another build, whose script files have other names. Build A is this tree's build/; build B is
// built here from a copy of the sources in which every page's module differs, so that none of A's
// page scripts exists in B. Both servers use one data folder, one after the other.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const MEMBER = { email: "sarah.kim@example.org", password: "Chalkboard#2026" };
/**
 * What build/ is made from (BUILD_SOURCES), copied for build B: with every script the build runs
 * (not only production-build.ts) and the TypeScript settings its compile reads.
 */
const SOURCES = [
  ...BUILD_SOURCES.filter((source) => !source.startsWith("scripts/")),
  "scripts",
  "tsconfig.json",
];

test.describe.configure({ mode: "serial" });

let work = "";
let buildB = "";
let port = 0;
let server: { child: ChildProcess; root: string } | undefined;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
    probe.on("error", reject);
  });
}

/** The page scripts a build serves, by route id (its React Router manifest, build/client/assets). */
function routeModules(buildRoot: string): Map<string, string> {
  const assets = path.join(buildRoot, "build/client/assets");
  const manifest = fs.readdirSync(assets).find((name) => /^manifest-\w+\.js$/.test(name));
  const text = fs.readFileSync(path.join(assets, manifest!), "utf8");
  const routes = JSON.parse(text.slice(text.indexOf("=") + 1).replace(/;?\s*$/, ""))
    .routes as Record<string, { module: string }>;
  return new Map(Object.entries(routes).map(([id, route]) => [id, route.module]));
}

/** Starts the production server of the tree at `treeRoot` on the shared port and data folder. */
async function startServer(treeRoot: string) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    PUBLIC_URL: baseUrl,
    DATA_DIR: path.join(work, "data"),
    RATE_LIMIT: "off",
    DEMO_DATA: "auto",
    LOG_LEVEL: "warn",
    SHUTDOWN_DRAIN_S: "0",
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: treeRoot,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  server = { child, root: treeRoot };
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    const ready = await fetch(`${baseUrl}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server of ${treeRoot} did not get ready within 120 s`);
}

async function stopServer() {
  if (!server) return;
  const { child } = server;
  server = undefined;
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

/** The rolling restart: the old build's server stops, the new build's starts on its port and data. */
async function upgrade() {
  expect(server?.root, "build A serves before the upgrade").toBe(root);
  await stopServer();
  await startServer(buildB);
}

/** Counts the documents the tab loads from now on (client-side moves load none). */
function countDocumentLoads(page: Page): () => number {
  let loads = 0;
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads += 1;
  });
  return () => loads;
}

async function signIn(page: Page) {
  const response = await page.request.post(`http://127.0.0.1:${port}/api/signin`, { data: MEMBER });
  expect(response.ok(), await response.text()).toBe(true);
}

/** A deal's page path, from the new-deals list. */
async function dealPath(page: Page, index: number): Promise<string> {
  const response = await page.request.post(`http://127.0.0.1:${port}/api/category_page`, {
    data: { type: "d", page: 1 },
  });
  const deal = (await response.json()).response.deal_data[index] as {
    unique_id: string;
    slug: string;
  };
  return `/post/${deal.unique_id}/${deal.slug}`;
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-rolling-"));
  buildB = path.join(work, "b");
  fs.mkdirSync(buildB);
  for (const source of SOURCES) {
    fs.cpSync(path.join(root, source), path.join(buildB, source), {
      recursive: true,
      filter: (from) => !from.includes(`${path.sep}.react-router`),
    });
  }
  fs.symlinkSync(
    fs.realpathSync(path.join(root, "node_modules")),
    path.join(buildB, "node_modules"),
  );
  // Another release: every page's module changes, so every page script gets another name.
  for (const file of fs.globSync("app/routes/**/*.tsx", { cwd: buildB })) {
    fs.appendFileSync(
      path.join(buildB, file),
      '\nif (typeof document !== "undefined") document.documentElement.dataset.release = "B";\n',
    );
  }
  const { ok, output } = await runProductionBuild(buildB, "pipe");
  if (!ok) throw new Error(`build B failed:\n${output}`);
  // The premise: none of A's page scripts is among B's files.
  const a = routeModules(root);
  const b = routeModules(buildB);
  expect(a.size).toBeGreaterThan(10);
  for (const [id, file] of a) {
    if (!id.startsWith("routes/")) continue; // root is not among the changed modules
    expect(b.get(id), id).not.toBe(file);
    expect(fs.existsSync(path.join(buildB, "build/client", file)), file).toBe(false);
  }

  port = await freePort();
  await placeDemoImages(path.join(work, "data", "media"), "full");
  await startServer(root);
});

test.afterAll(async () => {
  await stopServer();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test.beforeEach(async () => {
  if (server?.root !== root) {
    await stopServer();
    await startServer(root);
  }
});

/** Pages opened from build A's home page after the upgrade, and how each is recognised. */
const MOVES: {
  name: string;
  open: (page: Page, deal: string) => Promise<void>;
  url: (deal: string) => RegExp;
  shows: (page: Page) => ReturnType<Page["getByRole"]>;
}[] = [
  {
    // A link of the navigation bar: React Router learnt its route from build A (it reads the
    // routes of the links on screen), but had not loaded its script.
    name: "the stores, from the navigation bar",
    open: (page) => page.getByRole("link", { name: "Stores", exact: true }).first().click(),
    url: () => /\/store$/,
    shows: (page) => page.getByRole("heading", { level: 1, name: /stores/i }),
  },
  {
    // A deal card's link: a route React Router has not learnt yet, asked of the new server.
    name: "a deal, from its card",
    open: (page, deal) => page.locator(`main a[href="${deal}"]`).first().click(),
    url: (deal) => new RegExp(`${deal}$`),
    shows: (page) => page.getByLabel("Your comment"),
  },
  {
    name: "sign-in, from the navigation bar",
    open: (page) => page.getByRole("link", { name: "Login", exact: true }).first().click(),
    url: () => /\/login(\?.*)?$/,
    shows: (page) => page.getByLabel(/email/i).first(),
  },
];

for (const move of MOVES) {
  test(`after the upgrade, ${move.name} opens with at most one document load`, async ({ page }) => {
    await page.goto(`http://127.0.0.1:${port}/`);
    await hydrated(page.locator("main"));
    const deal = (await page.locator('main a[href^="/post/"]').first().getAttribute("href"))!;
    // Let React Router learn the routes of the links on the page, as it does in the background.
    await page.waitForLoadState("networkidle");
    const documents = countDocumentLoads(page);

    await upgrade();

    await move.open(page, deal);
    await expect(page).toHaveURL(move.url(deal));
    await expect(move.shows(page)).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("data-release", "B");
    expect(documents(), "documents loaded after the upgrade").toBeLessThanOrEqual(1);
  });
}

test("a comment typed before the upgrade is posted after it", async ({ page }) => {
  const base = `http://127.0.0.1:${port}`;
  const deal = await dealPath(page, 1);
  await signIn(page); // after: a member's calls need the CSRF token
  await page.goto(`${base}${deal}`);
  const box = page.getByLabel("Your comment");
  await hydrated(box);
  const text = `Typed before the upgrade ${Date.now()}`;
  await box.fill(text);
  const documents = countDocumentLoads(page);

  await upgrade();

  await page.getByRole("button", { name: "POST COMMENT" }).click();
  await expect(page.locator(".comment").filter({ hasText: text }).first()).toBeVisible();
  expect(documents(), "documents loaded after the upgrade").toBeLessThanOrEqual(1);
  // Posted once, on the server: the deal's page read afresh shows it once.
  await page.goto(`${base}${deal}`);
  await expect(page.locator(".comment").filter({ hasText: text })).toHaveCount(1);
});

test("without the Navigation API, the one reload keeps what was typed", async ({ page }) => {
  // Browsers without it (older Safari and Firefox) reload the page on screen, as React Router
  // does, instead of opening the page asked for.
  await page.addInitScript(() => {
    Object.defineProperty(window, "navigation", { value: undefined, configurable: true });
  });
  const base = `http://127.0.0.1:${port}`;
  const deal = await dealPath(page, 2);
  await signIn(page); // after: a member's calls need the CSRF token
  await page.goto(`${base}${deal}`);
  const box = page.getByLabel("Your comment");
  await hydrated(box);
  await page.waitForLoadState("networkidle");
  const text = `Still here after the reload ${Date.now()}`;
  await box.fill(text);
  const documents = countDocumentLoads(page);

  await upgrade();

  await page.getByRole("link", { name: "Stores", exact: true }).first().click();
  await expect.poll(documents).toBe(1);
  await expect(page).toHaveURL(`${base}${deal}`);
  await expect(page.getByLabel("Your comment")).toHaveValue(text);
  // The next move goes where it was asked, on the new build, without another document.
  await page.getByRole("link", { name: "Stores", exact: true }).first().click();
  await expect(page).toHaveURL(`${base}/store`);
  expect(documents()).toBe(1);
});
