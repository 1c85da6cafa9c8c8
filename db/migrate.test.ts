import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { withPgClient } from "../tests/helpers/pg-client.ts";
import { createDb } from "./index.ts";
import { MIGRATION_LOCK_KEY, migrate } from "./migrate.ts";

const databaseUrl = process.env.DATABASE_URL;
const migrationCount = fs
  .readdirSync(path.join(import.meta.dirname, "migrations"))
  .filter((f) => /^\d{3}_.+\.sql$/.test(f)).length;

describe.skipIf(!databaseUrl)("migrate on PostgreSQL", () => {
  const schema = `migrate_${randomBytes(5).toString("hex")}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is being built
  const opened: Kysely<any>[] = [];

  const admin = <T>(work: (client: pg.Client) => Promise<T>) => withPgClient(databaseUrl!, work);

  /** One server process's pool on the test schema: each call is another "machine". */
  function openMachine() {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is being built
    const db = new Kysely<any>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({
          connectionString: databaseUrl,
          max: 3,
          options: `-c search_path="${schema}",public`,
        }),
      }),
    });
    opened.push(db);
    return db;
  }

  afterAll(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
    await admin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
  });

  it("applies each migration once when several processes start at once on a new schema", async () => {
    await admin(async (client) => {
      await client.query("CREATE EXTENSION IF NOT EXISTS pg_trgm");
      await client.query(`CREATE SCHEMA "${schema}"`);
    });
    const machines = [openMachine(), openMachine(), openMachine()];

    const outcomes = await Promise.allSettled(
      machines.map((db) => migrate(db, { advisoryLock: true })),
    );
    expect(outcomes.filter((o) => o.status === "rejected")).toEqual([]);
    const results = outcomes.map((o) => (o.status === "fulfilled" ? o.value : []));

    const appliedByAll = results.flat();
    expect(appliedByAll).toHaveLength(migrationCount);
    expect(new Set(appliedByAll).size).toBe(migrationCount);
    const { rows } = await sql<{
      name: string;
    }>`SELECT name FROM schema_migrations ORDER BY name`.execute(machines[0]!);
    expect(rows.map((r) => r.name)).toEqual([...appliedByAll].sort());

    // The lock was released: no advisory lock of this schema's migrations is held any more. Other
    // test files migrating their own schemas at the same moment hold theirs (objid: the schema's
    // hash), which once made a cluster-wide count fail.
    const held = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM pg_locks
      WHERE locktype = 'advisory' AND classid = ${MIGRATION_LOCK_KEY}::oid
        AND objid = hashtext(current_schema())::oid`.execute(machines[0]!);
    expect(held.rows[0]!.count).toBe(0);
  }, 120_000);

  it("applies nothing, and takes no lock, when nothing is pending", async () => {
    const db = openMachine();
    const blocker = new pg.Client({
      connectionString: databaseUrl,
      options: `-c search_path="${schema}",public`,
    });
    await blocker.connect();
    try {
      // Another session holds this schema's migration lock: a start with nothing pending must not
      // wait for it.
      await blocker.query("SELECT pg_advisory_lock($1::int, hashtext(current_schema()))", [
        MIGRATION_LOCK_KEY,
      ]);
      expect(await migrate(db, { advisoryLock: true })).toEqual([]);
    } finally {
      await blocker.end();
    }
  }, 30_000);

  it("migrates a new schema beside a migrated public, whose tables its search_path also finds", async () => {
    // A database of its own, so that its public schema can be migrated without touching the
    // test database's.
    const name = `migrate_public_${randomBytes(5).toString("hex")}`;
    await admin((client) => client.query(`CREATE DATABASE "${name}"`));
    const url = new URL(databaseUrl!);
    url.pathname = `/${name}`;
    try {
      const inPublic = await createDb({ databaseUrl: url.toString() });
      await inPublic.close();
      const own = await createDb({ databaseUrl: url.toString(), schema: "beside_public" });
      await own.close();
      const tables = await withPgClient(url.toString(), async (client) => {
        const { rows } = await client.query<{ schema: string; count: string }>(
          `SELECT table_schema AS schema, count(*) AS count FROM information_schema.tables
            WHERE table_name IN ('schema_migrations', 'posts', 'users') GROUP BY table_schema`,
        );
        return Object.fromEntries(rows.map((r) => [r.schema, Number(r.count)]));
      });
      expect(tables).toEqual({ public: 3, beside_public: 3 });
    } finally {
      await admin((client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
    }
  }, 120_000);
});
