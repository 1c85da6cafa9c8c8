import pg from "pg";
import { migrationFiles } from "./migrate.ts";

/**
 * What readiness (`GET /readyz`, server/routes/probes.ts) asks the database, apart from the app's
 * pool, so that a pool busy with slow requests is never taken for a database that is down
 * (docs/decisions/0093-health-and-readiness.md).
 */

/** Why the database side of readiness is not ready, or "ready". */
export type DatabaseReadinessState = "ready" | "database" | "migrations";

export interface DatabaseReadiness {
  /** A fresh answer at most every `cacheMs`; however many probes arrive, one check runs at a time. */
  check(): Promise<DatabaseReadinessState>;
  close(): Promise<void>;
}

export const READINESS_TIMING = {
  /** A check that has not answered by then counts as "database". */
  timeoutMs: 2000,
  /** How long one answer serves every probe. */
  cacheMs: 1000,
};

type Timing = typeof READINESS_TIMING;

/** Whether `applied` (schema_migrations' names) covers every file in db/migrations. */
export function migrationsCurrent(applied: Iterable<string>): boolean {
  const names = new Set(applied);
  return migrationFiles().every((file) => names.has(file.name));
}

/** Rejects with `TimeoutError` once `ms` have passed; `work` itself is not cancelled. */
class TimeoutError extends Error {}
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new TimeoutError(`no answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** One check at a time, remembered for `cacheMs`. */
function cached(
  run: () => Promise<DatabaseReadinessState>,
  cacheMs: number,
): () => Promise<DatabaseReadinessState> {
  let last: { state: DatabaseReadinessState; at: number } | undefined;
  let pending: Promise<DatabaseReadinessState> | undefined;
  return () => {
    if (last && Date.now() - last.at < cacheMs) return Promise.resolve(last.state);
    pending ??= run()
      .catch((): DatabaseReadinessState => "database")
      .then((state) => {
        last = { state, at: Date.now() };
        pending = undefined;
        return state;
      });
    return pending;
  };
}

/**
 * PostgreSQL: one connection of its own (not the pool's), opened when first needed, with its own
 * connect and statement time limits. It reads schema_migrations, which both shows that the
 * database answers and whether every migration file is applied. A connection that failed or timed
 * out is dropped, and the next check opens a new one.
 */
export function postgresReadiness(
  connection: pg.ClientConfig,
  timing: Timing = READINESS_TIMING,
): DatabaseReadiness {
  let client: pg.Client | undefined;
  let connected: Promise<pg.Client> | undefined;
  let closed = false;

  const drop = () => {
    const gone = client;
    client = undefined;
    connected = undefined;
    // Not awaited: over a cut network, ending politely can take as long as the cut.
    gone?.end().catch(() => undefined);
  };

  const open = (): Promise<pg.Client> => {
    connected ??= (async () => {
      const fresh = new pg.Client({
        application_name: "chalkboard-deals-readiness",
        ...connection,
        connectionTimeoutMillis: timing.timeoutMs,
        statement_timeout: timing.timeoutMs,
      });
      client = fresh;
      // A connection lost while idle emits 'error': unheard, that would end the process.
      fresh.on("error", () => {
        if (client === fresh) drop();
      });
      await fresh.connect();
      return fresh;
    })();
    return connected;
  };

  const check = cached(async () => {
    if (closed) return "database";
    try {
      const rows = await within(
        timing.timeoutMs,
        open().then((c) => c.query<{ name: string }>("SELECT name FROM schema_migrations")),
      );
      return migrationsCurrent(rows.rows.map((row) => row.name)) ? "ready" : "migrations";
    } catch (error) {
      // 42P01 undefined_table: the database answers, but no migration has run in this schema.
      if ((error as { code?: string }).code === "42P01") return "migrations";
      drop();
      return "database";
    }
  }, timing.cacheMs);

  return {
    check,
    async close() {
      closed = true;
      const gone = client;
      client = undefined;
      connected = undefined;
      await gone?.end().catch(() => undefined);
    },
  };
}

/**
 * The embedded database: PGlite has one session, which the app's one connection uses (record
 * 0075), and a second connection would queue behind any transaction the app holds open. So the
 * check asks PGlite's thread instead (`ping`): it answers between queries, from the event loop
 * that runs them, without touching the session, and fails once PGlite has closed or its thread
 * has ended. The schema was read at start (`schemaCurrent`, right after migrating), and it stays
 * as it was: only this process opens the folder (db/lock.ts).
 */
export function pgliteReadiness(
  ping: () => Promise<void>,
  schemaCurrent: boolean,
  timing: Timing = READINESS_TIMING,
): DatabaseReadiness {
  const check = cached(async () => {
    try {
      await within(timing.timeoutMs, ping());
    } catch {
      return "database";
    }
    return schemaCurrent ? "ready" : "migrations";
  }, timing.cacheMs);
  return { check, close: async () => {} };
}
