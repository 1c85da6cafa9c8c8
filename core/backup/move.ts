import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { createDb } from "../../db/index.ts";
import { migrationFiles } from "../../db/migrate.ts";
import { DEFAULT_JOBS_SCHEMA } from "../jobs/queue.ts";
import { createSiteJobQueue } from "../jobs/site-jobs.ts";
import { userRelations } from "./database.ts";
import { lockDataDirFor, openEmbeddedDatabase } from "./embedded.ts";
import { BackupError } from "./manifest.ts";

/**
 * `npm run db:move`: copies the embedded site of DATA_DIR into an empty PostgreSQL database
 * (docs/decisions/0099-moving-to-postgresql.md). The schema is made by the site's own migrations
 * (and pg-boss's own install), then every row of every table, the sequences and pg-boss's jobs are
 * copied in one transaction of the target with its triggers off, and the rows of every table are
 * counted on both sides before it commits. A move that fails after the schema was made drops what
 * it made: the target is left as empty as it was found.
 */
export interface MoveOptions {
  dataDir: string;
  /** The target database's URL (postgres://user@host:port/database). */
  to: string;
  /** Progress and the per-table counts, as the command's JSON lines. */
  log: MoveLog;
  /**
   * Runs inside the copy's transaction on the target, after the rows are copied and before they
   * are counted (tests make a copy fail or miscount through it).
   */
  afterCopy?: (target: pg.ClientBase) => Promise<void>;
  /** Rows per INSERT (default 1000). */
  batchRows?: number;
}

export interface MoveLog {
  info(fields: object, message: string): void;
  info(message: string): void;
  warn(message: string): void;
}

/** What a move copied: rows per table, as counted on both sides (equal, or it failed). */
export interface MoveResult {
  tables: { table: string; source: number; target: number }[];
  sequences: number;
  milliseconds: number;
}

/** The tables that the target's migrations fill themselves (and that say which ran). */
const MIGRATION_TABLES = new Set(["schema_migrations", "schema_migration_steps"]);
/** pg-boss's table of jobs, copied apart from the site's tables (it holds every queue's jobs). */
const JOBS_TABLE = `${DEFAULT_JOBS_SCHEMA}.job`;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every value as PostgreSQL's text form: copied back through the column type's own input. */
const AS_TEXT = { getTypeParser: () => (value: string) => value };

/** Checks --to: a PostgreSQL URL naming a database. */
export function parseTargetUrl(to: string | undefined, usage: string): string {
  if (!to) throw new BackupError(`--to is required (${usage})`);
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    throw new BackupError(`--to is not a URL (${usage})`);
  }
  if (!["postgres:", "postgresql:"].includes(url.protocol) || url.pathname.length < 2) {
    throw new BackupError(`--to must be a PostgreSQL database's URL (${usage})`);
  }
  return to;
}

/** The URL without its password, to name the target in messages. */
function describeTarget(to: string): string {
  const url = new URL(to);
  return `the database ${decodeURIComponent(url.pathname.slice(1))} at ${url.hostname}${url.port ? `:${url.port}` : ""}`;
}

export async function moveToPostgres(options: MoveOptions): Promise<MoveResult> {
  const started = performance.now();
  const { dataDir, to } = options;
  const where = describeTarget(to);
  const pgliteDir = path.join(dataDir, "pglite");
  if (!fs.existsSync(path.join(pgliteDir, "PG_VERSION"))) {
    throw new BackupError(`There is no embedded database in DATA_DIR ${dataDir}: nothing to move.`);
  }
  // Held to the end: no server starts on the embedded site while it is copied.
  const release = lockDataDirFor(
    dataDir,
    () =>
      `A server is running on DATA_DIR ${dataDir}: stop it, then move the site (its writes would not be copied).`,
  );
  try {
    const target = new pg.Client({
      connectionString: to,
      application_name: "chalkboard-deals-move",
    });
    try {
      await target.connect();
    } catch (error) {
      throw new BackupError(`Could not connect to ${where}: ${(error as Error).message}`);
    }
    target.on("error", () => undefined); // a lost connection fails the running query instead
    try {
      await checkTarget(target, where);
      const source = await openEmbeddedDatabase(pgliteDir);
      try {
        const client = await source.pool.connect();
        try {
          await checkSourceSchema(client);
          const before = await databaseObjects(target);
          try {
            const result = await fill(client, target, options);
            return { ...result, milliseconds: performance.now() - started };
          } catch (error) {
            await client.query("ROLLBACK").catch(() => undefined);
            await target.query("ROLLBACK").catch(() => undefined);
            await emptyAgain(to, before).catch((cleanup: Error) => {
              throw new BackupError(
                `${(error as Error).message.split("\n")[0]}; and what the move made in ${where} could not be dropped (${cleanup.message}): drop and create that database again before another move.`,
              );
            });
            throw error;
          }
        } finally {
          client.release();
        }
      } finally {
        await source.close();
      }
    } finally {
      await target.end().catch(() => undefined);
    }
  } finally {
    release();
  }
}

/** Refuses a target that holds anything, or whose role may not copy rows with triggers off. */
async function checkTarget(target: pg.Client, where: string): Promise<void> {
  const present = await userRelations(target);
  if (present.length) {
    throw new BackupError(
      `${where[0]!.toUpperCase()}${where.slice(1)} is not empty (it holds ${present.join(", ")}${present.length > 2 ? ", …" : ""}): a move fills an empty database only, and writes nothing there.`,
    );
  }
  try {
    await target.query("BEGIN");
    await target.query("SET LOCAL session_replication_role = replica");
  } catch (error) {
    throw new BackupError(
      `The role of --to may not turn the site's triggers off while rows are copied (${(error as Error).message}): connect as the database's superuser, or, on PostgreSQL 15 and later, GRANT SET ON PARAMETER session_replication_role TO that role.`,
    );
  } finally {
    await target.query("ROLLBACK");
  }
}

/** Refuses an embedded site whose migrations are not exactly this code's. */
async function checkSourceSchema(client: pg.PoolClient): Promise<void> {
  const { rows: present } = await client.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  const applied = present[0]?.present
    ? (await client.query<{ name: string }>("SELECT name FROM schema_migrations")).rows.map(
        (row) => row.name,
      )
    : [];
  const files = migrationFiles().map((file) => file.name);
  const known = new Set(files);
  const newer = applied.filter((name) => !known.has(name)).sort();
  if (newer.length) {
    throw new BackupError(
      `The embedded site was migrated by a newer version of Chalkboard Deals (it has migration ${newer.at(-1)}, which this code does not know): move it with that version or a later one.`,
    );
  }
  const done = new Set(applied);
  const pending = files.filter((name) => !done.has(name));
  if (pending.length) {
    throw new BackupError(
      `The embedded site's schema is older than this code (${pending.length} migration${pending.length === 1 ? "" : "s"} to apply, the first ${pending[0]}): run npm run migrate on it first (DATABASE_URL unset), then move it.`,
    );
  }
}

interface Column {
  name: string;
  type: string;
}

/** The columns a copy writes: not dropped, not generated (those the target computes itself). */
async function writableColumns(client: pg.ClientBase, table: string): Promise<Column[]> {
  const { rows } = await client.query<Column>(
    `SELECT attname AS name, format_type(atttypid, atttypmod) AS type
       FROM pg_attribute
      WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
    [table],
  );
  return rows;
}

/** The site's tables (not partitions) and sequences, in the schema the site's queries use. */
async function siteRelations(client: pg.ClientBase, kinds: string[]): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind = ANY($1) AND NOT c.relispartition
      ORDER BY 1`,
    [kinds],
  );
  return rows.map((row) => row.name);
}

/**
 * Copies `from` (a query's rows, read through a cursor of the source's transaction) into `table`
 * of the target, `batchRows` at a time: each value travels as text and is cast back by the
 * column's type, so nothing is rounded or reformatted on the way (numeric, timestamps, arrays).
 */
async function copyRows(
  source: pg.ClientBase,
  target: pg.ClientBase,
  table: string,
  columns: Column[],
  where: { sql: string; values: unknown[] },
  batchRows: number,
): Promise<number> {
  const names = columns.map((column) => quoteIdent(column.name)).join(", ");
  await source.query(
    `DECLARE move_rows NO SCROLL CURSOR FOR SELECT ${names} FROM ${table} ${where.sql}`,
    where.values,
  );
  const insert = `INSERT INTO ${table} (${names}) OVERRIDING SYSTEM VALUE
    SELECT ${columns.map((column, i) => `c${i}::${column.type}`).join(", ")}
      FROM unnest(${columns.map((_, i) => `$${i + 1}::text[]`).join(", ")})
        AS r(${columns.map((_, i) => `c${i}`).join(", ")})`;
  let copied = 0;
  for (;;) {
    const { rows } = await source.query<unknown[]>({
      text: `FETCH ${batchRows} FROM move_rows`,
      rowMode: "array",
      types: AS_TEXT,
    });
    if (rows.length === 0) break;
    await target.query(
      insert,
      columns.map((_, i) => rows.map((row) => row[i])),
    );
    copied += rows.length;
  }
  await source.query("CLOSE move_rows");
  return copied;
}

/** Makes the schema on the target, then copies everything in one transaction of the target. */
async function fill(
  source: pg.PoolClient,
  target: pg.Client,
  options: MoveOptions,
): Promise<Omit<MoveResult, "milliseconds">> {
  const { log, to } = options;
  const batchRows = options.batchRows ?? 1000;

  // The schema as the site makes it: its migrations (those that run outside a transaction too,
  // db/migrate.ts), then pg-boss's tables and the site's queues, as a starting server installs them.
  log.info("making the schema: the site's migrations, then the job queue's tables");
  const handle = await createDb({ databaseUrl: to, poolSize: 2 });
  try {
    const queue = createSiteJobQueue(handle, { work: false });
    await queue.start({ warn: (msg) => log.warn(msg), error: () => undefined });
    await queue.stop();
  } finally {
    await handle.close();
  }

  // One moment of the source; nothing else writes to it (DATA_DIR is locked).
  await source.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
  await target.query("BEGIN");
  // Rows are copied as they are, counters included: the triggers that keep counters (and the
  // foreign keys' checks, which are triggers too) would count every copied row again.
  await target.query("SET LOCAL session_replication_role = replica");

  const tables = await siteRelations(source, ["r", "p"]);
  const targetTables = new Set(await siteRelations(target, ["r", "p"]));
  const missing = tables.filter((table) => !targetTables.has(table));
  if (missing.length) {
    throw new BackupError(
      `The embedded site has tables that this code's migrations do not make (${missing.slice(0, 3).join(", ")}): it was changed by hand; nothing was moved.`,
    );
  }
  const copied = tables.filter((table) => !MIGRATION_TABLES.has(table));
  // What the migrations wrote (default settings and the like) gives way to the site's own rows.
  if (copied.length) {
    await target.query(`TRUNCATE ${copied.map(quoteIdent).join(", ")}`);
  }
  // Rows go in faster without the tables' plain indexes (42 on posts, two of them GIN): they are
  // dropped here and built again from their own definitions once the rows are in, in this same
  // transaction. Unique ones and those of constraints stay, and check the rows as they come.
  const { rows: indexes } = await target.query<{ name: string; definition: string }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name,
            pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_class t ON t.oid = i.indrelid
      WHERE t.relnamespace = n.oid AND n.nspname = current_schema() AND t.relname = ANY($1)
        AND NOT i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conindid = i.indexrelid)
      ORDER BY 1`,
    [copied],
  );
  for (const index of indexes) await target.query(`DROP INDEX ${index.name}`);
  log.info(`copying ${copied.length} tables`);
  for (const table of copied) {
    const columns = await writableColumns(target, quoteIdent(table));
    await copyRows(source, target, quoteIdent(table), columns, { sql: "", values: [] }, batchRows);
  }
  log.info(`building ${indexes.length} indexes`);
  await target.query("SET LOCAL maintenance_work_mem = '256MB'");
  for (const index of indexes) await target.query(index.definition);

  const sequences = await siteRelations(source, ["S"]);
  for (const sequence of sequences) {
    const { rows } = await source.query<{ last_value: string; is_called: boolean }>({
      text: `SELECT last_value, is_called FROM ${quoteIdent(sequence)}`,
      types: AS_TEXT,
    });
    await target.query("SELECT setval($1::regclass, $2::bigint, $3::boolean)", [
      quoteIdent(sequence),
      rows[0]!.last_value,
      rows[0]!.is_called,
    ]);
  }

  const counted: { table: string; where: string; values: unknown[] }[] = tables.map((table) => ({
    table: quoteIdent(table),
    where: "",
    values: [],
  }));
  const jobs = await copyJobs(source, target, batchRows, log);
  if (jobs) counted.push(jobs);

  await options.afterCopy?.(target);

  const result: MoveResult["tables"] = [];
  for (const { table, where, values } of counted) {
    const query = `SELECT count(*) AS n FROM ${table} ${where}`;
    const [from, into] = await Promise.all([
      source.query<{ n: string }>(query, values),
      target.query<{ n: string }>(query, values),
    ]);
    const row = {
      table: table.replaceAll('"', ""),
      source: Number(from.rows[0]!.n),
      target: Number(into.rows[0]!.n),
    };
    log.info(row, `${row.table}: ${row.source} rows in the embedded site, ${row.target} moved`);
    result.push(row);
  }
  const wrong = result.filter((row) => row.source !== row.target);
  if (wrong.length) {
    throw new BackupError(
      `The counts differ (${wrong.map((row) => `${row.table}: ${row.source} in the embedded site, ${row.target} in the target`).join("; ")}): nothing was moved.`,
    );
  }
  await target.query("COMMIT");
  await source.query("COMMIT");
  return { tables: result, sequences: sequences.length };
}

/**
 * Copies pg-boss's jobs, every state, of the queues this code has (docs/decisions/0099): those
 * not done yet (mail queued and not sent) run on PostgreSQL, and the finished ones stay for the
 * console's figures until pg-boss deletes them as it would have. Answers what to count, or
 * undefined when the embedded site has no job queue.
 */
async function copyJobs(
  source: pg.PoolClient,
  target: pg.Client,
  batchRows: number,
  log: MoveLog,
): Promise<{ table: string; where: string; values: unknown[] } | undefined> {
  const schema = DEFAULT_JOBS_SCHEMA;
  const { rows: present } = await source.query<{ present: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AND to_regclass($2) IS NOT NULL AS present",
    [JOBS_TABLE, `${schema}.version`],
  );
  if (!present[0]?.present) return undefined;
  const version = async (client: pg.ClientBase) =>
    Number(
      (await client.query<{ version: string }>(`SELECT version FROM ${schema}.version`)).rows[0]
        ?.version,
    );
  const [from, into] = [await version(source), await version(target)];
  if (from !== into) {
    throw new BackupError(
      `The embedded site's job queue has the tables of another pg-boss version (schema ${from}, this code's ${into}): start this build once on DATA_DIR (and stop it), then move the site.`,
    );
  }
  const queues = (
    await target.query<{ name: string }>(`SELECT name FROM ${schema}.queue`)
  ).rows.map((row) => row.name);
  const known = `ARRAY[${queues.map((name) => `'${name.replaceAll("'", "''")}'`).join(", ")}]::text[]`;
  const unknown = Number(
    (
      await source.query<{ n: string }>(
        `SELECT count(*) AS n FROM ${JOBS_TABLE} WHERE NOT (name = ANY(${known}))`,
      )
    ).rows[0]!.n,
  );
  if (unknown) log.warn(`${unknown} jobs of kinds this code does not have are left behind`);
  const where = { sql: `WHERE name = ANY(${known})`, values: [] };
  await copyRows(
    source,
    target,
    JOBS_TABLE,
    await writableColumns(target, JOBS_TABLE),
    where,
    batchRows,
  );
  return { table: JOBS_TABLE, where: where.sql, values: where.values };
}

/**
 * What a database holds beyond PostgreSQL's own: schemas, extensions, relations, functions and
 * types (those of extensions go with them), one line each, sorted. A failed move drops what is
 * here and was not before.
 */
export async function databaseObjects(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ object: string }>(`
    WITH own AS (
      SELECT oid, nspname FROM pg_namespace
       WHERE nspname NOT IN ('pg_catalog', 'information_schema')
         AND nspname NOT LIKE 'pg\\_toast%' AND nspname NOT LIKE 'pg\\_temp%'
    ), member AS (SELECT objid FROM pg_depend WHERE deptype = 'e')
    SELECT 'schema ' || quote_ident(nspname) AS object FROM own
    UNION ALL
    SELECT 'extension ' || quote_ident(extname) FROM pg_extension
    UNION ALL
    SELECT CASE c.relkind WHEN 'S' THEN 'sequence ' WHEN 'v' THEN 'view '
                          WHEN 'm' THEN 'materialized view ' WHEN 'f' THEN 'foreign table '
                          ELSE 'table ' END
           || quote_ident(own.nspname) || '.' || quote_ident(c.relname)
      FROM pg_class c JOIN own ON own.oid = c.relnamespace
     WHERE c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f') AND NOT c.relispartition
       AND c.oid NOT IN (SELECT objid FROM member)
    UNION ALL
    SELECT CASE p.prokind WHEN 'p' THEN 'procedure ' WHEN 'a' THEN 'aggregate ' ELSE 'function ' END
           || quote_ident(own.nspname) || '.' || quote_ident(p.proname)
           || '(' || pg_get_function_identity_arguments(p.oid) || ')'
      FROM pg_proc p JOIN own ON own.oid = p.pronamespace
     WHERE p.oid NOT IN (SELECT objid FROM member)
    UNION ALL
    SELECT CASE t.typtype WHEN 'd' THEN 'domain ' ELSE 'type ' END
           || quote_ident(own.nspname) || '.' || quote_ident(t.typname)
      FROM pg_type t JOIN own ON own.oid = t.typnamespace
     WHERE t.typtype IN ('e', 'd', 'c', 'r')
       AND (t.typrelid = 0 OR (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')
       AND t.oid NOT IN (SELECT objid FROM member)
     ORDER BY 1`);
  return rows.map((row) => row.object);
}

/**
 * Drops what a failed move made in the target, on a connection of its own, in one transaction:
 * new schemas (pg-boss's), new tables and sequences, new extensions, functions and types. Checks
 * that the database then holds what it held before.
 */
async function emptyAgain(to: string, before: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: to, application_name: "chalkboard-deals-move" });
  await client.connect();
  client.on("error", () => undefined);
  try {
    const had = new Set(before);
    const made = (await databaseObjects(client)).filter((object) => !had.has(object));
    const order = [
      "schema ",
      "materialized view ",
      "view ",
      "foreign table ",
      "table ",
      "sequence ",
      "extension ",
      "procedure ",
      "aggregate ",
      "function ",
      "domain ",
      "type ",
    ];
    await client.query("BEGIN");
    for (const kind of order) {
      for (const object of made.filter((line) => line.startsWith(kind))) {
        const name = object.slice(kind.length);
        const what = kind.trim().toUpperCase();
        await client.query(`DROP ${what} IF EXISTS ${name} CASCADE`);
      }
    }
    await client.query("COMMIT");
    const after = await databaseObjects(client);
    const left = after.filter((object) => !had.has(object));
    if (left.length) throw new Error(`left ${left.slice(0, 3).join(", ")}`);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}
