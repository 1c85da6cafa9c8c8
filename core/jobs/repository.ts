import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";

/** Deletes sessions that expired before `before`; they can never be used again. */
export async function deleteExpiredSessions(db: DbOrTx, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("sessions")
    .where("expires_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes mailed-link codes (used or not) that expired before `before`. */
export async function deleteExpiredEmailTokens(db: DbOrTx, before: Date): Promise<number> {
  const result = await db
    .deleteFrom("email_tokens")
    .where("expires_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** What the statistics say about one table: its size and the changes since it was last tidied. */
export interface TableActivity {
  schema: string;
  table: string;
  /** The planner's row estimate (pg_class.reltuples; 0 for a table never vacuumed nor analysed). */
  rows: number;
  /** Whether the table has any pages on disk. */
  stored: boolean;
  /**
   * Whether it was vacuumed since the statistics began: PGlite forgets them when it is closed, so
   * after a restart the counts below start again from nothing.
   */
  vacuumed: boolean;
  deadRows: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
}

/**
 * Whether the database vacuums by itself: an autovacuum launcher is running. PGlite has none
 * (one backend, no background workers), nor has a PostgreSQL whose autovacuum is off.
 */
export async function autovacuumIsRunning(db: DbOrTx): Promise<boolean> {
  const { rows } = await sql<{ running: boolean }>`
    select exists (
      select 1 from pg_stat_activity where backend_type = 'autovacuum launcher'
    ) as running`.execute(db);
  return rows[0]?.running ?? false;
}

/** The schemas of the search path that exist: where the site's tables are. */
export async function searchPathSchemas(db: DbOrTx): Promise<string[]> {
  const { rows } = await sql<{ schemas: string[] }>`
    select current_schemas(false)::text[] as schemas`.execute(db);
  return rows[0]?.schemas ?? [];
}

/**
 * The tables of `schemas` with their activity. A backend sends its counts to the shared statistics
 * only now and then (PGlite's only backend, never on its own), so this backend's are sent first.
 */
export async function tableActivity(db: DbOrTx, schemas: string[]): Promise<TableActivity[]> {
  const { rows: version } = await sql<{ num: number }>`
    select current_setting('server_version_num')::int as num`.execute(db);
  // pg_stat_force_next_flush is PostgreSQL 15's; before it the statistics collector had them.
  if ((version[0]?.num ?? 0) >= 150000) await sql`select pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<TableActivity>`
    select s.schemaname as schema, s.relname as "table",
      greatest(c.reltuples, 0)::float8 as rows,
      pg_relation_size(c.oid) > 0 as stored,
      (s.last_vacuum is not null or s.last_autovacuum is not null) as vacuumed,
      s.n_dead_tup::float8 as "deadRows",
      s.n_ins_since_vacuum::float8 as "insertedSinceVacuum",
      s.n_mod_since_analyze::float8 as "changedSinceAnalyze"
    from pg_stat_user_tables s
    join pg_class c on c.oid = s.relid
    where s.schemaname = any(${schemas}::text[]) and c.relkind = 'r'
    order by c.relpages, s.relname`.execute(db);
  return rows;
}

/** VACUUM, ANALYZE or both, of one table; false when it no longer exists. */
export async function tidyTable(
  db: DbOrTx,
  table: { schema: string; table: string },
  work: { vacuum: boolean; analyze: boolean },
): Promise<boolean> {
  const name = sql.id(table.schema, table.table);
  const statement = !work.vacuum
    ? sql`analyze ${name}`
    : work.analyze
      ? sql`vacuum (analyze) ${name}`
      : sql`vacuum ${name}`;
  try {
    await statement.execute(db);
    return true;
  } catch (error) {
    // Dropped since it was listed (undefined_table): nothing left to tidy.
    if ((error as { code?: string }).code === "42P01") return false;
    throw error;
  }
}
