import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "../../core/settings/defaults.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

// The footer and settings load in the root loader; the spec says their failures are
// silently ignored. Here the settings table is really unreadable, and pages still render.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
  await sql`ALTER TABLE general_settings RENAME TO general_settings_unreadable`.execute(t.deps.db);
});
afterAll(async () => {
  await t?.close();
});

describe("a page whose settings cannot be read", () => {
  it("the read itself fails", async () => {
    await expect(t.services.settings.get()).rejects.toThrow();
  });

  it("still renders, with the default site name and no footer or social links", async () => {
    for (const url of ["/", "/store", "/login"]) {
      const response = await t.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"]).toMatch(/^text\/html/);
      const text = response.body.replaceAll("<!-- -->", "");
      const copyright = `© ${new Date().getFullYear()} ${DEFAULT_SETTINGS.websiteName}`;
      expect(text.includes(copyright), url).toBe(true);
      expect(text.includes("Follow us on"), url).toBe(false);
      expect(text.includes("Something went wrong"), url).toBe(false);
    }
    const home = await t.app.inject({ method: "GET", url: "/" });
    expect(home.body.includes(`<title>${DEFAULT_SETTINGS.websiteName}</title>`)).toBe(true);
    expect(home.body.includes('href="/educator"')).toBe(true);
  });
});
