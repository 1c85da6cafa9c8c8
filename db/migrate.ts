import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

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

/**
 * Runs the numbered SQL files of db/migrations that have not run yet, each in its own transaction.
 * When none is pending, that is one read: a start with nothing to do takes nothing from the database.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside any typed schema
export async function migrate(db: Kysely<any>): Promise<string[]> {
  const files = fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
  const before = await appliedMigrations(db);
  if (before && files.every((file) => before.has(file))) return [];

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
