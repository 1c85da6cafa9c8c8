import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page } from "@playwright/test";
import { SIGNUP_DEFENCES } from "../../core/constants.ts";

export { expect };

/** The widths every screen is checked at: phone, tablet, desktop. */
export const VIEWPORTS = [
  { name: "phone", width: 375, height: 812 },
  { name: "tablet", width: 768, height: 1024 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/**
 * Waits until React has hydrated `element` (it carries React's fiber), then a frame and a little
 * more, so that the page's first effects (the scroll to top, the root's member flag) have run. A
 * click before hydration does nothing, or loads the page afresh.
 */
export async function hydrated(element: Locator) {
  await expect
    .poll(() =>
      element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactFiber"))),
    )
    .toBe(true);
  await element
    .page()
    .evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
}

/**
 * What an axe scan of the page on screen would find depends on its document and on the CSS that
 * applies to it. The document is its markup as the scripts left it, less what axe never reads and
 * every request makes anew (script text, such as the hydration data, and hidden inputs' values,
 * such as CSRF tokens). Of the CSS, what can differ between two screens of the same document is
 * the colour scheme, which elements are shown, and the rules in media queries on the viewport
 * that match an element and set where it is stacked, its colours, its text size or a custom
 * property (what axe's rules read; a grid that becomes a column is not among them). This is that
 * pair, as one hash: two screens with the same one are the same page in the same layout.
 */
async function pageAndLayout(page: Page, exclude: string[]): Promise<string> {
  const { markup, layout } = await page.evaluate(() => {
    const seen =
      /(^|[;{\s])(color|background(-color|-image)?|content|position|overflow(-x|-y)?|clip(-path)?|z-index|font-size|font-weight|--[\w-]+)\s*:/;
    const matchesSomething = (selector: string) => {
      try {
        return (
          document.querySelector(
            selector.replace(/::?(before|after|placeholder|marker|selection)\b/g, ""),
          ) !== null
        );
      } catch {
        return true; // a selector this check cannot read is counted as applying
      }
    };
    const layout: string[] = [];
    const visit = (rules: CSSRuleList, inMatchingMedia: boolean) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSMediaRule) {
          const condition = rule.conditionText;
          const varies = /width|height|prefers-color-scheme/.test(condition);
          if (!varies || matchMedia(condition).matches) {
            visit(rule.cssRules, inMatchingMedia || varies);
          }
        } else if (rule instanceof CSSStyleRule) {
          if (
            inMatchingMedia &&
            seen.test(rule.style.cssText) &&
            matchesSomething(rule.selectorText)
          ) {
            layout.push(rule.cssText);
          }
        } else if ("cssRules" in rule) {
          visit((rule as CSSGroupingRule).cssRules, inMatchingMedia);
        }
      }
    };
    for (const sheet of Array.from(document.styleSheets)) {
      try {
        visit(sheet.cssRules, false);
      } catch {
        layout.push(`unreadable ${sheet.href}`);
      }
    }
    const copy = document.documentElement.cloneNode(true) as HTMLElement;
    for (const script of Array.from(copy.querySelectorAll("script"))) script.textContent = "";
    for (const input of Array.from(copy.querySelectorAll("input[type=hidden]"))) {
      input.removeAttribute("value");
    }
    // Which elements are shown, whatever the rule that shows or hides them.
    const shown = Array.from(document.querySelectorAll("body *"), (element) =>
      element.checkVisibility({ opacityProperty: true, visibilityProperty: true }) ? 1 : 0,
    ).join("");
    // The colours follow the scheme through light-dark() (app/styles/app.css), not a media rule.
    const scheme = matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
    return { markup: copy.outerHTML, layout: [scheme, shown, ...layout] };
  });
  return createHash("sha256")
    .update(JSON.stringify([markup, layout, exclude]))
    .digest("hex");
}

/**
 * Fails on any serious or critical axe finding, listing them.
 *
 * Each page is scanned once per layout (docs/decisions/0077): a scan of a document that an earlier
 * scan in this run saw in the same layout (pageAndLayout) is skipped, as its findings would be the
 * same; tests scan at every width they open, and a width where nothing that axe reads changes
 * costs nothing. A scan counts as made once it has passed, so a failing one is made again on a
 * retry. The browser tests' global setup keeps the record across workers (E2E_AXE_DIR).
 *
 * Two settings make a scan 2–3 times cheaper without changing what it finds (decision 0055):
 * `resultTypes: ["violations"]` stops axe from collecting every passing and inapplicable node,
 * which this check never reads; legacy mode runs `axe.run` in the page (iframes included, through
 * axe's own frame messaging) instead of `runPartial` in each frame plus `finishRun` in a new blank
 * page per scan. `options()` replaces all options, so it must come before `withTags()`.
 */
export async function expectAccessible(page: Page, options: { exclude?: string[] } = {}) {
  const exclude = options.exclude ?? [];
  const record = process.env.E2E_AXE_DIR;
  const key = record ? await pageAndLayout(page, exclude) : undefined;
  const scanned = key ? path.join(record!, key) : undefined;
  if (scanned && fs.existsSync(scanned)) {
    fs.appendFileSync(path.join(record!, "skipped"), `${page.url()}\n`);
    return;
  }
  let builder = new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    .setLegacyMode(true);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const serious = results.violations.filter(
    (v) => v.impact === "serious" || v.impact === "critical",
  );
  expect(
    serious.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(" "))
          .slice(0, 3)
          .join(" | ")}`,
    ),
  ).toEqual([]);
  if (scanned) fs.writeFileSync(scanned, `${page.url()}\n`);
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export interface CapturedMail {
  to: string;
  subject: string;
  /** The raw message with quoted-printable soft breaks undone: good enough to find links. */
  body: string;
}

/** Mail the server sent through the SMTP capture server of the global setup. */
export const mailbox = {
  read(): CapturedMail[] {
    const dir = process.env.E2E_MAIL_DIR!;
    return fs
      .readdirSync(dir)
      .sort()
      .map((file) => {
        const raw = fs.readFileSync(path.join(dir, file), "utf8");
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? "";
        return {
          to: file
            .split("-")
            .slice(2)
            .join("-")
            .replace(/\.eml$/, ""),
          subject,
          body: decodeQuotedPrintable(raw),
        };
      });
  },
  /** Waits for a message to `to` and returns the first link in it matching `pattern`. */
  async linkTo(to: string, pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      for (const mail of this.read().reverse()) {
        if (!mail.to.includes(to.toLowerCase()) && !mail.to.includes(to)) continue;
        const link = mail.body.match(
          new RegExp(`https?://[^\\s"'<>]*${pattern.source}[^\\s"'<>]*`),
        )?.[0];
        if (link) return link;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no mail to ${to} with a link matching ${pattern}`);
  },
};

/** `test` with baseURL pointed at the server of the global setup. */
export const test = base.extend({
  baseURL: async ({}, use) => {
    await use(process.env.E2E_BASE_URL);
  },
});

/**
 * Waits until the Register form on `page` is old enough to be a person's: its signed render time
 * (the hidden form_stamp) plus SIGNUP_DEFENCES.minimumFillMs (docs/decisions/0086). A browser test
 * fills a form faster than anyone types, and a form sent sooner is answered as a script's: the
 * success message, but no account. The server runs on this machine, so its clock is this one.
 */
export async function waitOutSignupFillTime(page: Page) {
  const stamp = await page.locator('input[name="form_stamp"]').inputValue();
  const renderedAt = Number(stamp.split(".")[0]);
  const left = renderedAt + SIGNUP_DEFENCES.minimumFillMs + 250 - Date.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
}

/** Signs in through the JSON API (no form): the journeys that test something else start so. */
export async function signInThroughApi(page: Page, who: { email: string; password: string }) {
  const response = await page.request.post("/api/signin", { data: who });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).response.user_id as number;
}

/** The signed-in browser's CSRF token, for calls made with `page.request`. */
export async function xsrfToken(page: Page): Promise<string> {
  return (await page.context().cookies()).find((c) => c.name === "XSRF-TOKEN")!.value;
}

/**
 * A fresh deal posted through the API by the signed-in user, so no other journey sees it change.
 * Its link defaults to a real-looking product page named after the title (other journeys open the
 * newest deal and expect GRAB DEAL).
 */
export async function postDealThroughApi(
  page: Page,
  userId: number,
  deal: { title: string; link?: string; price?: string; description?: string },
) {
  const options = (await (await page.request.get("/api/submit_deal")).json()).response;
  const slug = deal.title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const response = await page.request.post("/api/save_deal", {
    headers: { "x-xsrf-token": await xsrfToken(page) },
    multipart: {
      user_id: String(userId),
      deal_category: String(options.forum_category_deal[0].id),
      store_id: String(options.store[0].id),
      category_id: String(options.category[0].id),
      title: deal.title,
      link: deal.link ?? `https://www.example.com/products/${slug}`,
      deal_description: deal.description ?? "<p>Posted by a browser test.</p>",
      price: deal.price ?? "9.99",
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).response as { unique_id: string; url: string };
}
