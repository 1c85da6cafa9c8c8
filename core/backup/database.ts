import { createHash } from "node:crypto";
import fs from "node:fs";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { pipeline } from "node:stream/promises";
import zlib from "node:zlib";
import pg from "pg";
import { BackupError, COUNTED_TABLES, type BackupManifest } from "./manifest.ts";
import { runTool, serverMajor, toolMajorVersion } from "./postgres-tools.ts";

/**
 * Tables, sequences, views of any schema but PostgreSQL's own, the first three by name: an empty
 * database has none. What `npm run restore` and `npm run db:move` ask of a target database before
 * writing anything to it.
 */
const USER_RELATIONS = `
  SELECT n.nspname || '.' || c.relname AS name
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
     AND n.nspname NOT IN ('pg_catalog', 'information_schema')
     AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'
   ORDER BY 1 LIMIT 3`;

/** Up to three relations (schema.name) of `client`'s database; none when it is empty. */
export async function userRelations(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(USER_RELATIONS);
  return rows.map((row) => row.name);
}

/** What a snapshot says of the database, for the manifest. */
export interface DatabaseFacts {
  migrations: string[];
  counts: BackupManifest["counts"];
  serverVersion: string;
  pgDumpMajor?: number;
}

/** Rows of the counted tables, and the applied migrations, as `client` sees the database. */
export async function readDatabaseFacts(
  client: pg.ClientBase,
): Promise<Omit<DatabaseFacts, "pgDumpMajor">> {
  const { rows: present } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  const migrations = present[0]?.present
    ? (
        await client.query<{ name: string }>("SELECT name FROM schema_migrations ORDER BY name")
      ).rows.map((row) => row.name)
    : [];
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    const exists = await client.query<{ present: boolean }>(
      "SELECT to_regclass($1) IS NOT NULL AS present",
      [table],
    );
    counts[table] = exists.rows[0]?.present
      ? Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0].n)
      : 0;
  }
  const { rows } = await client.query<{ server_version: string }>("SHOW server_version");
  return {
    migrations,
    counts: counts as BackupManifest["counts"],
    serverVersion: rows[0]?.server_version ?? "",
  };
}

/**
 * The embedded database's image, gzipped, into `file`. The pool is PGlite's, with its one
 * connection (db/pglite-server.ts): holding that connection keeps every other query of the
 * process (pages, jobs) out until the image is taken, so the counts and the image are one moment.
 * CHECKPOINT first writes every changed page into the files the image copies.
 */
export async function snapshotPglite(
  pool: pg.Pool,
  dumpImage: () => Promise<Blob>,
  file: string,
): Promise<DatabaseFacts> {
  const client = await pool.connect();
  let facts: Omit<DatabaseFacts, "pgDumpMajor">;
  let image: Blob;
  try {
    facts = await readDatabaseFacts(client);
    await client.query("CHECKPOINT");
    image = await dumpImage();
  } finally {
    client.release();
  }
  await pipeline(
    Readable.fromWeb(image.stream() as WebReadableStream),
    zlib.createGzip(),
    fs.createWriteStream(file),
  );
  return facts;
}

/**
 * PostgreSQL's dump, in pg_dump's custom format, of the whole database: the site's tables, pg-boss's
 * schema, the extensions. The counts are read in a repeatable-read transaction whose snapshot
 * pg_dump then uses (`--snapshot`), so they describe exactly what was dumped.
 */
export async function snapshotPostgres(databaseUrl: string, file: string): Promise<DatabaseFacts> {
  const pgDumpMajor = await toolMajorVersion("pg_dump");
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: "chalkboard-deals-backup",
  });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Could not connect to DATABASE_URL: ${(error as Error).message}`);
  }
  try {
    const { rows } = await client.query<{ server_version_num: string }>("SHOW server_version_num");
    const major = serverMajor(Number(rows[0]?.server_version_num));
    if (pgDumpMajor < major) {
      throw new BackupError(
        `pg_dump on PATH is version ${pgDumpMajor}, older than the database server (${major}): install PostgreSQL ${major}'s client programs (Debian: postgresql-client-${major}) and put them first in PATH.`,
      );
    }
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const snapshot = (await client.query<{ id: string }>("SELECT pg_export_snapshot() AS id"))
      .rows[0]!.id;
    const facts = await readDatabaseFacts(client);
    await runTool(
      "pg_dump",
      ["--format=custom", `--snapshot=${snapshot}`, `--file=${file}`],
      databaseUrl,
      "The database dump",
    );
    await client.query("COMMIT");
    return { ...facts, pgDumpMajor };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Length and SHA-256 of a file, read as a stream. */
export async function fileDigest(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}
