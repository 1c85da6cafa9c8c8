import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";

// The home page's filters in its address, and every unknown item a 404 with a way on.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ pages: true });
});
afterAll(async () => {
  await t?.close();
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function page(url: string) {
  const response = await t.app.inject({ method: "GET", url });
  return { status: response.statusCode, html: response.body };
}

async function filterHome(payload: Record<string, unknown>) {
  const response = await t.app.inject({
    method: "POST",
    url: "/api/category_store_filter_home",
    payload,
  });
  return response.json() as Json;
}

/** The deal links of the page's Recent Deals section, in order. */
function recentLinks(html: string): string[] {
  const start = html.indexOf('id="recent-heading"');
  expect(start).toBeGreaterThan(-1);
  return [...html.slice(start).matchAll(/class="deal-card-title"><a href="([^"]+)"/g)].map(
    (m) => m[1]!,
  );
}

const pathOf = (d: Json) => `/post/${d.unique_id}/${d.slug}`;

describe("the home page's filters in the address", () => {
  it("server-renders the lists of ?store= and ?category=, with the selects chosen", async () => {
    const expected = await filterHome({ store_id: 1, category_id: "", page: 1 });
    const { status, html } = await page("/?store=1");
    expect(status).toBe(200);
    expect(recentLinks(html)).toEqual(expected.recent_deals_data.map(pathOf));
    expect(html).toMatch(/<option value="1" selected="">/);
    expect(html).toContain("Clear filters");

    const both = await filterHome({ store_id: 2, category_id: 3, page: 1 });
    const filtered = await page("/?store=2&category=3");
    expect(recentLinks(filtered.html)).toEqual(both.recent_deals_data.map(pathOf));
  });

  it("ignores values that are not a known store or category, and shows the unfiltered lists", async () => {
    const home = (
      await t.app.inject({ method: "POST", url: "/api/home", payload: {} })
    ).json() as Json;
    const unfiltered = home.recent_deals.recent_arr.map(pathOf);
    for (const query of ["?store=abc", "?store=99999", "?category=-3", "?store=1.5&category="]) {
      const { status, html } = await page(`/${query}`);
      expect(status, query).toBe(200);
      expect(recentLinks(html), query).toEqual(unfiltered);
      expect(html, query).not.toContain("Clear filters");
    }
  });
});

describe("unknown items", () => {
  it.each([
    "/store/no-such-store-anywhere",
    "/category/no-such-category-anywhere",
    "/post/nosuchpost/no-such-deal",
    "/educator/nosuchpost/no-such-discussion",
    "/profile/987654321",
    "/profile/not-a-number",
    "/no/such/page",
  ])("%s answers 404 with the notice and ways on, in the site's layout", async (url) => {
    const { status, html } = await page(url);
    expect(status).toBe(404);
    expect(html).toContain("<h1>Page Not Found</h1>");
    expect(html).toContain('<p class="no-data">No Data Found</p>');
    expect(html).toContain('aria-label="Keep browsing"');
    expect(html).toContain('href="/newdeals"');
    expect(html).toContain('href="/forum"');
    expect(html).toContain(">Go To Home</a>");
    expect(html).toContain('action="/search"');
    // The site's layout: the navigation bar and the footer with its links.
    expect(html).toContain('class="site-header"');
    expect(html).toContain('aria-label="Browse"');
  });
});
