import { sql } from "kysely";
import type { Db } from "./index.ts";

/**
 * How many PostgreSQL connections the site's processes may open, against what the server allows
 * (docs/decisions/0105-connection-budget.md, docs/deploy.md "Connections"). Pure arithmetic, apart
 * from readConnectionLimits.
 */

/** What the default DATABASE_POOL_SIZE is sized for: PostgreSQL's own default max_connections. */
export const POSTGRES_DEFAULT_MAX_CONNECTIONS = 100;
/** PostgreSQL's default superuser_reserved_connections. */
export const POSTGRES_DEFAULT_SUPERUSER_RESERVED = 3;
/**
 * Kept free beyond PostgreSQL's reserved slots: an admin's psql session, or a backup (its own
 * connection and pg_dump's, core/backup/database.ts).
 */
export const ADMIN_HEADROOM = 2;
/** Machines the default pool size fits, each running one server process per core. */
export const DEFAULT_MACHINES = 2;
/** `npm run worker` processes the default pool size fits beside them. */
export const DEFAULT_WORKERS = 1;
/**
 * The default never goes above this: one event loop gains nothing from more connections (the pool
 * size before DATABASE_POOL_SIZE existed, db/index.ts).
 */
export const DEFAULT_POOL_CEILING = 10;

/** The connections one process may hold at once. */
export interface ProcessConnections {
  /** The Kysely pool (db/index.ts), DATABASE_POOL_SIZE. */
  pool: number;
  /** pg-boss's own: none, it sends its statements through the pool (core/jobs/queue.ts). */
  jobs: number;
  /** The change broadcast's LISTEN connection (server/change-broadcast.ts). */
  listen: number;
  /** The readiness check's connection (db/readiness.ts). */
  readiness: number;
  total: number;
}

/**
 * What one process may open: a server process (`npm start`, or one of its WEB_CONCURRENCY workers)
 * and an `npm run worker` alike, as the worker announces its jobs' changes on the channel too
 * (docs/decisions/0106); a worker's readiness only with METRICS_PORT (counted anyway).
 */
export function processConnections(pool: number): ProcessConnections {
  const jobs = 0;
  const listen = 1;
  const readiness = 1;
  return { pool, jobs, listen, readiness, total: pool + jobs + listen + readiness };
}

/** The line each process logs at start. */
export function describeConnections(c: ProcessConnections): string {
  const jobs = c.jobs === 0 ? "jobs 0 (pg-boss shares the pool)" : `jobs ${c.jobs}`;
  return `opens up to ${c.total} connections to PostgreSQL: pool ${c.pool}, ${jobs}, listen ${c.listen}, readiness ${c.readiness}`;
}

/**
 * The default DATABASE_POOL_SIZE for `processesPerMachine` server processes a machine: the largest
 * pool with which DEFAULT_MACHINES such machines and DEFAULT_WORKERS workers fit PostgreSQL's
 * default max_connections, its reserved slots and ADMIN_HEADROOM, at most DEFAULT_POOL_CEILING and
 * at least 1 (with so many processes that not even 1 fits, the start's check says so).
 */
export function defaultPoolSize(processesPerMachine: number): number {
  const available =
    POSTGRES_DEFAULT_MAX_CONNECTIONS - POSTGRES_DEFAULT_SUPERUSER_RESERVED - ADMIN_HEADROOM;
  const servers = DEFAULT_MACHINES * processesPerMachine;
  // servers × (P + extra) + workers × (P + extra) ≤ available, solved for P.
  const fixed = (servers + DEFAULT_WORKERS) * processConnections(0).total;
  const pool = Math.floor((available - fixed) / (servers + DEFAULT_WORKERS));
  return Math.max(1, Math.min(DEFAULT_POOL_CEILING, pool));
}

/** What the PostgreSQL server allows (SHOW max_connections and the slots it keeps back). */
export interface ConnectionLimits {
  maxConnections: number;
  superuserReserved: number;
  /** reserved_connections (PostgreSQL 16 and later; 0 before). */
  reserved: number;
}

/** Reads the server's limits from pg_settings (which, unlike SHOW, ignores unknown names). */
export async function readConnectionLimits(db: Db): Promise<ConnectionLimits> {
  const { rows } = await sql<{ name: string; setting: string }>`
    SELECT name, setting FROM pg_settings
    WHERE name IN ('max_connections', 'superuser_reserved_connections', 'reserved_connections')`.execute(
    db,
  );
  const setting = (name: string) => Number(rows.find((r) => r.name === name)?.setting ?? 0);
  return {
    maxConnections: setting("max_connections"),
    superuserReserved: setting("superuser_reserved_connections"),
    reserved: setting("reserved_connections"),
  };
}

export interface BudgetCheck {
  /** What the site's processes may use: max_connections less the reserved slots and headroom. */
  available: number;
  /** This machine's processes × per process. */
  needed: number;
  /** How many machines like this one fit in `available`. */
  machinesFit: number;
  /** Whether even this machine alone could exceed `available`. */
  exceeds: boolean;
  /** One log line: the figures, and with `exceeds` what to do. */
  line: string;
}

/**
 * This machine's share: `processes` processes of `perProcess.total` each against the server's
 * limits. A process cannot know how many machines share the database, so the line says how many
 * like this one fit.
 */
export function checkConnectionBudget(options: {
  limits: ConnectionLimits;
  processes: number;
  perProcess: ProcessConnections;
  kind: "server process" | "worker";
}): BudgetCheck {
  const { limits, processes, perProcess, kind } = options;
  const reserved = limits.superuserReserved + limits.reserved + ADMIN_HEADROOM;
  const available = Math.max(0, limits.maxConnections - reserved);
  const needed = processes * perProcess.total;
  const machinesFit = Math.floor(available / needed);
  const exceeds = needed > available;
  const who = processes === 1 ? `this ${kind}` : `this machine's ${processes} ${pluralOf(kind)}`;
  const what = `${who} (${processes} × ${perProcess.total}) could open ${needed} connections`;
  const limit =
    `PostgreSQL allows ${available} (max_connections ${limits.maxConnections} − ${limits.superuserReserved} superuser_reserved_connections` +
    (limits.reserved ? ` − ${limits.reserved} reserved_connections` : "") +
    ` − ${ADMIN_HEADROOM} kept for an admin session or a backup)`;
  const fit =
    kind === "worker"
      ? `${machinesFit} worker${machinesFit === 1 ? "" : "s"} like this one fit, fewer beside server processes`
      : `${machinesFit} machine${machinesFit === 1 ? "" : "s"} of this size fit, fewer with \`npm run worker\` processes beside them`;
  const line = exceeds
    ? `connection budget: ${what}, more than ${limit}: lower DATABASE_POOL_SIZE (now ${perProcess.pool})${kind === "worker" ? "" : " or WEB_CONCURRENCY"}, raise max_connections, or put PgBouncer in front (docs/deploy.md, "Connections")`
    : `connection budget: ${what}; ${limit}: ${fit} (docs/deploy.md, "Connections")`;
  return { available, needed, machinesFit, exceeds, line };
}

function pluralOf(kind: string): string {
  return kind.endsWith("process") ? `${kind}es` : `${kind}s`;
}

interface BudgetLog {
  info(line: string): void;
  warn(line: string): void;
}

/**
 * Once per site start (the cluster primary, a single server process, a worker): reads the
 * server's limits and logs this machine's budget, as a warning when it could exceed them. A
 * failed read is said and does not stop the start: the budget is advice, the pool still works.
 */
export async function reportConnectionBudget(
  db: Db,
  options: { processes: number; perProcess: ProcessConnections; kind: "server process" | "worker" },
  log: BudgetLog,
): Promise<BudgetCheck | undefined> {
  let limits: ConnectionLimits;
  try {
    limits = await readConnectionLimits(db);
  } catch (error) {
    log.warn(
      `connection budget: could not read max_connections (${(error as Error).message}); not checked`,
    );
    return undefined;
  }
  const check = checkConnectionBudget({ limits, ...options });
  if (check.exceeds) log.warn(check.line);
  else log.info(check.line);
  return check;
}
