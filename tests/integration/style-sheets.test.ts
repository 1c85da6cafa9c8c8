import fs from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, newestDealPath, type TestApp } from "../helpers/app.ts";

// docs/decisions/0054: every <link rel="stylesheet"> in a page's HTML blocks its first paint. The
// pages every visitor opens load few of them, and a deal page none of the admin console's or the
// sign-in pages' style sheets.

/**
 * Root's sheet (the site frame, cards, listings, icons …: app/root.tsx) and the route's own (home,
 * ListingPage's sliders, post). Before 0054's second part: 6, 9 and 15.
 */
const MAX_SHEETS = { home: 2, newdeals: 2, deal: 2 };

const assets = path.resolve(import.meta.dirname, "../../build/client/assets");

let t: TestApp;
let dealPath: string;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
  dealPath = await newestDealPath(t);
});
afterAll(async () => {
  await t?.close();
});

/** The style sheets `html` links, in order. */
function sheetUrls(html: string): string[] {
  return [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
}

/** The style sheets a page's HTML links, in order, with their bytes. */
async function styleSheets(page: string) {
  const response = await t.app.inject({ method: "GET", url: page });
  expect(response.statusCode).toBe(200);
  const urls = sheetUrls(response.body);
  let raw = 0;
  let brotli = 0;
  let text = "";
  for (const url of urls) {
    const sheet = await t.app.inject({ method: "GET", url });
    expect(sheet.statusCode, url).toBe(200);
    text += sheet.body;
    raw += sheet.rawPayload.length;
    brotli += brotliCompressSync(sheet.rawPayload, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  }
  return { urls, raw, brotli, text };
}

describe("render-blocking style sheets (production build)", () => {
  it.each([
    ["home", "/"],
    ["newdeals", "/newdeals"],
    ["deal", "deal"],
  ] as const)("the %s page links few style sheets", async (name, page) => {
    const { urls, raw, brotli } = await styleSheets(page === "deal" ? dealPath : page);
    console.log(
      `${name}: ${urls.length} style sheets, ${raw} B raw, ${brotli} B brotli\n  ${urls.join("\n  ")}`,
    );
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.length).toBeLessThanOrEqual(MAX_SHEETS[name]);
  });

  it("keeps the console's and the sign-in pages' styles off the deal page", async () => {
    // Each sheet known by a rule only it has; the markers are real: the build has them.
    const built = fs
      .readdirSync(assets)
      .filter((file) => file.endsWith(".css"))
      .map((file) => fs.readFileSync(path.join(assets, file), "utf8"));
    const deal = await styleSheets(dealPath);
    // What the deal page does need of them: the moderators' banner and the report dialog.
    expect(deal.text).toContain(".moderation-banner");
    expect(deal.text).toContain(".confirm-dialog");
    for (const { sheet, marker } of [
      { sheet: "the console's (console.css)", marker: ".console-nav" },
      { sheet: "the sign-in pages' (auth.css)", marker: ".auth-card" },
    ]) {
      expect(
        built.some((text) => text.includes(marker)),
        sheet,
      ).toBe(true);
      expect(deal.text.includes(marker), `the deal page loads ${sheet} style sheet`).toBe(false);
    }
  });

  it.each([
    ["home", "/"],
    ["deal", "deal"],
  ] as const)(
    "the %s page asks for its style sheets, and its scripts are served",
    async (_name, page) => {
      // Rendered with a nonce, not served from the page cache (which admits scripts by hash).
      const response = await t.app.inject({
        method: "GET",
        url: `${page === "deal" ? dealPath : page}?fresh=render`,
      });
      expect(response.statusCode).toBe(200);
      const html = response.body;
      const head = html.slice(0, html.indexOf("</head>"));
      expect(sheetUrls(head).length).toBeGreaterThan(0);

      const policy = /'nonce-([^']+)'/.exec(
        String(response.headers["content-security-policy"]),
      )![1]!;
      // React Router's module script carries the response's nonce (app/entry.server.tsx).
      const moduleCode = new RegExp(
        `<script nonce="${policy.replace(/[+/]/g, (c) => `\\${c}`)}" type="module"[^>]*>([^<]+)</script>`,
      ).exec(html)?.[1];
      expect(moduleCode, "the module script that hydrates the page").toBeDefined();
      expect(moduleCode).toMatch(/import \* as route0 from "\/assets\/root-[^"]+\.js"/);
      const preloads = [...head.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map(
        ([, url]) => url!,
      );
      const entry = /import\("(\/assets\/entry\.client-[^"]+\.js)"\)/.exec(moduleCode!)![1]!;
      expect(preloads).toContain(entry);
      for (const url of preloads) {
        expect((await t.app.inject({ method: "GET", url })).statusCode, url).toBe(200);
      }
    },
  );
});
