import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureBodySchema } from "../../server/api/errors.ts";
import { apiRoutes } from "../../server/api/route.ts";
import { API_CALLS, send, startApiWorld, type ApiWorld } from "../helpers/api-calls.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Malformed input at every door: each field of a valid request of every /api call, and each
 * parameter of every page that has one, replaced by values no form would send. No answer may be a
 * 5xx other than an intended 503, and every refusal of an API call has the call's declared failure
 * shape. The figures (requests, answers per status) are printed at the end.
 * Needs the production build (`npm run build`) for the pages.
 */

const HUGE_TEXT = "x".repeat(100_000);

/** Values no form sends: wrong types, extremes, control characters, injections. */
const MALFORMED: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  -0.5,
  1e21,
  -1e21,
  1e308,
  -1e308,
  2 ** 31,
  2 ** 53 + 2,
  Number.MAX_SAFE_INTEGER,
  "",
  " ",
  "\t\n",
  "abc",
  "0",
  "-1",
  "1.5",
  "1e309",
  "NaN",
  "Infinity",
  "-Infinity",
  "0x1F",
  "1,5",
  "१२",
  "99999999999999999999999999",
  "9".repeat(5000),
  HUGE_TEXT,
  "a\u0000b",
  "\u0000",
  "%00",
  "a\u0001b",
  "\u001b[31mred",
  "\u007f",
  "\u0085",
  "line\r\nbreak",
  "\u2028",
  "\u202eevil",
  "\ud800",
  "\ufeff",
  "💥",
  "<script>alert(1)</script>",
  "' OR '1'='1' --",
  "../../etc/passwd",
  "${7*7}{{7*7}}",
  "true",
  "null",
  "[]",
  [],
  [1, 2],
  ["a"],
  [null],
  [[]],
  {},
  { a: 1 },
  { $gt: "" },
  JSON.parse('{"__proto__": {"polluted": 1}}'),
];

/** An intended 503 is a part the call needs being away (Payments not configured, mail down). */
const isFault = (status: number) => status >= 500 && status !== 503;

let world: ApiWorld;
/** Answers per status, by door. */
const statuses = { api: new Map<number, number>(), pages: new Map<number, number>() };
const faults: string[] = [];

function count(door: keyof typeof statuses, status: number, what: string, body: string) {
  statuses[door].set(status, (statuses[door].get(status) ?? 0) + 1);
  if (isFault(status)) faults.push(`${what} → ${status} ${body.slice(0, 200)}`);
}

function figures(door: keyof typeof statuses) {
  const counts = [...statuses[door]].sort(([a], [b]) => a - b);
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  return `${door}: ${total} requests (${counts.map(([s, n]) => `${s}: ${n}`).join(", ")})`;
}

function describeValue(value: unknown): string {
  const text = typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? "");
  return text.length > 40 ? `${text.slice(0, 40)}…(${text.length})` : text;
}

beforeAll(async () => {
  world = await startApiWorld({ pages: true });
});
afterAll(async () => {
  console.info(`fuzz ${figures("api")}; ${figures("pages")}`);
  await world?.close();
});

describe("malformed input", () => {
  it(
    "never breaks an /api call: every field and the whole body",
    async () => {
      const badShapes: string[] = [];
      for (const route of apiRoutes) {
        const call = `${route.method} ${route.url}`;
        const url = `/api${route.url}`;
        const failureShape = failureBodySchema(route.failure);
        const fields = Object.keys((await API_CALLS[call]!(world)).body ?? { page: 1 });
        const targets = route.method === "GET" ? ["?page"] : ["(body)", ...fields];
        for (const target of targets) {
          for (const value of MALFORMED) {
            const request = await API_CALLS[call]!(world);
            const response =
              target === "?page"
                ? await request.client.get(`${url}?page=${encodeParameter(value)}`)
                : await send(
                    route.method,
                    url,
                    request,
                    target === "(body)" ? value : { ...request.body, [target]: value },
                  );
            const what = `${call} ${target}=${describeValue(value)}`;
            count("api", response.statusCode, what, response.body);
            if (response.statusCode >= 400 && response.statusCode < 500) {
              const checked = failureShape.safeParse(response.json());
              if (!checked.success) badShapes.push(`${what} → ${response.body.slice(0, 200)}`);
            }
          }
        }
      }
      expect(faults).toEqual([]);
      expect(badShapes).toEqual([]);
    },
    30 * 60_000,
  );

  it(
    "never breaks a page: every path and query parameter",
    async () => {
      const { deal, storeSlug, categorySlug, otherUser } = world.ids;
      const discussion = await world.t.deps.db
        .selectFrom("posts")
        .select(["unique_id", "slug"])
        .where("post_type", "=", "g")
        .where("status", "=", "active")
        .executeTakeFirstOrThrow();
      // Every page that reads a parameter, each parameter once; parameters read by the same code
      // on several pages (the Filter panel's bounds, ?page) are varied on one of them.
      const visitorPages = [
        "/post/{v}/x",
        `/post/${deal.unique_id}/{v}`,
        "/educator/{v}/x",
        `/educator/${discussion.unique_id}/{v}`,
        "/store/{v}",
        "/category/{v}",
        "/profile/{v}",
        "/confirm/{v}",
        "/reset-password/{v}",
        "/store?page={v}",
        "/category?page={v}",
        "/educator?page={v}",
        "/newdeals?page={v}",
        "/newdeals?min_discount={v}",
        "/newdeals?max_price={v}",
        "/newdeals?store_id={v}",
        "/search?query={v}",
        "/search?query=pen&page={v}",
        `/store/${storeSlug}?min_price={v}`,
        `/category/${categorySlug}?store_id={v}`,
        `/profile/${otherUser}?page={v}`,
        "/login?social_error={v}",
        "/delete-account?social_error={v}",
        "/page/{v}",
      ];
      const memberPages = ["/user/profile?page={v}", "/payment?payment_intent={v}"];
      const visitor = new TestClient(world.t.app);
      const member = world.member.client;
      for (const [client, pages] of [
        [visitor, visitorPages],
        [member, memberPages],
      ] as const) {
        for (const page of pages) {
          for (const value of MALFORMED) {
            const url = page.replace("{v}", encodeParameter(value));
            const response = await client.request({ method: "GET", url });
            count("pages", response.statusCode, `GET ${url.slice(0, 80)}`, response.body);
          }
          // Broken percent-encoding, which no encoder produces.
          const url = page.replace("{v}", "%E0%A4%A");
          const response = await client.request({ method: "GET", url });
          count("pages", response.statusCode, `GET ${url}`, response.body);
        }
      }
      expect(faults).toEqual([]);
    },
    30 * 60_000,
  );

  it("answers the cases the issue names with a refusal, not a 500", async () => {
    const filter = await world.t.app.inject({
      method: "POST",
      url: "/api/filter",
      payload: { min_discount: 1.5 },
    });
    expect(filter.statusCode).toBe(422);
    expect(filter.json().errors.min_discount).toMatch(/whole number/);
    const search = await world.t.app.inject({
      method: "POST",
      url: "/api/filter",
      payload: { search_title: "a\u0000b" },
    });
    expect(search.statusCode).toBe(422);
    expect(search.json().errors.search_title).toMatch(/control characters/);
    for (const url of ["/store/a%00", "/post/a%00/x", "/category/a%00", "/educator/a%00/x"]) {
      expect((await world.t.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
    for (const url of ["/search?query=a%00b", "/newdeals?min_discount=1.5"]) {
      expect((await world.t.app.inject({ method: "GET", url })).statusCode, url).toBeLessThan(500);
    }
  });
});

/** A value as a URL carries it: percent-encoded UTF-8 bytes (a lone surrogate as U+FFFD). */
function encodeParameter(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return [...Buffer.from(text, "utf8")]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`,
    )
    .join("");
}
