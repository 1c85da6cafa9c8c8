import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { withPgClient } from "../tests/helpers/pg-client.ts";
import { createDb, type DbHandle } from "./index.ts";
import {
  MigrationFailedError,
  NO_TRANSACTION_MARKER,
  SchemaNewerThanBuildError,
  migrate,
  migrationFiles,
} from "./migrate.ts";

/**
 * The migration runner on the engine of the run: PGlite, or PostgreSQL when DATABASE_URL is set
 * (each test on a schema of its own). Files that run outside a transaction go step by step and
 * resume after a failure; every statement runs under a lock_timeout; the listings' counts of
 * migrations 022 and 027 are counted in batches while posts change; a database that has applied a
 * migration this build lacks is refused (docs/decisions/0097-safe-upgrades.md).
 */

const databaseUrl = process.env.DATABASE_URL;
const handles: DbHandle[] = [];
const schemas: string[] = [];
const folders: string[] = [];

afterAll(async () => {
  await Promise.all(handles.map((handle) => handle.close()));
  if (databaseUrl && schemas.length) {
    await withPgClient(databaseUrl, async (client) => {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
  }
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

/** An empty database, not migrated. */
async function emptyDatabase(): Promise<DbHandle> {
  let handle: DbHandle;
  if (databaseUrl) {
    const schema = `migrate_online_${randomBytes(5).toString("hex")}`;
    schemas.push(schema);
    handle = await createDb({ databaseUrl, schema, migrate: false });
  } else {
    handle = await createDb({ databaseUrl: "memory://", migrate: false });
  }
  handles.push(handle);
  return handle;
}

/** A folder of migration files, each given as [name, text]. */
function migrationsFolder(files: [string, string][]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "migrations-"));
  folders.push(dir);
  for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** The project's own migrations up to `last`, in a folder of their own. */
function migrationsUpTo(last: string): string {
  return migrationsFolder(
    migrationFiles()
      .filter((file) => file.name <= last)
      .map((file) => [file.name, file.text]),
  );
}

async function scopeCounts(handle: DbHandle): Promise<Record<string, number>> {
  const { rows } = await sql<{ scope: string; total: number }>`
    SELECT scope, total FROM post_scope_counts WHERE total <> 0 ORDER BY scope`.execute(handle.db);
  return Object.fromEntries(rows.map((r) => [r.scope, Number(r.total)]));
}

describe("migrations that run outside a transaction", () => {
  it("go on from the step that failed, and rebuild an index a failed concurrent build left invalid", async () => {
    const handle = await emptyDatabase();
    const dir = migrationsFolder([
      [
        "001_things.sql",
        "CREATE TABLE things (id int PRIMARY KEY, v int);\nINSERT INTO things VALUES (1, 1), (2, 1);\n",
      ],
      [
        "002_unique_things.sql",
        `${NO_TRANSACTION_MARKER}\nCREATE TABLE other_things (id int);\n` +
          "CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS things_v_idx ON things (v);\n" +
          "INSERT INTO other_things VALUES (1);\n",
      ],
    ]);

    const failed = await migrate(handle.db, { dir }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(MigrationFailedError);
    expect((failed as Error).message).toMatch(/^Migration 002_unique_things\.sql failed: /);
    expect((failed as Error).message).not.toContain("\n");
    const left = await sql<{ valid: boolean | null }>`
      SELECT (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass('things_v_idx')) AS valid`.execute(
      handle.db,
    );
    // PostgreSQL leaves the failed build behind, INVALID; either way it is no usable index.
    expect(left.rows[0]!.valid).not.toBe(true);

    await sql`DELETE FROM things WHERE id = 2`.execute(handle.db);
    // The first step (CREATE TABLE, which would fail if run again) is not run again.
    expect(await migrate(handle.db, { dir })).toEqual(["002_unique_things.sql"]);
    const index = await sql<{ valid: boolean }>`
      SELECT indisvalid AS valid FROM pg_index WHERE indexrelid = to_regclass('things_v_idx')`.execute(
      handle.db,
    );
    expect(index.rows).toEqual([{ valid: true }]);
    const rows = await sql<{ id: number }>`SELECT id FROM other_things`.execute(handle.db);
    expect(rows.rows).toEqual([{ id: 1 }]);
    const steps = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM schema_migration_steps`.execute(handle.db);
    expect(steps.rows[0]!.n).toBe(0);
  }, 180_000);

  it("run every statement under a lock_timeout, and leave the connection without it", async () => {
    const handle = await emptyDatabase();
    const dir = migrationsFolder([
      ["001_seen.sql", "CREATE TABLE seen AS SELECT current_setting('lock_timeout') AS value;\n"],
      [
        "002_seen_alone.sql",
        `${NO_TRANSACTION_MARKER}\nINSERT INTO seen SELECT current_setting('lock_timeout');\n` +
          "CREATE INDEX CONCURRENTLY IF NOT EXISTS seen_value_idx ON seen (value);\n",
      ],
    ]);
    await migrate(handle.db, { dir });
    const seen = await sql<{ value: string }>`SELECT value FROM seen`.execute(handle.db);
    expect(seen.rows).toEqual([{ value: "5s" }, { value: "5s" }]);
    if (!databaseUrl) {
      // PGlite is one session: what the migrations set is what the site's queries would meet.
      const after = await sql<{
        value: string;
      }>`SELECT current_setting('lock_timeout') AS value`.execute(handle.db);
      expect(after.rows).toEqual([{ value: "0" }]);
    }
  }, 180_000);
});

describe.skipIf(!databaseUrl)("a step that loses a deadlock to the site's writes", () => {
  it("is run again, and the migration goes through", async () => {
    const handle = await emptyDatabase();
    const tables: [string, string] = [
      "001_tables.sql",
      "CREATE TABLE parents (id int);\nCREATE TABLE children (id int);\n",
    ];
    await migrate(handle.db, { dir: migrationsFolder([tables]) });
    // Takes children, then parents: the order migration 037 takes likes and posts in.
    const dir = migrationsFolder([
      tables,
      [
        "002_columns.sql",
        "ALTER TABLE children ADD COLUMN weight int;\nALTER TABLE parents ADD COLUMN bonus int;\n",
      ],
    ]);

    // A site's write: holds parents, then needs children (as deleting a post cascades to likes).
    let migrationWaits!: () => void;
    const waiting = new Promise<void>((resolve) => (migrationWaits = resolve));
    const write = handle.db.transaction().execute(async (tx) => {
      // The migration's session, not this one, is the one PostgreSQL ends (after its 1 s default).
      await sql`SET LOCAL deadlock_timeout = '20s'`.execute(tx);
      await sql`INSERT INTO parents VALUES (1)`.execute(tx);
      await waiting;
      await sql`INSERT INTO children VALUES (1)`.execute(tx);
    });
    const migrating = migrate(handle.db, { dir });
    for (;;) {
      const { rows } = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_locks
         WHERE NOT granted AND relation = to_regclass('parents')`.execute(handle.db);
      if (rows[0]!.n > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    migrationWaits();

    await write;
    expect(await migrating).toEqual(["002_columns.sql"]);
    const columns = await sql<{ name: string }>`
      SELECT table_name || '.' || column_name AS name FROM information_schema.columns
       WHERE table_schema = current_schema() AND column_name IN ('weight', 'bonus')
       ORDER BY 1`.execute(handle.db);
    expect(columns.rows.map((r) => r.name)).toEqual(["children.weight", "parents.bonus"]);
    const written = await sql<{ n: number }>`
      SELECT (SELECT count(*) FROM parents)::int + (SELECT count(*) FROM children)::int AS n`.execute(
      handle.db,
    );
    expect(written.rows[0]!.n).toBe(2);
  }, 60_000);
});

describe("a database newer than the build", () => {
  it("is refused with one line naming the migration, before anything is applied", async () => {
    const handle = await emptyDatabase();
    const dir = migrationsFolder([["001_things.sql", "CREATE TABLE things (id int);\n"]]);
    await migrate(handle.db, { dir });
    await sql`INSERT INTO schema_migrations (name) VALUES ('002_from_a_newer_build.sql')`.execute(
      handle.db,
    );
    fs.writeFileSync(path.join(dir, "001_more_things.sql"), "CREATE TABLE more_things (id int);\n");

    const refused = await migrate(handle.db, { dir }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SchemaNewerThanBuildError);
    const message = (refused as Error).message;
    expect(message).not.toContain("\n");
    expect(message).toContain("002_from_a_newer_build.sql");
    expect(message).toContain("older than the database");
    const pending = await sql<{ present: boolean }>`
      SELECT to_regclass('more_things') IS NOT NULL AS present`.execute(handle.db);
    expect(pending.rows[0]!.present).toBe(false);
  }, 180_000);
});

describe("the listings' counts of migrations 022 and 027", () => {
  it("are counted in batches while posts are added, changed and deleted, as exact as a recount", async () => {
    const handle = await emptyDatabase();
    await migrate(handle.db, { dir: migrationsUpTo("021_verified_educators.sql") });
    await sql`
      INSERT INTO users (name, email) SELECT 'member ' || g, 'm' || g || '@example.com'
        FROM generate_series(1, 5) AS g`.execute(handle.db);
    await sql`
      INSERT INTO stores (title, slug) SELECT 'store ' || g, 'store-' || g
        FROM generate_series(1, 3) AS g`.execute(handle.db);
    // 25,000 posts: three batches of the backfill, with every status, type and kind.
    await sql`
      INSERT INTO posts (unique_id, slug, post_type, kind, title, status, user_id, store_id, expired)
      SELECT 'u' || g, 's' || g,
             CASE WHEN g % 7 = 0 THEN 'g' ELSE 'd' END,
             CASE WHEN g % 7 = 0 THEN 'discussion' WHEN g % 5 = 0 THEN 'coupon' ELSE 'deal' END,
             'post ' || g,
             CASE WHEN g % 11 = 0 THEN 'pending' WHEN g % 13 = 0 THEN 'removed' ELSE 'active' END,
             (SELECT min(id) FROM users) + g % 5,
             CASE WHEN g % 7 = 0 THEN NULL ELSE (SELECT min(id) FROM stores) + g % 3 END,
             g % 3 = 0
        FROM generate_series(1, 25000) AS g`.execute(handle.db);

    // On PostgreSQL, writes to posts all along the migrations, spread over the whole range of ids.
    // PGlite is one connection, which the migrations hold: its server migrates before it serves.
    let migrating = true;
    let writes = 0;
    const writer = (async () => {
      if (!databaseUrl) return;
      for (let round = 0; migrating || round < 3; round++) {
        const pick = 1 + ((round * 7919) % 25000);
        await sql`UPDATE posts SET status = CASE status WHEN 'active' THEN 'pending' ELSE 'active' END
                   WHERE unique_id = ${`u${pick}`}`.execute(handle.db);
        await sql`UPDATE posts SET expired = NOT expired, kind = CASE WHEN kind = 'deal' THEN 'coupon' ELSE kind END
                   WHERE unique_id = ${`u${1 + ((pick * 31) % 25000)}`}`.execute(handle.db);
        await sql`DELETE FROM posts WHERE unique_id = ${`u${1 + ((pick * 17) % 25000)}`}`.execute(
          handle.db,
        );
        await sql`INSERT INTO posts (unique_id, slug, post_type, kind, title, user_id)
                  SELECT ${`new${round}`}, 'n', 'd', 'deal', 'new', min(id) FROM users`.execute(
          handle.db,
        );
        writes++;
      }
    })();
    try {
      await migrate(handle.db, { advisoryLock: !!databaseUrl });
    } finally {
      migrating = false;
      await writer;
    }
    if (databaseUrl) expect(writes).toBeGreaterThan(0);

    const kept = await scopeCounts(handle);
    await sql`SELECT refresh_post_scope_counts()`.execute(handle.db);
    const recounted = await scopeCounts(handle);
    expect(kept).toEqual(recounted);
    expect(recounted["type:d"]).toBeGreaterThan(15_000);
    expect(Object.keys(recounted).some((key) => key.startsWith("user:"))).toBe(true);

    const leftover = await sql<{ rows: number; counted: boolean }>`
      SELECT (SELECT count(*)::int FROM post_scope_counts_backfill) AS rows,
             post_scope_counted(1) AS counted`.execute(handle.db);
    expect(leftover.rows).toEqual([{ rows: 0, counted: true }]);
  }, 240_000);
});
