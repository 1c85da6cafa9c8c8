import type { Db } from "../../db/index.ts";
import { defineJob } from "./job.ts";
import * as repo from "./repository.ts";
import type { TableActivity } from "./repository.ts";

/**
 * Every ten minutes, where nothing else vacuums the site's tables (docs/decisions/0062): PGlite
 * runs no autovacuum, nor does a PostgreSQL whose autovacuum is off. Without it a table that is
 * updated keeps every old row version: it and its indexes grow, scans read the dead rows, and
 * index-only scans read the table too; and the planner never learns how the tables have grown.
 */
export const vacuumJob = defineJob<Record<string, never>>({
  name: "database.vacuum",
  cron: "*/10 * * * *",
  // The next run, ten minutes on, is the retry.
  retryLimit: 0,
  timeoutSeconds: 30 * 60,
  keepSeconds: 6 * 3600,
});

export interface Upkeep {
  vacuum: boolean;
  analyze: boolean;
}

/**
 * PostgreSQL's own autovacuum thresholds, at their defaults: a table is vacuumed when its dead
 * rows pass 50 + 20% of its rows, or its rows inserted since the last vacuum pass 1,000 + 20%
 * (which marks them all-visible for index-only scans), and analysed when its changed rows pass
 * 50 + 10%. A table with rows that was not vacuumed since the statistics began is vacuumed once:
 * PGlite forgets its counts on a restart, and the dead rows counted before it would never be.
 * Null when nothing is due.
 */
export function upkeepDue(table: TableActivity): Upkeep | null {
  const vacuum =
    (table.stored && !table.vacuumed) ||
    table.deadRows > 50 + 0.2 * table.rows ||
    table.insertedSinceVacuum > 1000 + 0.2 * table.rows;
  const analyze = table.changedSinceAnalyze > 50 + 0.1 * table.rows;
  return vacuum || analyze ? { vacuum, analyze } : null;
}

export interface TidiedTable extends Upkeep {
  table: string;
  ms: number;
}

/**
 * Vacuums or analyses (or both) each table of `schemas` that is due, smallest first, one
 * statement each: on PGlite every request waits while one runs, so none is longer than its table
 * needs.
 */
export async function tidyTablesDue(
  db: Db,
  schemas: string[],
  clock: () => number = performance.now.bind(performance),
): Promise<TidiedTable[]> {
  const tidied: TidiedTable[] = [];
  for (const table of await repo.tableActivity(db, schemas)) {
    const work = upkeepDue(table);
    if (!work) continue;
    const started = clock();
    if (await repo.tidyTable(db, table, work)) {
      tidied.push({ table: `${table.schema}.${table.table}`, ...work, ms: clock() - started });
    }
  }
  return tidied;
}

export interface VacuumDeps {
  db: Db;
  /**
   * The job queue's schema. With the search path's schemas, it holds the site's own tables; the
   * other schemas of the database are left alone.
   */
  jobsSchema: string;
  log: { info(msg: string): void };
}

export function vacuumWhereNoAutovacuum(deps: VacuumDeps) {
  return async () => {
    if (await repo.autovacuumIsRunning(deps.db)) return;
    const schemas = new Set([...(await repo.searchPathSchemas(deps.db)), deps.jobsSchema]);
    const tidied = await tidyTablesDue(deps.db, [...schemas]);
    if (!tidied.length) return;
    const done = tidied.map(({ table, vacuum, analyze, ms }) => {
      const what = [vacuum && "vacuumed", analyze && "analysed"].filter(Boolean).join(" and ");
      return `${table} (${what}, ${Math.round(ms)} ms)`;
    });
    deps.log.info(`database upkeep: ${done.join(", ")}`);
  };
}
