// `npm run worker`: a process that only works jobs (no HTTP), beside any number of server processes
// on the same PostgreSQL (docs/decisions/0024-job-queue.md). With the embedded database the server
// works the jobs itself: one process owns a data folder.
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config/env.ts";
import { createChangeFeed } from "../core/cache/changes.ts";
import type { JobQueue } from "../core/jobs/queue.ts";
import { createSiteJobQueue, workSiteJobs } from "../core/jobs/site-jobs.ts";
import { mailerFor } from "../core/mail/mailer.ts";
import { createMediaStorage } from "../core/media/storage.ts";
import { createDb, type DbHandle } from "../db/index.ts";
import {
  describeConnections,
  reportConnectionBudget,
  processConnections,
} from "../db/connection-budget.ts";
import { MigrationFailedError, SchemaNewerThanBuildError } from "../db/migrate.ts";
import { createLogger } from "../core/log/logger.ts";
import { startChangeBroadcast, type ChangeBroadcast } from "../server/change-broadcast.ts";
import { endProcess } from "../server/exit.ts";
import { serveWorkerMetrics } from "../server/metrics/worker-server.ts";

/**
 * Makes `jobs` work every kind of job with the worker's dependencies, and announces what the jobs
 * write to every server on the database, exactly as a request's writes are
 * (docs/decisions/0106-change-channel-across-hosts.md): this process has no caches of its own,
 * but the servers' pages and TtlCaches show what the jobs change. The broadcast is the caller's to
 * close. Apart from `runWorker` so a test can run the worker's jobs without a process of its own.
 */
export async function workWorkerJobs(
  config: Config,
  handle: DbHandle,
  jobs: JobQueue,
  log: ReturnType<typeof createLogger>,
): Promise<ChangeBroadcast | null> {
  const changes = createChangeFeed(log);
  const broadcast = await startChangeBroadcast({
    changes,
    db: handle.db,
    databaseUrl: config.databaseUrl,
    log,
  });
  try {
    await workSiteJobs(jobs, {
      db: handle.db,
      mailer: mailerFor(config, (line) => log.info(line)),
      now: () => new Date(),
      log,
      changes,
      linkCheck: { allowLoopback: config.linkCheckAllowLoopback },
      push: { allowLoopback: config.pushAllowLoopback },
      publicUrl: config.publicUrl,
      media: createMediaStorage(config),
      mediaBaseUrl: config.mediaBaseUrl,
    });
  } catch (error) {
    await broadcast?.close();
    throw error;
  }
  return broadcast;
}

export async function runWorker(env = process.env): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return endProcess(1);
    }
    throw error;
  }
  if (!config.databaseUrl) {
    console.error(
      "npm run worker needs DATABASE_URL: with the embedded database the server works the jobs itself.",
    );
    return endProcess(1);
  }

  // The server's format (core/log/logger.ts): one JSON object a line, secrets redacted.
  const log = createLogger({ level: config.logLevel });
  for (const line of config.warnings) log.warn(line);
  let handle: Awaited<ReturnType<typeof createDb>>;
  try {
    handle = await createDb({ databaseUrl: config.databaseUrl, poolSize: config.databasePoolSize });
  } catch (error) {
    // A database newer than this build, or a migration that failed: one line, and no start.
    if (error instanceof SchemaNewerThanBuildError || error instanceof MigrationFailedError) {
      console.error(error.message);
      return endProcess(1);
    }
    throw error;
  }
  const perProcess = processConnections(config.databasePoolSize);
  log.info(`this worker ${describeConnections(perProcess)}`);
  await reportConnectionBudget(handle.db, { processes: 1, perProcess, kind: "worker" }, log);
  const jobs = createSiteJobQueue(handle);
  let broadcast: ChangeBroadcast | null;
  try {
    broadcast = await workWorkerJobs(config, handle, jobs, log);
  } catch (error) {
    // The database went away between the migration and the channel: one line, and no start.
    console.error(`The worker cannot start its jobs: ${(error as Error).message}`);
    await handle.close();
    return endProcess(1);
  }
  let stopping = false;
  // METRICS_PORT: this process's job, mail and process metrics (docs/decisions/0094-metrics.md),
  // and its liveness and readiness for compose's health check (docs/decisions/0098).
  let metrics: Awaited<ReturnType<typeof serveWorkerMetrics>> | undefined;
  if (config.metricsPort) {
    try {
      metrics = await serveWorkerMetrics({
        port: config.metricsPort,
        host: config.host,
        token: config.metricsToken,
        pool: handle.pool,
        jobs,
        readiness: handle.readiness,
        working: () => jobs.isWorking(),
        stopping: () => stopping,
      });
    } catch (error) {
      console.error(
        `The worker cannot serve its metrics on ${config.host}:${config.metricsPort} (METRICS_PORT): ${(error as Error).message}`,
      );
      await broadcast?.close();
      await handle.close();
      return endProcess(1);
    }
  }
  await jobs.start(log);

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true; // readiness answers "draining" while the running jobs finish
    log.info(`${signal}: finishing running jobs, then exiting`);
    await jobs.stop(); // running jobs finish, or are handed back for another process
    await metrics?.close();
    await broadcast?.close(); // after the jobs: what they wrote last is announced
    await handle.close();
    endProcess(0);
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
  log.info("Chalkboard Deals worker: working jobs (no HTTP)");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await runWorker();
}
