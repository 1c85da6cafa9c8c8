import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as repo from "../../core/jobs/repository.ts";
import { tidyTablesDue, upkeepDue, vacuumJob } from "../../core/jobs/vacuum.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobs } from "../helpers/jobs.ts";

// Record 0062: where nothing vacuums the site's tables (PGlite; a PostgreSQL with autovacuum off),
// the database.vacuum job tidies those that are due, by autovacuum's own thresholds.

describe("which tables are due", () => {
  const quiet = {
    schema: "public",
    table: "t",
    rows: 1000,
    stored: true,
    vacuumed: true,
    deadRows: 0,
    insertedSinceVacuum: 0,
    changedSinceAnalyze: 0,
  };
  const vacuum = { vacuum: true, analyze: false };

  it("vacuums past 50 + 20% dead rows, or 1,000 + 20% rows inserted since the last vacuum", () => {
    expect(upkeepDue({ ...quiet, deadRows: 250 })).toBeNull();
    expect(upkeepDue({ ...quiet, deadRows: 251 })).toEqual(vacuum);
    expect(upkeepDue({ ...quiet, rows: 10_000, insertedSinceVacuum: 3000 })).toBeNull();
    expect(upkeepDue({ ...quiet, rows: 10_000, insertedSinceVacuum: 3001 })).toEqual(vacuum);
  });

  it("analyses past 50 + 10% changed rows, apart from vacuuming or with it", () => {
    expect(upkeepDue({ ...quiet, changedSinceAnalyze: 150 })).toBeNull();
    expect(upkeepDue({ ...quiet, changedSinceAnalyze: 151 })).toEqual({
      vacuum: false,
      analyze: true,
    });
    expect(upkeepDue({ ...quiet, deadRows: 300, changedSinceAnalyze: 300 })).toEqual({
      vacuum: true,
      analyze: true,
    });
  });

  it("vacuums once a stored table not vacuumed since the statistics began (a restart of PGlite)", () => {
    expect(upkeepDue({ ...quiet, vacuumed: false })).toEqual(vacuum);
    expect(upkeepDue({ ...quiet, rows: 0, stored: false, vacuumed: false })).toBeNull();
    expect(upkeepDue(quiet)).toBeNull();
  });
});

describe("tidying the site's tables", () => {
  let t: TestApp;
  let schema: string;
  const lines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      seed: "none",
      jobs: true,
      env: { LOG_LEVEL: "info" },
      logStream: { write: (line) => void lines.push(line) },
    });
    schema = t.schema ?? "public";
  });
  afterAll(async () => {
    await t?.close();
  });

  /**
   * Runs statements on one connection, which then sends its statistics (a PostgreSQL backend sends
   * them only now and then, PGlite's never on its own).
   */
  async function onOneConnection(statements: ReturnType<typeof sql>[]) {
    await t.deps.db.connection().execute(async (db) => {
      for (const statement of statements) await statement.execute(db);
      await sql`select pg_stat_force_next_flush()`.execute(db);
    });
    if (t.schema) await untilNoOlderSnapshot();
  }

  /**
   * On a shared PostgreSQL server another test file's transaction may still see the rows these
   * statements left dead, and a vacuum keeps what any transaction can see (PGlite has one session).
   * Waits until every transaction begun before now has ended.
   */
  async function untilNoOlderSnapshot() {
    const { rows } = await sql<{ next: string }>`
      select (pg_snapshot_xmax(pg_current_snapshot())::text::bigint % 4294967296)::text as next`.execute(
      t.deps.db,
    );
    const next = Number(rows[0]?.next);
    await expect
      .poll(
        async () => {
          const { rows: older } = await sql<{ pid: number }>`
            select pid from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid()
              and (backend_xmin::text::bigint < ${next} or backend_xid::text::bigint < ${next})`.execute(
            t.deps.db,
          );
          return older.length;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe(0);
  }
  const create = (table: string, rows: number) => [
    sql`create table ${sql.id(table)} (id int primary key, n int not null)`,
    ...(rows
      ? [sql`insert into ${sql.id(table)} select g, 0 from generate_series(1, ${rows}::int) g`]
      : []),
  ];
  const update = (table: string, times: number) =>
    Array.from({ length: times }, () => sql`update ${sql.id(table)} set n = n + 1`);

  async function stats(table: string) {
    const { rows } = await sql<{ vacuums: number; analyses: number; dead: number }>`
      select (vacuum_count + autovacuum_count)::int as vacuums,
        (analyze_count + autoanalyze_count)::int as analyses, n_dead_tup::int as dead
      from pg_stat_user_tables where schemaname = ${schema} and relname = ${table}`.execute(
      t.deps.db,
    );
    return rows[0];
  }

  const TABLES = ["churned", "grown", "quiet", "empty"];
  /** What tidyTablesDue did to this test's tables, by table name. */
  async function tidyOurs() {
    const tidied = await tidyTablesDue(t.deps.db, [schema]);
    return Object.fromEntries(
      tidied
        .filter(({ table }) => TABLES.some((name) => table === `${schema}.${name}`))
        .map(({ table, vacuum, analyze }) => [table.slice(schema.length + 1), { vacuum, analyze }]),
    );
  }

  it("runs as a job where no autovacuum runs, naming what it did in the log", async () => {
    await onOneConnection([...create("for_job", 100), ...update("for_job", 3)]);
    const autovacuum = await repo.autovacuumIsRunning(t.deps.db);
    await t.jobs.send(vacuumJob, {});
    await waitForJobs(t.jobs, { kind: vacuumJob });

    const upkeep = lines.filter((line) => line.includes("database upkeep:")).join("\n");
    if (autovacuum) {
      // A PostgreSQL that vacuums by itself is left to do it.
      expect(await stats("for_job")).toMatchObject({ vacuums: 0 });
      expect(upkeep).toBe("");
    } else {
      expect(await stats("for_job")).toMatchObject({ vacuums: 1, dead: 0 });
      expect(upkeep).toContain(`${schema}.for_job (vacuumed and analysed, `);
    }
    // The tests below run tidyTablesDue themselves: the cron's job would race them.
    await t.jobs.work(vacuumJob, async () => {});
  });

  it("vacuums each table with rows once, then those past the thresholds", async () => {
    await onOneConnection([
      ...create("churned", 100),
      ...update("churned", 3), // 300 dead rows, 400 changed
      ...create("grown", 200),
      ...create("quiet", 10),
      ...create("empty", 0),
    ]);
    expect(await tidyOurs()).toEqual({
      churned: { vacuum: true, analyze: true },
      grown: { vacuum: true, analyze: true },
      quiet: { vacuum: true, analyze: false },
    });
    expect(await stats("churned")).toMatchObject({ vacuums: 1, analyses: 1, dead: 0 });
    expect(await stats("quiet")).toMatchObject({ vacuums: 1, analyses: 0 });
    expect(await stats("empty")).toMatchObject({ vacuums: 0, analyses: 0 });
    // Tidied, they are no longer due.
    expect(await tidyOurs()).toEqual({});

    await onOneConnection([
      ...update("churned", 3), // 300 dead rows of 100: past 50 + 20
      sql`insert into grown select g, 0 from generate_series(201, 300) g`, // 100 changed: past 50 + 20
      sql`update quiet set n = 1 where id <= 5`, // 5 dead, 5 changed: below both
    ]);
    expect(await tidyOurs()).toEqual({
      churned: { vacuum: true, analyze: true },
      grown: { vacuum: false, analyze: true },
    });
    expect(await stats("churned")).toMatchObject({ vacuums: 2, analyses: 2, dead: 0 });
    expect(await stats("grown")).toMatchObject({ vacuums: 1, analyses: 2 });
  });

  it("leaves other schemas alone", async () => {
    await onOneConnection([...create("elsewhere", 100), ...update("elsewhere", 3)]);
    expect(await tidyTablesDue(t.deps.db, ["no_such_schema"])).toEqual([]);
    expect(await stats("elsewhere")).toMatchObject({ vacuums: 0 });
  });
});
