// `npm run worker`: a process that only works jobs (no HTTP), beside any number of server processes
// on the same PostgreSQL (docs/decisions/0024-job-queue.md). With the embedded database the server
// works the jobs itself: one process owns a data folder.
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config/env.ts";
import { createSiteJobQueue, workSiteJobs } from "../core/jobs/site-jobs.ts";
import { mailerFor } from "../core/mail/mailer.ts";
import { createMediaStorage } from "../core/media/storage.ts";
import { createDb } from "../db/index.ts";
import {
  describeConnections,
  reportConnectionBudget,
  workerConnections,
} from "../db/connection-budget.ts";
import { MigrationFailedError, SchemaNewerThanBuildError } from "../db/migrate.ts";
import { createLogger } from "../core/log/logger.ts";
import { endProcess } from "../server/exit.ts";
import { serveWorkerMetrics } from "../server/metrics/worker-server.ts";

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
  const perProcess = workerConnections(config.databasePoolSize);
  log.info(`this worker ${describeConnections(perProcess)}`);
  await reportConnectionBudget(handle.db, { processes: 1, perProcess, kind: "worker" }, log);
  const jobs = createSiteJobQueue(handle);
  await workSiteJobs(jobs, {
    db: handle.db,
    mailer: mailerFor(config, (line) => log.info(line)),
    now: () => new Date(),
    log,
    linkCheck: { allowLoopback: config.linkCheckAllowLoopback },
    publicUrl: config.publicUrl,
    media: createMediaStorage(config),
    mediaBaseUrl: config.mediaBaseUrl,
  });
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
