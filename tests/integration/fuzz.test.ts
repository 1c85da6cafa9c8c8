import { describe, expect, it } from "vitest";
import { Random } from "../../db/demo/random.ts";
import {
  FuzzTally,
  MALFORMED,
  encodeParameter,
  fuzzWorld,
  oneOfEachKind,
  withinBudget,
  type FuzzCase,
} from "../helpers/fuzz.ts";
import { TestClient } from "../helpers/session.ts";

/**
 * Malformed input at every page door: each parameter of every page that has one, replaced by
 * values no form would send (tests/helpers/fuzz.ts). No answer may be a 5xx other than an intended
 * 503. The /api calls are fuzzed in fuzz-api-1.test.ts and fuzz-api-2.test.ts. The figures
 * (requests, answers per status) are printed at the end.
 * Needs the production build (`npm run build`) for the pages.
 */

/**
 * Requests of the pages' pass: every parameter gets a value of every kind and broken
 * percent-encoding; the rest is a seeded sample of every parameter × every value (withinBudget).
 */
const PAGE_FUZZ_BUDGET = 500;

/** Percent-encoding no encoder produces. */
const BROKEN_ENCODING = "%E0%A4%A";

const tally = new FuzzTally("pages");
const world = fuzzWorld(tally, "fuzz");

describe("malformed input", () => {
  it(
    "never breaks a page: every path and query parameter",
    async () => {
      const { deal, storeSlug, categorySlug, otherUser } = world().ids;
      const discussion = await world()
        .t.deps.db.selectFrom("posts")
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
      const visitor = new TestClient(world().t.app);
      const member = world().member.client;
      const all: FuzzCase<TestClient>[] = [];
      const required = new Set<FuzzCase<TestClient>>();
      const random = new Random("fuzz pages required");
      for (const [client, pages] of [
        [visitor, visitorPages],
        [member, memberPages],
      ] as const) {
        for (const page of pages) {
          const cases = MALFORMED.map((value) => ({ where: client, target: page, value }));
          const broken = { where: client, target: page, value: BROKEN_ENCODING };
          all.push(...cases, broken);
          for (const c of [...oneOfEachKind(cases, random), broken]) required.add(c);
        }
      }
      for (const { where: client, target: page, value } of withinBudget(
        all,
        required,
        PAGE_FUZZ_BUDGET,
        "pages",
      )) {
        const url = page.replace(
          "{v}",
          value === BROKEN_ENCODING ? BROKEN_ENCODING : encodeParameter(value),
        );
        const response = await client.request({ method: "GET", url });
        tally.count(response.statusCode, `GET ${url.slice(0, 80)}`, response.body);
      }
      expect(tally.faults).toEqual([]);
    },
    30 * 60_000,
  );

  it("answers the cases the issue names with a refusal, not a 500", async () => {
    const filter = await world().t.app.inject({
      method: "POST",
      url: "/api/filter",
      payload: { min_discount: 1.5 },
    });
    expect(filter.statusCode).toBe(422);
    expect(filter.json().errors.min_discount).toMatch(/whole number/);
    const search = await world().t.app.inject({
      method: "POST",
      url: "/api/filter",
      payload: { search_title: "a\u0000b" },
    });
    expect(search.statusCode).toBe(422);
    expect(search.json().errors.search_title).toMatch(/control characters/);
    for (const url of ["/store/a%00", "/post/a%00/x", "/category/a%00", "/educator/a%00/x"]) {
      expect((await world().t.app.inject({ method: "GET", url })).statusCode, url).toBe(404);
    }
    for (const url of ["/search?query=a%00b", "/newdeals?min_discount=1.5"]) {
      expect((await world().t.app.inject({ method: "GET", url })).statusCode, url).toBeLessThan(
        500,
      );
    }
  });
});
