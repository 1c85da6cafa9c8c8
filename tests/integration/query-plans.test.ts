import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outsidePostPictures } from "../../core/media/image-link-job.ts";
import { prepared } from "../../db/prepared.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

// Record 0060, amended: on PGlite the named statements of db/prepared.ts are planned once, for any
// value of their parameters; every other query is planned for its own values, as PostgreSQL does
// by default, so that a parameter can choose a partial index.

let t: TestApp;
let schema: string;
beforeAll(async () => {
  t = await createTestApp({ seed: "none" });
  schema = t.schema ?? "public";
  await t.deps.db.connection().execute(async (db) => {
    await sql`create table planned (id int primary key, status text not null, k int not null)`.execute(
      db,
    );
    // Few active rows among many: the partial index is the way to them.
    await sql`insert into planned
      select g, case when g % 100 = 0 then 'active' else 'gone' end, g % 7
      from generate_series(1, 5000) g`.execute(db);
    await sql`create index planned_active_k on planned (k) where status = 'active'`.execute(db);
    await sql`analyze planned`.execute(db);
  });
});
afterAll(async () => {
  await t?.close();
});

/** How the table was read so far: sequential scans, and scans of its partial index. */
async function reads() {
  return t.deps.db.connection().execute(async (db) => {
    await sql`select pg_stat_force_next_flush()`.execute(db);
    const { rows } = await sql<{ seq: number; partial: number }>`
      select t.seq_scan::int as seq, i.idx_scan::int as partial
      from pg_stat_user_tables t
      join pg_stat_user_indexes i on i.relid = t.relid and i.indexrelname = 'planned_active_k'
      where t.schemaname = ${schema} and t.relname = 'planned'`.execute(db);
    return rows[0]!;
  });
}

describe("query plans", () => {
  it("a query whose parameter matches a partial index's predicate reads it through that index", async () => {
    const before = await reads();
    for (let i = 0; i < 3; i++) {
      // Through the pool with its parameters, as every query of the site goes.
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from planned where status = ${"active"} and k = ${3}`.execute(
        t.deps.db,
      );
      expect(rows[0]!.n).toBe(7);
    }
    const after = await reads();
    expect(after.partial - before.partial).toBe(3);
    expect(after.seq - before.seq).toBe(0);
  });

  // PostgreSQL keeps its default plan choice for them (record 0060).
  it.skipIf(Boolean(process.env.DATABASE_URL))(
    "a statement db/prepared.ts names is planned once, for any value, on PGlite",
    async () => {
      const named = () =>
        prepared(t.deps.db.selectFrom("stores").select("id")).where("id", "=", 1).execute();
      for (let i = 0; i < 3; i++) await named();
      const { rows } = await sql<{ generic: number; custom: number }>`
        select generic_plans::int as generic, custom_plans::int as custom
        from pg_prepared_statements where statement like ${"%prepared%stores%"}`.execute(t.deps.db);
      expect(rows).toEqual([{ generic: 3, custom: 0 }]);
    },
  );
});

describe("the picture-copy job's query", () => {
  let site: TestApp;
  beforeAll(async () => {
    site = await createTestApp({ seed: "small" });
  });
  afterAll(async () => {
    await site?.close();
  });

  it("finds posts with outside pictures through their index, not a walk over every post", async () => {
    const siteSchema = site.schema ?? "public";
    const stats = () =>
      site.deps.db.connection().execute(async (db) => {
        await sql`select pg_stat_force_next_flush()`.execute(db);
        const { rows } = await sql<{ seq: number; outside: number }>`
          select t.seq_scan::int as seq, i.idx_scan::int as outside
          from pg_stat_user_tables t
          join pg_stat_user_indexes i
            on i.relid = t.relid and i.indexrelname = 'posts_outside_picture_idx'
          where t.schemaname = ${siteSchema} and t.relname = 'posts'`.execute(db);
        return rows[0]!;
      });
    await sql`analyze posts`.execute(site.deps.db);
    const before = await stats();
    expect(await outsidePostPictures(site.deps.db, 0, 20)).toEqual([]);
    const after = await stats();
    expect(after.outside - before.outside).toBe(1);
    expect(after.seq - before.seq).toBe(0);
  });
});
