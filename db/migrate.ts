import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql, type Kysely } from "kysely";
import { parse } from "libpg-query";

const defaultMigrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * The first key of the advisory lock migrations hold on PostgreSQL (any fixed number no other
 * lock of the site uses). The second key is the schema's hash: schema_migrations lives in the
 * current schema, so migrations of different schemas (tests, several sites on one database)
 * do not wait for each other.
 */
export const MIGRATION_LOCK_KEY = 0x43424d47; // "CBMG"

/**
 * The first line of a migration that runs outside a transaction (docs/decisions/0097-safe-upgrades.md):
 * its statements run one step at a time, so that `CREATE INDEX CONCURRENTLY` and batched backfills
 * (a DO block that commits after each batch) can run at all.
 */
export const NO_TRANSACTION_MARKER = "-- migrate: no-transaction";

/**
 * How long a migration's statement waits for a lock on a table before it gives up. Without it, an
 * ALTER or CREATE TRIGGER queued behind one long read makes every later write to that table queue
 * behind it, for as long as that read lasts; with it, the statement fails fast and is tried again
 * (LOCK_RETRIES), and the site's writes flow in between.
 */
export const MIGRATION_LOCK_TIMEOUT = "5s";
const LOCK_RETRIES = 5;
const LOCK_RETRY_PAUSE_MS = 2000;

/** A database that has applied a migration this build does not have: newer code migrated it. */
export class SchemaNewerThanBuildError extends Error {}

/** A migration that failed; its message is one line naming the file. */
export class MigrationFailedError extends Error {}

export interface MigrateOptions {
  /**
   * PostgreSQL: hold a session-level advisory lock while reading what is applied and applying
   * the rest, so several processes starting at once on a new database apply each file once.
   * PGlite needs none: one process holds its folder (db/lock.ts).
   */
  advisoryLock?: boolean;
  /** Told of each migration as it is applied, with the milliseconds it took. */
  onApplied?: (name: string, ms: number) => void;
  /** Where the numbered files are (tests point it at a folder of their own). */
  dir?: string;
}

export interface MigrationFile {
  name: string;
  text: string;
  /** False when the file starts with NO_TRANSACTION_MARKER. */
  transaction: boolean;
}

export function migrationFiles(dir = defaultMigrationsDir): MigrationFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort()
    .map((name) => {
      const text = fs.readFileSync(path.join(dir, name), "utf8");
      const firstLine = text.split("\n", 1)[0]!.trim();
      return { name, text, transaction: firstLine !== NO_TRANSACTION_MARKER };
    });
}

/** One statement of a migration, with the parts of its parse tree the runner and rules read. */
export interface MigrationStatement {
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's node union
  node: Record<string, any>;
  kind: string;
}

/**
 * The statements of a migration, as PostgreSQL's own parser (libpg-query) splits them: dollar
 * quotes, strings and comments holding `;` stay whole. Offsets are in UTF-8 bytes.
 */
export async function migrationStatements(text: string): Promise<MigrationStatement[]> {
  const bytes = Buffer.from(text, "utf8");
  const tree = await parse(text);
  return (tree.stmts ?? []).map((entry) => {
    const start = entry.stmt_location ?? 0;
    const end = entry.stmt_len ? start + entry.stmt_len : bytes.length;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- libpg-query's node union
    const node = entry.stmt as Record<string, any>;
    const kind = Object.keys(node)[0]!;
    return { text: bytes.subarray(start, end).toString("utf8").trim(), node, kind };
  });
}

/**
 * Statements that run outside any transaction block: concurrent index builds and drops, DO blocks
 * (a batched backfill commits after each batch) and constraint validations. Each is a step of its own,
 * and must be safe to run again (a step is recorded after it ends: a crash between the two runs
 * it twice): IF NOT EXISTS / IF EXISTS, and backfills that resume where they stopped.
 */
export function runsAlone(statement: MigrationStatement): boolean {
  const body = statement.node[statement.kind];
  if (statement.kind === "IndexStmt" || statement.kind === "DropStmt")
    return Boolean(body?.concurrent);
  if (statement.kind === "ReindexStmt" || statement.kind === "VacuumStmt") return true;
  // Validating a constraint added NOT VALID scans the table under a lock that lets writes
  // through; in the transaction that added it, the adding's lock would hold them all.
  if (statement.kind === "AlterTableStmt") {
    const commands: { AlterTableCmd?: { subtype?: string } }[] = body?.cmds ?? [];
    return (
      commands.length > 0 &&
      commands.every((c) => c.AlterTableCmd?.subtype === "AT_ValidateConstraint")
    );
  }
  return statement.kind === "DoStmt";
}

/**
 * Concurrent index builds and drops and constraint validations take only a lock that writes pass
 * (SHARE UPDATE EXCLUSIVE), then wait for the transactions older than them to end. Cut short by
 * lock_timeout, a long report would fail them (leaving an invalid index) for nothing: they wait as
 * long as it takes, and the site's writes go on meanwhile.
 */
function letsWritesThrough(statement: MigrationStatement): boolean {
  return (
    runsAlone(statement) && ["IndexStmt", "DropStmt", "AlterTableStmt"].includes(statement.kind)
  );
}

interface Step {
  statements: MigrationStatement[];
  alone: boolean;
}

/** Consecutive ordinary statements make one step, run in one transaction; the others one each. */
async function stepsOf(file: MigrationFile): Promise<Step[]> {
  const steps: Step[] = [];
  for (const statement of await migrationStatements(file.text)) {
    const alone = runsAlone(statement);
    const last = steps.at(-1);
    if (!alone && last && !last.alone) last.statements.push(statement);
    else steps.push({ statements: [statement], alone });
  }
  return steps;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs before and beside any typed schema
type AnyDb = Kysely<any>;

/**
 * The names of the migrations already applied, or undefined on a schema that has none yet. Looked
 * for in the current schema only: with a search_path of `"schema",public` (a schema of its own,
 * db/index.ts), a bare name would find public's table, and a new schema would never be migrated
 * (db/migrate.test.ts, "a new schema beside a migrated public").
 */
async function appliedMigrations(db: AnyDb): Promise<Set<string> | undefined> {
  const { rows } = await sql<{
    present: boolean;
  }>`SELECT to_regclass(format('%I.schema_migrations', current_schema())) IS NOT NULL AS present`.execute(
    db,
  );
  if (!rows[0]?.present) return undefined;
  const applied = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db);
  return new Set(applied.rows.map((r) => r.name));
}

/** Refuses a database that has applied a migration this build lacks (newer code migrated it). */
function refuseNewerSchema(applied: Set<string> | undefined, files: MigrationFile[]): void {
  if (!applied) return;
  const known = new Set(files.map((f) => f.name));
  const unknown = [...applied].filter((name) => !known.has(name)).sort();
  if (unknown.length === 0) return;
  const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more)` : "";
  throw new SchemaNewerThanBuildError(
    `The database's schema is newer than this build: it has applied migration ${unknown.at(-1)}${more}, which this build does not have. This build is older than the database; run the build that upgraded it, or a newer one.`,
  );
}

/**
 * A lock not had: lock_timeout ran out (55P03), or PostgreSQL chose this step as the one to end in
 * a deadlock (40P01), as when a step alters likes and then posts while a site's delete of a post
 * holds posts and cascades to likes (db/migrate-online.test.ts). Either way the step's transaction
 * was rolled back whole, so running it again is safe.
 */
const isLockConflict = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === "55P03" || code === "40P01";
};

/** Runs `work` again after a pause while it fails for want of a lock. */
async function retryingLocks<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!isLockConflict(error) || attempt >= LOCK_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_PAUSE_MS * attempt));
    }
  }
}

/**
 * A concurrent index build that failed leaves an INVALID index behind, which IF NOT EXISTS would
 * then keep: drop it first, so that the retry builds it.
 */
async function dropInvalidIndex(db: AnyDb, statement: MigrationStatement): Promise<void> {
  const name: string | undefined = statement.node.IndexStmt?.idxname;
  if (statement.kind !== "IndexStmt" || !name) return;
  const { rows } = await sql<{ invalid: boolean }>`
    SELECT NOT indisvalid AS invalid FROM pg_index
     WHERE indexrelid = to_regclass(quote_ident(${name}))`.execute(db);
  if (rows[0]?.invalid) {
    await sql.raw(`DROP INDEX CONCURRENTLY IF EXISTS ${quoteIdent(name)}`).execute(db);
  }
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** A file that runs outside a transaction: step by step, each recorded, resuming after a failure. */
async function applyInSteps(db: AnyDb, file: MigrationFile): Promise<void> {
  const steps = await stepsOf(file);
  const done = await sql<{ step: number }>`
    SELECT step FROM schema_migration_steps WHERE name = ${file.name}`.execute(db);
  const doneSteps = new Set(done.rows.map((r) => r.step));
  for (const [index, step] of steps.entries()) {
    if (doneSteps.has(index)) continue;
    if (step.alone) {
      const statement = step.statements[0]!;
      const patient = letsWritesThrough(statement);
      await retryingLocks(async () => {
        await dropInvalidIndex(db, statement);
        if (patient) await sql`SET lock_timeout = 0`.execute(db);
        try {
          await sql.raw(statement.text).execute(db);
        } finally {
          if (patient) await sql.raw(`SET lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`).execute(db);
        }
      });
      await sql`INSERT INTO schema_migration_steps (name, step) VALUES (${file.name}, ${index})
                ON CONFLICT DO NOTHING`.execute(db);
    } else {
      await retryingLocks(() =>
        db.transaction().execute(async (tx) => {
          for (const statement of step.statements) await sql.raw(statement.text).execute(tx);
          await sql`INSERT INTO schema_migration_steps (name, step)
                    VALUES (${file.name}, ${index})`.execute(tx);
        }),
      );
    }
  }
  await db.transaction().execute(async (tx) => {
    await sql`INSERT INTO schema_migrations (name) VALUES (${file.name})`.execute(tx);
    await sql`DELETE FROM schema_migration_steps WHERE name = ${file.name}`.execute(tx);
  });
}

async function applyFile(db: AnyDb, file: MigrationFile): Promise<void> {
  if (!file.transaction) return applyInSteps(db, file);
  await retryingLocks(() =>
    db.transaction().execute(async (tx) => {
      await sql.raw(file.text).execute(tx);
      await sql`INSERT INTO schema_migrations (name) VALUES (${file.name})`.execute(tx);
    }),
  );
}

async function applyPending(
  db: AnyDb,
  files: MigrationFile[],
  onApplied: MigrateOptions["onApplied"],
): Promise<string[]> {
  await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
    name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(db);
  // The steps done of a file that runs outside a transaction and has not finished.
  await sql`CREATE TABLE IF NOT EXISTS schema_migration_steps (
    name text NOT NULL, step int NOT NULL, PRIMARY KEY (name, step))`.execute(db);
  const done = (await appliedMigrations(db)) ?? new Set<string>();
  refuseNewerSchema(done, files);
  const applied: string[] = [];
  await sql.raw(`SET lock_timeout = '${MIGRATION_LOCK_TIMEOUT}'`).execute(db);
  try {
    for (const file of files) {
      if (done.has(file.name)) continue;
      const started = performance.now();
      try {
        await applyFile(db, file);
      } catch (error) {
        const reason = ((error as Error).message ?? String(error)).split("\n")[0];
        throw new MigrationFailedError(
          `Migration ${file.name} failed: ${reason}${file.transaction ? " (nothing of it was applied)" : " (the steps done are kept; the next run goes on from there)"}`,
          { cause: error },
        );
      }
      applied.push(file.name);
      onApplied?.(file.name, performance.now() - started);
    }
  } finally {
    // The connection goes back to the pool: the site's own queries wait as long as they need.
    await sql`RESET lock_timeout`.execute(db);
  }
  return applied;
}

/**
 * Takes the migration lock, asking again every LOCK_POLL_MS rather than waiting inside
 * pg_advisory_lock: a session waiting in a statement holds a snapshot, and the lock holder's
 * `CREATE INDEX CONCURRENTLY` waits for every older snapshot to end. Waiting inside, the two would
 * wait on each other (PostgreSQL ends that as a deadlock).
 */
async function takeMigrationLock(connection: AnyDb): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_lock(${MIGRATION_LOCK_KEY}::int, hashtext(current_schema())) AS locked`.execute(
      connection,
    );
    if (rows[0]?.locked) return;
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}
const LOCK_POLL_MS = 250;

/**
 * Runs the numbered SQL files of db/migrations that have not run yet and answers the names it
 * applied: each file in its own transaction, or step by step when it starts with
 * NO_TRANSACTION_MARKER; every statement under MIGRATION_LOCK_TIMEOUT. When none is pending, that
 * is two small reads and no lock: a start with nothing to do takes nothing from the database.
 * Otherwise, with `advisoryLock`, the applied list is read again and the rest applied under the
 * lock, on one connection; a process that waited for it finds the work done and applies nothing.
 * A database that has applied a migration this build lacks is refused
 * (SchemaNewerThanBuildError) before anything runs.
 */
export async function migrate(db: AnyDb, options: MigrateOptions = {}): Promise<string[]> {
  const files = migrationFiles(options.dir);
  const before = await appliedMigrations(db);
  refuseNewerSchema(before, files);
  if (before && files.every((file) => before.has(file.name))) return [];

  // A session-level lock and setting belong to a connection: everything on the same one.
  return db.connection().execute(async (connection) => {
    if (!options.advisoryLock) return applyPending(connection, files, options.onApplied);
    await takeMigrationLock(connection);
    try {
      return await applyPending(connection, files, options.onApplied);
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY}::int, hashtext(current_schema()))`.execute(
        connection,
      );
    }
  });
}
