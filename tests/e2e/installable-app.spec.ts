import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import sharp from "sharp";
import {
  expect,
  hydrated,
  postDealThroughApi,
  signInThroughApi,
  test,
  xsrfToken,
} from "./fixtures.ts";

/**
 * The installable app (docs/decisions/0108-installable-app.md) in Chromium: the manifest and its
 * icons, Chrome's own installability check, the service worker's offline page with the member's
 * saved deals (and never another member's), Cache Storage free of POST answers and pages, and
 * the push handler's notification.
 */

const PASSWORD = "Chalk#Board42";
/** A demo account that may post at once. */
const POSTER = { email: "moderator@example.com", password: "Chalkboard#2026" };

async function newMember(page: Page, label: string) {
  const email = `e2e-app-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: `App ${label}`, email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  return { email, password: PASSWORD };
}

/** Opens `url` and waits until the service worker controls the page and is active. */
async function openControlled(page: Page, url: string) {
  await page.goto(url);
  await page.waitForLoadState("load");
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
      );
    }
  });
}

/** The offline list the worker keeps (null: none), read in the page. */
async function keptList(page: Page) {
  return page.evaluate(async () => {
    const cache = await caches.open("offline-saved-deals");
    const hit = await cache.match("/__offline/saved-deals");
    return hit ? ((await hit.json()) as { member: number; deals: { title: string }[] }) : null;
  });
}

/** Every key of every cache of the site's Cache Storage, as paths. */
async function cachedPaths(page: Page) {
  return page.evaluate(async () => {
    const paths: string[] = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) {
        paths.push(`${request.method} ${new URL(request.url).pathname}`);
      }
    }
    return paths;
  });
}

async function saveDeal(page: Page, uniqueId: string) {
  const response = await page.request.post("/api/save_deal_toggle", {
    headers: { "x-xsrf-token": await xsrfToken(page) },
    data: { unique_id: uniqueId },
  });
  expect(response.ok(), await response.text()).toBe(true);
  expect((await response.json()).saved).toBe(true);
}

test.describe("the installable app", () => {
  test("the manifest names the site and its icons are the sizes it says", async ({ page }) => {
    const response = await page.request.get("/manifest.webmanifest");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toContain("application/manifest+json");
    const manifest = await response.json();
    expect(manifest).toMatchObject({
      name: "Chalkboard Deals",
      short_name: "Chalkboard",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: "#353f66",
      background_color: "#f4f5f8",
    });
    const icons = manifest.icons as { src: string; sizes: string; purpose: string }[];
    expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`).sort()).toEqual([
      "192x192 any",
      "192x192 maskable",
      "512x512 any",
      "512x512 maskable",
    ]);
    for (const icon of icons) {
      const file = await page.request.get(icon.src);
      expect(file.status()).toBe(200);
      expect(file.headers()["cache-control"]).toContain("immutable");
      const meta = await sharp(await file.body()).metadata();
      expect(meta.format).toBe("png");
      expect(`${meta.width}x${meta.height}`).toBe(icon.sizes);
      if (icon.purpose === "maskable") {
        // The safe zone's padding is the theme colour: an opaque navy corner.
        const { data } = await sharp(await file.body())
          .extract({ left: 0, top: 0, width: 1, height: 1 })
          .raw()
          .toBuffer({ resolveWithObject: true });
        expect([...data.subarray(0, 3)]).toEqual([0x35, 0x3f, 0x66]);
      }
    }

    await page.goto("/");
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute(
      "href",
      "/manifest.webmanifest",
    );
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute("content", "#353f66");
    const apple = await page.request.get(
      (await page.locator('link[rel="apple-touch-icon"]').getAttribute("href"))!,
    );
    expect((await sharp(await apple.body()).metadata()).width).toBe(180);
  });

  test("Chrome finds nothing missing to install the site", async ({ baseURL }, testInfo) => {
    // Chrome never offers to install from an incognito profile, which is what Playwright's
    // contexts are: this check runs in a persistent profile of its own.
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), "e2e-install-"));
    const context = await chromium.launchPersistentContext(profile, {
      ...testInfo.project.use.launchOptions,
      baseURL,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    await openControlled(page, "/");
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send("Page.getAppManifest")) as { errors: unknown[] };
    expect(manifest.errors).toEqual([]);
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  });

  test("the worker precaches this build's assets and its bytes name them", async ({ page }) => {
    const worker = await (await page.request.get("/sw.js")).text();
    await page.goto("/");
    const scripts = await page
      .locator('script[type="module"][src^="/assets/"], link[rel="modulepreload"]')
      .evaluateAll((nodes) =>
        nodes.map((node) => node.getAttribute("src") ?? node.getAttribute("href")),
      );
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      expect(worker).toContain(JSON.stringify(new URL(script!, page.url()).pathname));
    }
  });

  test("offline, a page shows the member's saved deals, and never to the next member", async ({
    page,
    context,
  }) => {
    const posterId = await signInThroughApi(page, POSTER);
    const title = `Offline glue sticks 30 pack ${Date.now()}`;
    const deal = await postDealThroughApi(page, posterId, { title, price: "7.49" });
    await context.clearCookies();

    const first = await newMember(page, "first");
    await signInThroughApi(page, first);
    await saveDeal(page, deal.unique_id);
    await openControlled(page, "/user/saved");
    await expect
      .poll(async () => (await keptList(page))?.deals.map((d) => d.title))
      .toContain(title);

    // A form post and a JSON post through the page while the worker runs.
    await page.evaluate(async () => {
      await fetch("/api/saved_deals", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ page: 1 }),
      });
    });

    await context.setOffline(true);
    await page.goto("/newdeals");
    await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
    const saved = page.getByRole("region", { name: "Saved deals" });
    await expect(saved.getByRole("link", { name: title })).toHaveAttribute(
      "href",
      new RegExp(`/post/${deal.unique_id}/`),
    );
    await expect(saved).toContainText("$7.49");
    await context.setOffline(false);

    // Nothing but the shell, the assets and the one offline list: no page, no POST answer.
    const paths = await cachedPaths(page);
    expect(paths.every((entry) => entry.startsWith("GET "))).toBe(true);
    const allowed =
      /^GET (\/offline|\/app-icons\/icon-192\.png|\/assets\/[\w.-]+|\/__offline\/saved-deals)$/;
    expect(paths.filter((entry) => !allowed.test(entry))).toEqual([]);

    // Signing out through the page's Logout drops the list at once.
    await openControlled(page, "/");
    const logout = page.getByRole("link", { name: "Logout" }).first();
    await hydrated(logout);
    await logout.click();
    await expect(page.getByRole("link", { name: "Login" }).first()).toBeVisible();
    await expect.poll(() => keptList(page)).toBeNull();

    // The next member on this browser: the first one's deals are never shown offline.
    const second = await newMember(page, "second");
    await signInThroughApi(page, second);
    await openControlled(page, "/");
    await expect.poll(async () => (await keptList(page))?.deals).toEqual([]);
    await context.setOffline(true);
    await page.goto("/store");
    await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);
    await expect(page.getByText("You have no saved deals yet.")).toBeVisible();
    await context.setOffline(false);

    // And a visitor, after a sign-out the worker did not see (a call from another tab or app).
    await context.clearCookies();
    await signInThroughApi(page, first);
    await openControlled(page, "/");
    await expect
      .poll(async () => (await keptList(page))?.deals.map((d) => d.title))
      .toContain(title);
    await context.clearCookies();
    await openControlled(page, "/");
    await expect.poll(() => keptList(page)).toBeNull();
    await context.setOffline(true);
    await page.goto("/category");
    await expect(page.getByRole("heading", { name: "You are offline" })).toBeVisible();
    await expect(page.getByText(title)).toHaveCount(0);
    await context.setOffline(false);
  });

  test("a push message shows a notification that opens the deal", async ({ page, context }) => {
    const baseUrl = new URL(
      page.url() === "about:blank" ? "/" : page.url(),
      process.env.E2E_BASE_URL,
    );
    await context.grantPermissions(["notifications"], { origin: baseUrl.origin });
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send("ServiceWorker.enable");
    const registrations = new Map<string, string>();
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations: list }) => {
      for (const r of list as { registrationId: string; scopeURL: string; isDeleted: boolean }[]) {
        if (!r.isDeleted) registrations.set(r.scopeURL, r.registrationId);
      }
    });
    await openControlled(page, "/");
    const scope = `${baseUrl.origin}/`;
    await expect.poll(() => registrations.get(scope)).toBeTruthy();

    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: baseUrl.origin,
      registrationId: registrations.get(scope)!,
      data: JSON.stringify({
        title: "Price drop: Crayola 24 pack",
        body: "Now $0.97 at Target",
        url: "/newdeals",
        tag: "deal-42",
      }),
    });
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          return (await registration.getNotifications()).map((n) => ({
            title: n.title,
            body: n.body,
            tag: n.tag,
            icon: new URL(n.icon).pathname,
            url: (n.data as { url: string }).url,
          }));
        }),
      )
      .toEqual([
        {
          title: "Price drop: Crayola 24 pack",
          body: "Now $0.97 at Target",
          tag: "deal-42",
          icon: "/app-icons/icon-192.png",
          url: `${baseUrl.origin}/newdeals`,
        },
      ]);

    // Another origin's address is never kept: the notification opens the site's home instead.
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: baseUrl.origin,
      registrationId: registrations.get(scope)!,
      data: JSON.stringify({
        title: "Elsewhere",
        body: "x",
        url: "https://evil.example/",
        tag: "t2",
      }),
    });
    await expect
      .poll(() =>
        page.evaluate(async () => {
          const registration = await navigator.serviceWorker.ready;
          const [notification] = await registration.getNotifications({ tag: "t2" });
          return (notification?.data as { url?: string } | undefined)?.url;
        }),
      )
      .toBe(`${baseUrl.origin}/`);
  });
});
