import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Runs the numbered SQL files of db/migrations that have not run yet, each in its own transaction. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside any typed schema
export async function migrate(db: Kysely<any>): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  const done = new Set(
    (await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db)).rows.map(
      (r) => r.name,
    ),
  );
  const files = fs
    .readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
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
