import cluster, { type Worker } from "node:cluster";
import os from "node:os";
import type { Config } from "../config/env.ts";
import { createLogger } from "../core/log/logger.ts";
import { sumWorkersMetrics } from "./metrics/cluster.ts";
import { WorkerRestartPolicy, RESTART_BACKOFF } from "./restart-policy.ts";
import { SHUTDOWN_TIMING } from "./shutdown.ts";

/**
 * The primary process of `npm start` with WEB_CONCURRENCY > 1 (PostgreSQL only;
 * docs/decisions/0052-compiled-start-and-processes.md). It serves nothing itself: it prepares the
 * database once (migrations, demo data), then runs WEB_CONCURRENCY workers, each a whole server
 * process listening on the same port (node:cluster hands the connections round). A worker that
 * dies unexpectedly is started again, after a pause that doubles while workers keep dying young;
 * after CRASH_LOOP_LIMIT young deaths in a row the primary stops the rest and exits 1
 * (server/restart-policy.ts). SIGTERM (or SIGINT) is passed to every worker, each drains as a
 * single server does (readiness off, serving on for SHUTDOWN_DRAIN_S, server/shutdown.ts), and the
 * primary exits when they have: 0 if every worker stopped cleanly.
 */

/** The primary's logger: the workers' (core/log/logger.ts), so one log reads as one stream. */
function primaryLog(level: string) {
  return createLogger({
    level,
    base: { pid: process.pid, hostname: os.hostname(), worker: "primary" },
  });
}

export async function runPrimary(
  config: Config,
  prepare: (log: { info(line: string): void; warn(line: string): void }) => Promise<void>,
): Promise<void> {
  const log = primaryLog(config.logLevel);
  for (const line of config.warnings) log.warn(line);
  const count = config.webConcurrency;
  await prepare({ info: (line) => log.info(line), warn: (line) => log.warn(line) });

  let stopping = false;
  const restartPolicy = new WorkerRestartPolicy();
  const pendingRestarts = new Set<NodeJS.Timeout>();
  const startedAt = new Map<Worker, number>();
  let exitCode = 0;

  // A worker that has exited can stay listed until its IPC channel has closed too.
  const liveWorkers = () =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && !w.isDead());

  const fork = () => {
    const worker = cluster.fork();
    startedAt.set(worker, Date.now());
    worker.once("listening", () =>
      log.info(`worker ${worker.id} (pid ${worker.process.pid}) is serving`),
    );
  };

  cluster.on("exit", (worker, code, signal) => {
    const lived = Date.now() - (startedAt.get(worker) ?? Date.now());
    startedAt.delete(worker);
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (stopping) {
      if (code !== 0) exitCode = 1;
      log.info(`worker ${worker.id} (pid ${worker.process.pid}) stopped (${how})`);
      if (liveWorkers().length === 0) process.exit(exitCode);
      return;
    }
    const decision = restartPolicy.workerExited({ livedMs: lived, code, signal });
    if (decision.action === "give-up") {
      log.error(
        `worker ${worker.id} (pid ${worker.process.pid}) exited (${how}) ${lived} ms after it started: ` +
          `${decision.youngInARow} workers in a row died within ${RESTART_BACKOFF.stableAfterMs / 1000} s of starting; ` +
          `giving up: stopping the other workers and exiting with code 1 so that the supervisor can act`,
      );
      exitCode = 1;
      stop("crash loop");
      return;
    }
    const delay = decision.delayMs;
    log.warn(
      `worker ${worker.id} (pid ${worker.process.pid}) exited unexpectedly (${how}); starting another in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      pendingRestarts.delete(timer);
      if (!stopping) fork();
    }, delay);
    pendingRestarts.add(timer);
  });

  const stop = (reason: NodeJS.Signals | "crash loop") => {
    if (stopping) return;
    stopping = true;
    for (const timer of pendingRestarts) clearTimeout(timer);
    const workers = liveWorkers();
    log.info(`${reason}: stopping ${workers.length} worker(s)`);
    if (workers.length === 0) process.exit(exitCode);
    // Each worker gets the signal the primary got (SIGTERM drains, SIGINT does not: server/main.ts).
    const signal = reason === "SIGINT" ? "SIGINT" : "SIGTERM";
    for (const worker of workers) worker.process.kill(signal);
    // Each worker exits by its own deadline (after its drain, on SIGTERM); one that does not is
    // killed a little later.
    const drainMs = signal === "SIGTERM" ? config.shutdownDrainSeconds * 1000 : 0;
    setTimeout(
      () => {
        for (const worker of liveWorkers()) {
          log.error(`worker ${worker.id} did not stop in time; killing it`);
          worker.process.kill("SIGKILL");
        }
        exitCode = 1;
      },
      drainMs + SHUTDOWN_TIMING.exitDeadlineMs + 2000,
    ).unref();
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));

  // A scrape that reaches any worker answers for them all.
  sumWorkersMetrics();
  log.info(`starting ${count} server processes (WEB_CONCURRENCY=${count})`);
  for (let i = 0; i < count; i++) fork();
}
