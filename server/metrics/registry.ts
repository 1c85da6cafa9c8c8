import type pg from "pg";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { JobQueue } from "../../core/jobs/queue.ts";
import type { MailOutcome } from "../../core/mail/delivery-repository.ts";
import { onMailOutcome } from "../../core/metrics/counts.ts";

/**
 * The site's Prometheus metrics (docs/decisions/0094-metrics.md), every family in this one file.
 * A server process (server/plugins/metrics.ts) has them all; `npm run worker`
 * (server/metrics/worker-server.ts) has the job, mail, pool and process ones.
 */

const PREFIX = "chalkboard_";
const MAIL_OUTCOMES: readonly MailOutcome[] = ["sent", "failed", "suppressed"];
/** pg-boss's states, as the metrics name them: waiting (first try or a retry), running, failed. */
const JOB_STATES = { created: "queued", retry: "queued", active: "active", failed: "failed" };

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event loop, garbage collection: collectDefaultMetrics),
 * made once per process: they watch the process through timers and hooks that cannot be undone,
 * and a test process builds many apps.
 */
export function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface MetricsSources {
  /** The database pool (node-postgres; PGlite's is a pool of its one connection). */
  pool?: pg.Pool;
  /** The job queue, whose jobs are counted by kind at each scrape. */
  jobs?: JobQueue;
  /** Whether this process answers HTTP requests and pages (false: `npm run worker`). */
  requests?: boolean;
}

export interface SiteMetrics {
  /** This app's families; `processMetrics()` holds the process's own. */
  registry: Registry;
  /** Both registries' text, for one scrape. */
  text(): Promise<string>;
  contentType: string;
  request(labels: { method: string; route: string; status: number }, seconds: number): void;
  pageCache(outcome: "hit" | "miss"): void;
  /** Stops hearing core's counts (the app closed). */
  close(): void;
}

/**
 * This app's families in a registry of their own: a test process may build several apps, each
 * closing its own. Counts start at zero for every label value known in advance, so a family is in
 * the first scrape and a rate over it needs no first increment.
 */
export function createSiteMetrics(sources: MetricsSources): SiteMetrics {
  const registry = new Registry();
  const registers = [registry];

  const serves = sources.requests !== false;
  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: "HTTP requests answered, by method, route template (a page's React Router pattern) and status",
    labelNames: ["method", "route", "status"] as const,
    registers: serves ? registers : [],
  });
  const durations = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: "Time from a request's arrival to its answer's end, by method and route template",
    labelNames: ["method", "route"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: serves ? registers : [],
  });

  const pageCache = new Counter({
    name: `${PREFIX}page_cache_requests_total`,
    help: "Anonymous page requests answered from the page cache (hit) or rendered (miss)",
    labelNames: ["outcome"] as const,
    registers: serves ? registers : [],
  });
  pageCache.inc({ outcome: "hit" }, 0);
  pageCache.inc({ outcome: "miss" }, 0);

  const mail = new Counter({
    name: `${PREFIX}mail_total`,
    help: "Mails sent, failed for good (the address is then undeliverable) and suppressed (not sent to an undeliverable address)",
    labelNames: ["outcome"] as const,
    registers,
  });
  for (const outcome of MAIL_OUTCOMES) mail.inc({ outcome }, 0);
  const stopHearingMail = onMailOutcome((outcome) => mail.inc({ outcome }));

  const { pool, jobs } = sources;
  if (pool) {
    new Gauge({
      name: `${PREFIX}db_pool_connections_in_use`,
      help: "Database connections checked out of this process's pool",
      registers,
      collect() {
        this.set(pool.totalCount - pool.idleCount);
      },
    });
    new Gauge({
      name: `${PREFIX}db_pool_connections_open`,
      help: "Database connections this process's pool holds open, in use or idle",
      registers,
      collect() {
        this.set(pool.totalCount);
      },
    });
    new Gauge({
      name: `${PREFIX}db_pool_waiting`,
      help: "Queries waiting for a connection from this process's pool",
      registers,
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  if (jobs) {
    const readJobs = latestOnly(() => jobs.countsByKind());
    new Gauge({
      name: `${PREFIX}jobs`,
      help: "Jobs in the database's queue by kind and state (queued, active, failed): the same for every process, so take max, not sum, across processes",
      labelNames: ["kind", "state"] as const,
      // Each server process reads the same database: summed, a cluster's scrape would count each
      // job once per process.
      aggregator: "max",
      registers,
      async collect() {
        this.reset();
        let counts: Awaited<ReturnType<JobQueue["countsByKind"]>>;
        try {
          counts = await readJobs();
        } catch {
          // The database is away: the other families still answer (the pool's say so).
          return;
        }
        for (const kind of jobs.kinds) {
          for (const state of new Set(Object.values(JOB_STATES))) this.set({ kind, state }, 0);
        }
        for (const { kind, state, jobs: count } of counts) {
          const named = JOB_STATES[state as keyof typeof JOB_STATES];
          if (named) this.inc({ kind, state: named }, count);
        }
      },
    });
  }

  const both = () => Registry.merge([processMetrics(), registry]);
  return {
    registry,
    contentType: registry.contentType,
    text: () => both().metrics(),
    request({ method, route, status }, seconds) {
      requests.inc({ method, route, status: String(status) });
      durations.observe({ method, route }, seconds);
    },
    pageCache(outcome) {
      pageCache.inc({ outcome });
    },
    close: stopHearingMail,
  };
}

/** Calls that overlap share the one running: scrapes from two Prometheus servers, one query. */
function latestOnly<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= read().finally(() => {
      running = undefined;
    });
    return running;
  };
}
