import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findCardsByIdsQuery } from "../../core/cards/deal-card-query.ts";
import { relatedDealsQuery } from "../../core/cards/related-deals.ts";
import { findScopeCardsQuery } from "../../core/cards/repository.ts";
import { userDealIdsQuery } from "../../core/people/profiles/repository.ts";
import { prepared, preparedStatement } from "../../db/prepared.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

/**
 * db/prepared.ts: the hottest reads go as named prepared statements, parsed once per connection
 * (on PGlite and PostgreSQL alike); every other statement stays unnamed.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ seed: "none" });
});
afterAll(async () => {
  await t?.close();
});

/** The statements `run` left prepared on one connection (those it had before left out). */
async function preparedOnConnection(
  run: (query: (text: string, values: unknown[]) => Promise<unknown>) => Promise<void>,
) {
  const client = await t.pool.connect();
  const statements = async () =>
    (
      await client.query<{ statement: string }>("SELECT statement FROM pg_prepared_statements")
    ).rows.map((row) => row.statement);
  try {
    const before = new Set(await statements());
    await run((text, values) => client.query(text, values));
    return (await statements()).filter((statement) => !before.has(statement));
  } finally {
    client.release();
  }
}

describe("prepared statements", () => {
  it("send a marked read as one named statement however often it runs", async () => {
    const { sql } = prepared(t.deps.db.selectFrom("posts").select("id"))
      .where("id", "=", 1)
      .compile();
    const statements = await preparedOnConnection(async (query) => {
      expect(await query(sql, [1])).toMatchObject({ rows: [] });
      await query(sql, [2]);
      await query(sql, [3]);
    });
    expect(statements).toEqual([sql]);
  });

  it("send a raw statement marked at its front as one named statement", async () => {
    const { sql: text } = sql`${preparedStatement}SELECT ${1}::int AS n`.compile(t.deps.db);
    const statements = await preparedOnConnection(async (query) => {
      expect(await query(text, [1])).toMatchObject({ rows: [{ n: 1 }] });
      await query(text, [2]);
    });
    expect(statements).toEqual([text]);
  });

  it("leave unmarked statements unnamed", async () => {
    const { sql } = t.deps.db.selectFrom("posts").select("id").where("id", "=", 1).compile();
    expect(await preparedOnConnection((query) => query(sql, [1]).then(() => undefined))).toEqual(
      [],
    );
  });

  it("cover a listing's card query", () => {
    const scope = { kind: "store", storeId: 1 } as const;
    expect(findScopeCardsQuery(t.deps.db, scope, null, 15).compile().sql).toMatch(
      /^select \/\* prepared \*\/ /,
    );
  });

  it("are one text for any number of ids (the cards on screen, a member's reactions and saves)", async () => {
    const texts = [[1], [1, 2, 3]].map((ids) => findCardsByIdsQuery(t.deps.db, ids).compile().sql);
    expect(texts[0]).toMatch(/^select \/\* prepared \*\/ /);
    expect(texts[1]).toBe(texts[0]);
    const statements = await preparedOnConnection(async (query) => {
      for (const ids of [[1], [2, 3], [4, 5, 6, 7]]) {
        await query(findCardsByIdsQuery(t.deps.db, ids).compile().sql, [ids]);
      }
    });
    expect(statements).toEqual([texts[0]]);
  });

  it("cover a deal page's related deals, with the status a literal the plan can see", () => {
    const post = { id: 7, store_id: 1, category_id: 2 };
    for (const sides of [post, { ...post, store_id: null }, { ...post, category_id: null }]) {
      const { sql, parameters } = relatedDealsQuery(t.deps.db, sides, new Date(), 6)!.compile();
      expect(sql).toMatch(/^select \/\* prepared \*\/ /);
      // A plan made once for every deal reads the live indexes (WHERE status = 'active') only if
      // the value is in the text; as a parameter it walks every deal of the store.
      expect(parameters).not.toContain("active");
      expect(sql.match(/"posts"\."status" = 'active'/g)?.length).toBe(
        sql.includes(" union all ") ? 3 : 2,
      );
    }
  });

  it("cover a profile's page of deals, with status and type literals the partial index needs", async () => {
    const query = userDealIdsQuery(t.deps.db, 7, 1001, 15);
    const { sql: text, parameters } = query.compile();
    expect(text).toMatch(/^select \/\* prepared \*\/ /);
    // posts_feed_user_idx holds `WHERE status = 'active' AND post_type = 'd'`: a plan made once for
    // every member can walk it (index-only, past the pages before) only if the values are in the text.
    expect(text).toContain(`"posts"."status" = 'active'`);
    expect(text).toContain(`"posts"."post_type" = 'd'`);
    expect(parameters).toEqual([7, 15, 15_000]);
    // The planner picks that index for the statement (its values written in, for EXPLAIN).
    const withValues = text.replace(/\$(\d)/g, (_, n: string) => String(parameters[Number(n) - 1]));
    const plan = await sql<{ "QUERY PLAN": string }>`EXPLAIN ${sql.raw(withValues)}`.execute(
      t.deps.db,
    );
    expect(plan.rows.map((row) => row["QUERY PLAN"]).join("\n")).toContain("posts_feed_user_idx");
  });
});
