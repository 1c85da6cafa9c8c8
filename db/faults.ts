import { sql } from "kysely";
import type { Db } from "./index.ts";

/**
 * Database faults (docs/decisions/0023): which errors mean "the database cannot be reached right
 * now" rather than "this request is wrong". Such a request is answered 503 with Retry-After, never
 * 500, and the process keeps serving; the pool replaces the lost connections by itself.
 */

/** Seconds a client is asked to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

export const DATABASE_UNAVAILABLE_MESSAGE =
  "The site is temporarily unavailable. Please try again in a moment.";

// SQLSTATE: 57P01 admin_shutdown (pg_terminate_backend, a fast shutdown), 57P02 crash_shutdown,
// 57P03 cannot_connect_now (starting up or shutting down), 53300 too_many_connections.
// Class 08 is connection exceptions.
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300"]);
const UNAVAILABLE_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);
// node-postgres and pg-pool report a lost or unobtainable connection by message only.
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/, // "… unexpectedly", "… due to connection timeout"
  /^timeout exceeded when trying to connect/, // no client free within connectionTimeoutMillis
  /^Client has encountered a connection error and is not queryable/,
  // Closed while shutting down: the pool, or Kysely's driver over it.
  /^Cannot use a pool after calling end on the pool/,
  /^driver has already been destroyed/,
];

/** True when `error` (or its cause) says the database is unreachable, not that the query failed. */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 5) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    if (UNAVAILABLE_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
    if (UNAVAILABLE_SOCKET_CODES.has(code)) return true;
  }
  if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((m) => m.test(message))) {
    return true;
  }
  // Node's connect to a name with several addresses fails with an AggregateError of each attempt.
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

export type DatabaseState = "up" | "down";

export interface DatabaseProbe {
  /** "up" when a trivial query answers within the timeout; remembered for `cacheMs`. */
  state(): Promise<DatabaseState>;
}

/**
 * Asks the database itself, at most once per `cacheMs` however many health checks arrive, so a
 * load balancer polling /api/health costs one `select 1` a second.
 */
export function createDatabaseProbe(
  db: Db,
  { cacheMs = 1000, timeoutMs = 2000 }: { cacheMs?: number; timeoutMs?: number } = {},
): DatabaseProbe {
  let last: { state: DatabaseState; at: number } | undefined;
  let pending: Promise<DatabaseState> | undefined;

  async function probe(): Promise<DatabaseState> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<DatabaseState>((resolve) => {
      timer = setTimeout(() => resolve("down"), timeoutMs);
    });
    const query = sql`select 1`.execute(db).then(
      (): DatabaseState => "up",
      (): DatabaseState => "down",
    );
    try {
      return await Promise.race([query, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    state() {
      if (last && Date.now() - last.at < cacheMs) return Promise.resolve(last.state);
      pending ??= probe().then((state) => {
        last = { state, at: Date.now() };
        pending = undefined;
        return state;
      });
      return pending;
    },
  };
}
