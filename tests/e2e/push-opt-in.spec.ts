import { createECDH, randomBytes, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  hydrated,
  signInThroughApi,
  test,
  xsrfToken,
} from "./fixtures.ts";

/**
 * "Push notifications on this device" (docs/decisions/0109-push-alerts.md) in Chromium: the
 * control's states (off, on, blocked by the browser), the permission question, the subscription
 * sent to and taken back from the site, and its place on the alert form.
 *
 * Chromium here cannot reach a real push service (no network; headless Chromium's
 * PushManager.subscribe needs Google's), so the journeys that turn push on give the page a
 * browser push service of its own: PushManager's subscribe and getSubscription answer a
 * subscription with real P-256 keys and an endpoint on a public address, which the site checks
 * and stores as it would a real one. Everything else (the service worker, permissions, the calls)
 * is Chromium's and the site's own. Sending to a subscription is tested against a local push
 * service in tests/integration/push.test.ts.
 */

const PASSWORD = "Chalk#Board42";

async function newMember(page: Page, label: string) {
  const email = `e2e-push-${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const signup = await page.request.post("/api/signup", {
    data: { name: `Push ${label}`, email, password: PASSWORD },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  await signInThroughApi(page, { email, password: PASSWORD });
}

/** The browser push service of this page's own (see above), made before the site's scripts run. */
async function giveBrowserPushService(page: Page) {
  await page.addInitScript(() => {
    const base64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    let current: unknown = null;
    PushManager.prototype.getSubscription = async () => current as PushSubscription | null;
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      const pair = (await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
        "deriveBits",
      ])) as CryptoKeyPair;
      const p256dh = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
      const auth = crypto.getRandomValues(new Uint8Array(16));
      const key = options?.applicationServerKey as Uint8Array;
      const endpoint = `https://93.184.215.14/push/e2e-${crypto.randomUUID()}`;
      current = {
        endpoint,
        options: { userVisibleOnly: true, applicationServerKey: key.slice().buffer },
        toJSON: () => ({
          endpoint,
          expirationTime: null,
          keys: { p256dh: base64url(p256dh), auth: base64url(auth) },
        }),
        unsubscribe: async () => {
          current = null;
          return true;
        },
      };
      (window as unknown as { pushKeyUsed: number }).pushKeyUsed = key.length;
      return current as PushSubscription;
    };
  });
}

async function devices(page: Page) {
  const response = await page.request.post("/api/push_key", {
    headers: { "x-xsrf-token": await xsrfToken(page) },
    data: {},
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).devices as { endpoint: string; label: string }[];
}

test.describe("push notifications on this device", () => {
  test("turn on and off from the email settings, asking the browser's permission", async ({
    page,
    context,
    baseURL,
  }) => {
    await giveBrowserPushService(page);
    await newMember(page, "settings");
    // The member's phone, subscribed earlier: listed with a way to turn it off from here.
    const phone = createECDH("prime256v1");
    phone.generateKeys();
    const phoneEndpoint = `https://93.184.215.14/push/e2e-phone-${randomUUID()}`;
    const subscribed = await page.request.post("/api/push_subscribe", {
      headers: {
        "x-xsrf-token": await xsrfToken(page),
        "user-agent":
          "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
      },
      data: {
        endpoint: phoneEndpoint,
        keys: {
          p256dh: phone.getPublicKey().toString("base64url"),
          auth: randomBytes(16).toString("base64url"),
        },
      },
    });
    expect(subscribed.ok(), await subscribed.text()).toBe(true);
    await context.grantPermissions(["notifications"], { origin: new URL(baseURL!).origin });
    await page.goto("/user/settings/email");
    const control = page.getByRole("region", { name: "Push notifications on this device" });
    const status = control.getByRole("status");
    await expect(status).toHaveText("Off: this device gets no push notifications.");
    const turnOn = control.getByRole("button", { name: "Turn on on this device" });
    await hydrated(turnOn);
    await turnOn.click();
    await expect(status).toHaveText("On: this device gets push notifications.");
    // The site's VAPID key went to the browser, and the subscription to the site.
    expect(
      await page.evaluate(() => (window as unknown as { pushKeyUsed: number }).pushKeyUsed),
    ).toBe(65);
    const on = await devices(page);
    expect(on).toHaveLength(2);
    expect(on[0]!.endpoint).toMatch(/^https:\/\/93\.184\.215\.14\/push\/e2e-/);
    expect(on[0]!.label).toMatch(/Chrome/);
    const list = control.getByRole("list", { name: "Your devices with push notifications on" });
    await expect(list.getByRole("listitem")).toHaveCount(2);
    await expect(list.getByRole("listitem").filter({ hasText: "(this device)" })).toHaveCount(1);
    await expectAccessible(page);
    await list.getByRole("button", { name: /Turn off push on Chrome on Android/ }).click();
    await expect(list.getByRole("listitem")).toHaveCount(1);
    expect((await devices(page)).map((d) => d.endpoint)).not.toContain(phoneEndpoint);

    await control.getByRole("button", { name: "Turn off on this device" }).click();
    await expect(status).toHaveText("Off: this device gets no push notifications.");
    expect(await devices(page)).toEqual([]);
  });

  test("says when the browser blocks notifications", async ({ page, context, baseURL }) => {
    await newMember(page, "blocked");
    // Playwright grants permissions but cannot deny one: the browser's own protocol can, in this
    // test's browser context.
    const cdp = await context.newCDPSession(page);
    const { targetInfo } = await cdp.send("Target.getTargetInfo");
    await cdp.send("Browser.setPermission", {
      permission: { name: "notifications" },
      setting: "denied",
      origin: new URL(baseURL!).origin,
      browserContextId: targetInfo.browserContextId,
    });
    await page.goto("/user/settings/email");
    const control = page.getByRole("region", { name: "Push notifications on this device" });
    await expect(control.getByRole("status")).toContainText("Blocked by the browser");
    await expect(control.getByRole("button")).toHaveCount(0);
  });

  test("Chromium's own push service: the control ends on or explains why not", async ({
    page,
    context,
    baseURL,
  }) => {
    await newMember(page, "chromium");
    await context.grantPermissions(["notifications"], { origin: new URL(baseURL!).origin });
    await page.goto("/user/settings/email");
    const control = page.getByRole("region", { name: "Push notifications on this device" });
    const turnOn = control.getByRole("button", { name: "Turn on on this device" });
    await hydrated(turnOn);
    await turnOn.click();
    // Either the browser subscribed and the site holds it, or the member reads why not and push
    // stays off; never a control left working.
    const outcome = control
      .getByRole("alert")
      .or(control.getByText("On: this device gets push notifications."));
    await expect(outcome).toBeVisible({ timeout: 20_000 });
    const isOn = await control.getByText("On: this device gets push notifications.").isVisible();
    test.info().annotations.push({
      type: "chromium push",
      description: isOn ? "subscribed" : await control.getByRole("alert").innerText(),
    });
    expect(await devices(page)).toHaveLength(isOn ? 1 : 0);
    if (!isOn) {
      await expect(control.getByRole("alert")).toContainText("Push could not be turned on");
      await expect(control.getByRole("status")).toHaveText(
        "Off: this device gets no push notifications.",
      );
    }
  });

  test("the alert form offers push with instant alerts only", async ({
    page,
    context,
    baseURL,
  }) => {
    await giveBrowserPushService(page);
    await newMember(page, "alerts");
    await context.grantPermissions(["notifications"], { origin: new URL(baseURL!).origin });
    await page.goto("/user/alerts");
    const control = page.getByRole("region", { name: "Push notifications on this device" });
    await expect(control.getByRole("status")).toHaveText(
      "Off: this device gets no push notifications.",
    );
    const delivery = page.getByLabel("How to tell you");
    await hydrated(delivery);
    await delivery.selectOption("daily");
    await expect(control).toHaveCount(0);
    await delivery.selectOption("instant");
    await control.getByRole("button", { name: "Turn on on this device" }).click();
    await expect(control.getByRole("status")).toHaveText(
      "On: this device gets push notifications.",
    );
    expect(await devices(page)).toHaveLength(1);
  });
});
