import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * The first key of the advisory lock migrations hold on PostgreSQL (any fixed number no other
 * lock of the site uses). The second key is the schema's hash: schema_migrations lives in the
 * current schema, so migrations of different schemas (tests, several sites on one database)
 * do not wait for each other.
 */
export const MIGRATION_LOCK_KEY = 0x43424d47; // "CBMG"

export interface MigrateOptions {
  /**
   * PostgreSQL: hold a session-level advisory lock while reading what is applied and applying
   * the rest, so several processes starting at once on a new database apply each file once.
   * PGlite needs none: one process holds its folder (db/lock.ts).
   */
  advisoryLock?: boolean;
}

/** The names of the migrations already applied, or undefined on a database that has none yet. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside any typed schema
async function appliedMigrations(db: Kysely<any>): Promise<Set<string> | undefined> {
  const { rows } = await sql<{
    present: boolean;
  }>`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`.execute(db);
  if (!rows[0]?.present) return undefined;
  const applied = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
  return new Set(applied.rows.map((r) => r.name));
}

export function migrationFiles(): string[] {
  return fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside any typed schema
async function applyPending(db: Kysely<any>, files: string[]): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  const done = (await appliedMigrations(db)) ?? new Set<string>();
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    const text = fs.readFileSync(path.join(migrationsDir, file), "utf8");
    await db.transaction().execute(async (tx) => {
      await sql.raw(text).execute(tx);
      await sql`INSERT INTO schema_migrations (name) VALUES (${file})`.execute(tx);
    });
    applied.push(file);
  }
  return applied;
}

/**
 * Runs the numbered SQL files of db/migrations that have not run yet, each in its own transaction,
 * and answers the names it applied. When none is pending, that is two small reads and no lock: a
 * start with nothing to do takes nothing from the database. Otherwise, with `advisoryLock`, the
 * applied list is read again and the rest applied under the lock, on one connection; a process
 * that waited for it finds the work done and applies nothing.
 */
export async function migrate(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside any typed schema
  db: Kysely<any>,
  options: MigrateOptions = {},
): Promise<string[]> {
  const files = migrationFiles();
  const before = await appliedMigrations(db);
  if (before && files.every((file) => before.has(file))) return [];
  if (!options.advisoryLock) return applyPending(db, files);

  // A session-level lock belongs to a connection: lock, apply and unlock all on the same one.
  return db.connection().execute(async (connection) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY}::int, hashtext(current_schema()))`.execute(
      connection,
    );
    try {
      return await applyPending(connection, files);
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY}::int, hashtext(current_schema()))`.execute(
        connection,
      );
    }
  });
}
