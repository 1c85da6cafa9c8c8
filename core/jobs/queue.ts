import { sql } from "kysely";
import type pg from "pg";
import { PgBoss, fromKysely, type Db as BossDb, type JobWithMetadata, type Queue } from "pg-boss";
import type { DbHandle, DbOrTx } from "../../db/index.ts";
import type { JobKind } from "./job.ts";

/** One attempt at a job, as its handler sees it. */
export interface JobAttempt {
  id: string;
  /** 1 for the first attempt, 2 for the first retry, … */
  attempt: number;
  /** When the job was added: how long it has been waiting and retried (the mail job's 24 hours). */
  createdOn: Date;
  /** Aborted when the queue stops before the handler has finished (the job is then retried). */
  signal: AbortSignal;
}

export type JobHandler<Data> = (data: Data, attempt: JobAttempt) => Promise<void>;

/** A job that has not finished yet: waiting, waiting to be retried, or running. */
export interface UnfinishedJob {
  id: string;
  kind: string;
  state: "created" | "retry" | "active";
  /** Attempts begun so far: the running one included, the one waited for not. */
  attempts: number;
}

/**
 * The site's job queue (docs/decisions/0024-job-queue.md): pg-boss, in the site's own database.
 * Jobs are rows, so they outlive the process that added them; a job runs in one process at a
 * time, whichever claims it first (SELECT … FOR UPDATE SKIP LOCKED).
 */
export interface JobQueue {
  /** The schema its tables are in. */
  readonly schema: string;
  /** Whether this process works jobs, or only sends them (JobQueueOptions.work). */
  readonly working: boolean;
  /**
   * Whether jobs are being worked now: start() got through in a process that works jobs, and
   * neither stop() nor pg-boss itself has stopped the queue since. What `npm run worker`'s
   * readiness asks (server/metrics/worker-server.ts).
   */
  isWorking(): boolean;
  /**
   * Adds a job. With `tx` (a transaction, or the database) the job is written through it, so it
   * exists if and only if that transaction commits.
   */
  send<Data extends object>(
    kind: JobKind<Data>,
    data: Data,
    tx?: DbOrTx,
    options?: SendOptions,
  ): Promise<void>;
  /**
   * Makes this process work jobs of `kind` with `handler` (replacing its earlier handler, so a
   * development rebuild can register again). A handler that throws fails the attempt, and the job
   * is retried as its kind says.
   */
  work<Data extends object>(kind: JobKind<Data>, handler: JobHandler<Data>): Promise<void>;
  /**
   * Installs or updates the queue's tables, creates the queues and schedules, and starts working;
   * the queue's own errors and warnings go to `log` from then on.
   */
  start(log: JobLog): Promise<void>;
  /**
   * Stops taking jobs and waits up to `timeoutMs` for running ones; those still running then are
   * handed back (failed as an attempt, so another process or the next start retries them).
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Jobs not finished yet, of one kind or of all; for tests and operators. */
  unfinished(kind?: JobKind<object>): Promise<UnfinishedJob[]>;
  /** The kinds that run on a cron schedule, as the database holds them. */
  schedules(): Promise<{ kind: string; cron: string; timezone: string }[]>;
  /**
   * How many jobs of `kind` are in each of pg-boss's states now (created, retry, active, failed…;
   * a state with none is left out): what an operator's page shows of a queue.
   */
  countByState(kind: JobKind<object>): Promise<Partial<Record<JobState, number>>>;
  /** The names of the kinds this queue knows. */
  readonly kinds: readonly string[];
  /**
   * How many jobs of every kind are waiting, running or failed, in one query: what the metrics read
   * at each scrape (server/metrics/registry.ts). A kind and state with none is left out.
   */
  countsByKind(): Promise<{ kind: string; state: JobState; jobs: number }[]>;
}

/** pg-boss's job states (its `job_state` type). */
export type JobState = "created" | "retry" | "active" | "completed" | "cancelled" | "failed";

/** How one job is sent. */
export interface SendOptions {
  /** The job waits this long before any worker may take it (spacing work out over time). */
  startAfterSeconds?: number;
}

export interface JobLog {
  warn(msg: string): void;
  error(msg: string | object): void;
}

export interface JobQueueOptions {
  /** Every kind this process may send or work: their queues are created at start. */
  kinds: readonly JobKind<object>[];
  /** The schema pg-boss keeps its tables in. */
  schema?: string;
  /**
   * Whether this process works jobs (default true, as `npm start` and `npm run worker` do). With
   * false the queue is installed and takes jobs, but no handler is attached, no cron job is added
   * and no maintenance runs: a test app that never waits for a job polls nothing
   * (tests/helpers/app.ts, docs/decisions/0077).
   */
  work?: boolean;
}

export const DEFAULT_JOBS_SCHEMA = "pgboss";

/**
 * pg-boss's statements over the site's own pool (with PGlite, its one connection, so pg-boss waits
 * its turn like any request). pg-boss sends some BEGIN … COMMIT blocks as one multi-statement
 * text: one that fails leaves its connection inside an aborted transaction, which on PGlite is
 * every query's connection (record 0075), so the failure is rolled back on the same connection
 * before it returns.
 */
function poolAdapter(pool: pg.Pool): BossDb {
  return {
    async executeSql(text, values) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        return await client.query(text, values);
      } catch (error) {
        await client.query("ROLLBACK").catch((rollbackError: Error) => {
          broken = rollbackError;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

function queueOptions(kind: JobKind<object>): Omit<Queue, "name"> {
  return {
    retryLimit: kind.retryLimit,
    retryDelay: kind.retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: kind.retryDelayMaxSeconds,
    expireInSeconds: kind.timeoutSeconds,
    deleteAfterSeconds: kind.keepSeconds,
  };
}

const UNFINISHED = new Set(["created", "retry", "active"]);

export function createJobQueue(database: DbHandle, options: JobQueueOptions): JobQueue {
  const { kinds, work: working = true } = options;
  const schema = options.schema ?? DEFAULT_JOBS_SCHEMA;
  const boss = new PgBoss({
    db: poolAdapter(database.pool),
    schema,
    backend: database.engine === "pglite" ? "pglite" : "postgres",
    // Workers poll; there is no dedicated LISTEN connection (PGlite has only the one).
    useListenNotify: false,
    // The timers that add cron jobs and expire, retry and delete old ones run where jobs are worked.
    supervise: working,
    schedule: working,
  });

  // Until start() names the process's log, problems go to the console.
  let log: JobLog = console;
  boss.on("error", (error) => log.error({ msg: "job queue error", err: error }));
  boss.on("warning", (warning) => log.warn(`job queue: ${warning.message}`));

  const known = new Map(kinds.map((kind) => [kind.name, kind]));
  const handlers = new Map<string, JobHandler<never>>();
  const workerIds = new Map<string, string>();
  /** pg-boss is running (its timers too), whether or not the rest of start() got through. */
  let running = false;
  /** start() got through in a process that works jobs: handlers are attached as they come. */
  let started = false;
  // However pg-boss stopped, no job is worked from then on (isWorking).
  boss.on("stopped", () => {
    started = false;
  });

  function knownKind(kind: JobKind<object>): JobKind<object> {
    const found = known.get(kind.name);
    if (!found) throw new Error(`job kind ${kind.name} is not one of the queue's kinds`);
    return found;
  }

  async function attach(kind: JobKind<object>, handler: JobHandler<never>) {
    const previous = workerIds.get(kind.name);
    if (previous) await boss.offWork(kind.name, { id: previous, wait: false });
    const id = await boss.work(
      kind.name,
      { pollingIntervalSeconds: kind.pollSeconds, batchSize: 1, includeMetadata: true },
      async ([job]: JobWithMetadata<object>[]) => {
        if (!job) return;
        await (handler as JobHandler<object>)(job.data, {
          id: job.id,
          attempt: job.retryCount + 1,
          createdOn: job.createdOn,
          signal: job.signal,
        });
      },
    );
    workerIds.set(kind.name, id);
  }

  return {
    schema,
    working,
    isWorking: () => started,
    async send(kind, data, tx, options = {}) {
      knownKind(kind);
      await boss.send(kind.name, data, {
        ...(tx ? { db: fromKysely(tx) } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      });
    },

    async work(kind, handler) {
      knownKind(kind);
      handlers.set(kind.name, handler as JobHandler<never>);
      if (started) await attach(kind, handler as JobHandler<never>);
    },

    async start(processLog) {
      if (running) return;
      log = processLog;
      await boss.start();
      running = true;
      for (const kind of kinds) {
        // createQueue leaves an existing queue as it is; updateQueue brings its retry rules up to
        // date with the code.
        await boss.createQueue(kind.name, queueOptions(kind));
        await boss.updateQueue(kind.name, queueOptions(kind));
        if (kind.cron) await boss.schedule(kind.name, kind.cron, {}, { tz: "UTC" });
        else await boss.unschedule(kind.name);
      }
      if (!working) return;
      started = true;
      for (const [name, handler] of handlers) await attach(known.get(name)!, handler);
    },

    async stop({ timeoutMs = 5_000 } = {}) {
      if (!running) return;
      running = false;
      started = false;
      workerIds.clear();
      await boss.stop({ graceful: true, timeout: timeoutMs });
    },

    async unfinished(kind) {
      const names = kind ? [knownKind(kind).name] : [...known.keys()];
      const found: UnfinishedJob[] = [];
      for (const name of names) {
        for (const job of await boss.findJobs(name)) {
          if (!UNFINISHED.has(job.state)) continue;
          found.push({
            id: job.id,
            kind: name,
            state: job.state as UnfinishedJob["state"],
            // retryCount goes up when a job is claimed again, so a job waiting to be retried has
            // failed retryCount + 1 times.
            attempts: job.state === "created" ? 0 : job.retryCount + 1,
          });
        }
      }
      return found;
    },

    async countByState(kind) {
      const { name } = knownKind(kind);
      // pg-boss has no call that counts by state (getQueueStats counts queued and active only);
      // its job table holds every queue's jobs, with a partition per queue.
      const { rows } = await sql<{ state: JobState; jobs: number }>`
        SELECT state::text AS state, count(*)::int AS jobs
        FROM ${sql.table(`${schema}.job`)}
        WHERE name = ${name}
        GROUP BY state`.execute(database.db);
      return Object.fromEntries(rows.map((row) => [row.state, Number(row.jobs)]));
    },

    kinds: [...known.keys()],

    async countsByKind() {
      // Completed and cancelled jobs, the many that pg-boss keeps for a while, are not counted.
      const { rows } = await sql<{ kind: string; state: JobState; jobs: number }>`
        SELECT name AS kind, state::text AS state, count(*)::int AS jobs
        FROM ${sql.table(`${schema}.job`)}
        WHERE name IN (${sql.join([...known.keys()])})
          AND state::text IN ('created', 'retry', 'active', 'failed')
        GROUP BY name, state`.execute(database.db);
      return rows.map((row) => ({ ...row, jobs: Number(row.jobs) }));
    },

    async schedules() {
      const rows = await boss.getSchedules();
      return rows
        .filter((row) => known.has(row.name))
        .map((row) => ({ kind: row.name, cron: row.cron, timezone: row.timezone }));
    },
  };
}

/**
 * Deletes the jobs of `kind` whose data's text field `field` is `value` (case-insensitively):
 * those not started yet (waiting, or waiting to be retried) and the finished ones pg-boss keeps for
 * a while, through `db` (the caller's transaction: they go if and only if it commits). A running
 * job is left to finish. pg-boss keeps every job in its schema's `job` table, whose `name` is the
 * kind and `data` the job's JSON. Returns how many went.
 */
export async function deleteJobsNotRunning<Data extends object>(
  db: DbOrTx,
  schema: string,
  kind: JobKind<Data>,
  match: { field: keyof Data & string; value: string },
): Promise<number> {
  const result = await sql`
    DELETE FROM ${sql.table(`${schema}.job`)}
     WHERE name = ${kind.name}
       AND state::text <> 'active'
       AND lower(data ->> ${match.field}) = ${match.value.toLowerCase()}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
