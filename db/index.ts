import fs from "node:fs";
import path from "node:path";
import { Kysely, PostgresDialect, sql, type Transaction } from "kysely";
import pg from "pg";
import type { Database } from "./schema.ts";
import { migrate } from "./migrate.ts";
import { PglitePool, PgliteServer } from "./pglite-server.ts";
import {
  migrationsCurrent,
  pgliteReadiness,
  postgresReadiness,
  type DatabaseReadiness,
} from "./readiness.ts";
import { sendMarkedStatementsPrepared } from "./prepared.ts";

// int8 (counts, bigserial ids) and numeric (prices) as JavaScript numbers: ids stay far below 2^53
// and prices have two decimals.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));
// date columns (dob, subscription periods) stay "YYYY-MM-DD" strings: no time zone to shift them.
pg.types.setTypeParser(1082, (v) => v);

export type Db = Kysely<Database>;
export type DbOrTx = Kysely<Database> | Transaction<Database>;

export interface DbHandle {
  db: Db;
  /** The pool under `db`, for libraries that speak node-postgres themselves (the job queue). */
  pool: pg.Pool;
  engine: "pglite" | "postgres";
  /**
   * Whether the database answers and its schema is current, asked apart from the pool (readiness,
   * db/readiness.ts); closed with the handle.
   */
  readiness: DatabaseReadiness;
  /** PGlite only: the whole database as a tar image, for `image` below. */
  dumpImage?: () => Promise<Blob>;
  close(): Promise<void>;
}

export interface CreateDbOptions {
  /** undefined: PGlite files in dataDir/pglite; "memory://": in-memory PGlite; postgres://…: PostgreSQL. */
  databaseUrl?: string;
  dataDir?: string;
  /**
   * In-memory PGlite only: start from this image (dumpImage) instead of an empty database. Tests
   * start from one migrated image rather than running every migration for every test file.
   */
  image?: Blob;
  /** PostgreSQL only: a schema to create and use (tests isolate themselves this way). */
  schema?: string;
  /** PostgreSQL only: PGlite is one session, over one connection (db/pglite-server.ts). */
  poolSize?: number;
  /** Told about each connection the pool lost (it is replaced on the next query). */
  onConnectionError?: (error: Error) => void;
  /**
   * False: open the database without migrating it (`npm run migrate` migrates itself, to report
   * each file). Default true: every process migrates as it starts (db/migrate.ts).
   */
  migrate?: boolean;
}

/** How long a query waits for a free or new connection before it fails (and answers 503). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A dropped connection (pg_terminate_backend, a PostgreSQL restart, a network cut) makes pg emit
 * 'error' on the client and, for an idle one, on the pool; unheard, that event ends the process.
 * Idle clients are already removed by the pool; a checked-out one fails its running query (which
 * the request answers with 503, see db/faults.ts) and is discarded when released, as it is no longer
 * queryable. Either way the next query opens a new connection.
 */
function survivePoolErrors(pool: pg.Pool, onConnectionError: (error: Error) => void) {
  pool.on("error", (error) => onConnectionError(error));
  pool.on("connect", (client) => {
    client.on("error", () => {
      /* the running query rejects with this error; the pool drops the client on release */
    });
  });
}

const logConnectionError = (error: Error) =>
  console.warn(`database connection lost (${error.message}); it will be replaced`);

/**
 * CREATE EXTENSION IF NOT EXISTS is not safe against itself: two sessions that both find the
 * extension missing both create it, and the second fails on pg_extension's unique index (test
 * files start at once against a fresh database). The one that lost finds it made.
 */
async function createExtensionOnce(client: pg.Client, name: string): Promise<void> {
  try {
    await client.query(`CREATE EXTENSION IF NOT EXISTS ${name}`);
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 23505 unique_violation, 42710 duplicate_object: made by the other session meanwhile.
    if (code !== "23505" && code !== "42710") throw error;
  }
}

export async function createDb(options: CreateDbOptions): Promise<DbHandle> {
  const url = options.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const poolOptions: pg.PoolConfig = {
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      // Names the server's sessions in pg_stat_activity; a URL's ?application_name= wins.
      application_name: "chalkboard-deals",
    };
    if (options.schema) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await createExtensionOnce(admin, "pg_trgm");
      await admin.query(`CREATE SCHEMA IF NOT EXISTS "${options.schema}"`);
      await admin.end();
      poolOptions.options = `-c search_path="${options.schema}",public`;
    }
    const pool = new pg.Pool(poolOptions);
    survivePoolErrors(pool, options.onConnectionError ?? logConnectionError);
    sendMarkedStatementsPrepared(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    if (options.migrate !== false) {
      try {
        await migrate(db, { advisoryLock: true });
      } catch (error) {
        await db.destroy();
        throw error;
      }
    }
    // The pool's connection settings (the URL, a test's search_path), on a connection of its own.
    const readiness = postgresReadiness({
      connectionString: url,
      application_name: poolOptions.application_name,
      ...(poolOptions.options ? { options: poolOptions.options } : {}),
    });
    return {
      db,
      pool,
      engine: "postgres",
      readiness,
      async close() {
        await readiness.close();
        await db.destroy();
      },
    };
  }

  let dataDir: string | undefined;
  if (url !== "memory://") {
    dataDir = path.join(options.dataDir ?? "./data", "pglite");
    fs.mkdirSync(dataDir, { recursive: true }); // PGlite does not create missing parents
  }
  // PGlite runs in a thread of its own, so its queries use the other core (db/pglite-server.ts),
  // and its named statements are planned once (db/prepared.ts).
  const server = await PgliteServer.start({
    dataDir,
    ...(options.image && !dataDir ? { image: options.image } : {}),
  });
  const pool = new PglitePool({
    ...server.connection(),
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  survivePoolErrors(pool, options.onConnectionError ?? logConnectionError);
  sendMarkedStatementsPrepared(pool, { planOnce: true });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  if (options.migrate !== false) {
    try {
      await migrate(db);
    } catch (error) {
      await db.destroy();
      await server.close();
      throw error;
    }
  }
  // Unmigrated (`migrate: false`), the folder may hold no schema_migrations yet.
  const applied = await sql<{ name: string }>`
    SELECT name FROM schema_migrations WHERE to_regclass('schema_migrations') IS NOT NULL`
    .execute(db)
    .catch(() => ({ rows: [] as { name: string }[] }));
  return {
    db,
    pool,
    engine: "pglite",
    readiness: pgliteReadiness(
      () => server.ping(),
      migrationsCurrent(applied.rows.map((r) => r.name)),
    ),
    dumpImage: () => server.dumpImage(),
    async close() {
      await db.destroy();
      await server.close();
    },
  };
}
