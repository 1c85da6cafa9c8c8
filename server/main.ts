import cluster from "node:cluster";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config/env.ts";
import { createDb } from "../db/index.ts";
import {
  describeConnections,
  reportConnectionBudget,
  processConnections,
} from "../db/connection-budget.ts";
import { MigrationFailedError, SchemaNewerThanBuildError } from "../db/migrate.ts";
import { createLogger } from "../core/log/logger.ts";
import { DataDirLockedError, lockDataDir } from "../db/lock.ts";
import { seedIfEmpty } from "../db/demo/seed-if-empty.ts";
import type { BackupSource } from "../core/backup/create.ts";
import { publishBackupAccess, type BackupAccess } from "../core/backup/server-access.ts";
import { createSiteJobQueue } from "../core/jobs/site-jobs.ts";
import { buildApp } from "./app.ts";
import { runPrimary } from "./cluster.ts";
import { endProcess } from "./exit.ts";
import { SHUTDOWN_TIMING, shutdownSequence } from "./shutdown.ts";

/**
 * Starts the production server: config, lock, database, demo data, listen, graceful shutdown. With
 * WEB_CONCURRENCY above 1 (PostgreSQL only) this process becomes the primary of node:cluster: it
 * migrates and seeds once, then runs that many worker processes, which each call main() and serve
 * the same port (docs/decisions/0052-compiled-start-and-processes.md).
 */
export async function main(env = process.env): Promise<void> {
  let config: Config;
  let releaseLock = () => {};
  try {
    config = loadConfig(env);
    if (!config.databaseUrl) releaseLock = lockDataDir(config.dataDir);
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError) {
      console.error(error.message);
      endProcess(1);
      return;
    }
    throw error;
  }
  try {
    if (cluster.isPrimary && config.webConcurrency > 1) {
      await runPrimary(config, async (log) => {
        // Migrations (createDb) and demo data, once for every worker.
        const handle = await createDb({
          databaseUrl: config.databaseUrl,
          poolSize: config.databasePoolSize,
        });
        try {
          // Once for the machine: its WEB_CONCURRENCY processes against max_connections.
          await reportConnectionBudget(
            handle.db,
            {
              processes: config.webConcurrency,
              perProcess: processConnections(config.databasePoolSize),
              kind: "server process",
            },
            log,
          );
          await seedIfEmpty(handle.db, config, (line) => log.info(line));
        } finally {
          await handle.close();
        }
      });
      return;
    }
    await serve(config, releaseLock);
  } catch (error) {
    // A database newer than this build, or a migration that failed: one line, and no start.
    if (error instanceof SchemaNewerThanBuildError || error instanceof MigrationFailedError) {
      console.error(error.message);
      endProcess(1);
      return;
    }
    throw error;
  }
}

/** One server process: the only one, or one worker of several. */
async function serve(config: Config, releaseLock: () => void): Promise<void> {
  const worker = cluster.worker;
  // Until the app's logger exists, lines go through one like it (core/log/logger.ts).
  let log: { warn(message: string): void } = createLogger({ level: config.logLevel });
  const handle = await createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    onConnectionError: (error) =>
      log.warn(`database connection lost (${error.message}); it will be replaced`),
  });
  const jobs = createSiteJobQueue(handle);
  // The database the console's "Download a backup" and `npm run backup` copy (server/routes/backup.ts).
  const backupSource: BackupSource = {
    ...(handle.engine === "pglite"
      ? { engine: "pglite" as const, pool: handle.pool, dumpImage: handle.dumpImage! }
      : { engine: "postgres" as const, databaseUrl: config.databaseUrl! }),
    dataDir: config.dataDir,
    ...(config.s3 ? { s3: config.s3 } : {}),
  };
  let backupAccess: BackupAccess | undefined;
  const { app } = await buildApp({
    config,
    db: handle.db,
    readiness: handle.readiness,
    jobs,
    pool: handle.pool,
    pages: "build",
    backup: { source: backupSource, access: () => backupAccess },
    ...(worker
      ? { logBase: { pid: process.pid, hostname: os.hostname(), worker: worker.id } }
      : {}),
  });
  log = app.log;
  // Once per start: with workers the primary has said it.
  if (!worker) for (const line of config.warnings) app.log.warn(line);
  if (handle.engine === "postgres") {
    const perProcess = processConnections(config.databasePoolSize);
    app.log.info(`this server process ${describeConnections(perProcess)}`);
    // With workers the primary has checked the machine's budget.
    if (!worker) {
      await reportConnectionBudget(
        handle.db,
        { processes: 1, perProcess, kind: "server process" },
        app.log,
      );
    }
  }
  // With workers the primary has filled an empty database already.
  if (!worker) await seedIfEmpty(handle.db, config, (line) => app.log.info(line));
  // Before listening: started after, a database fault in its first queries ended the process under
  // the load a restart meets (tests/integration/db-faults.test.ts).
  await jobs.start(app.log);

  // SIGTERM: readiness off at once, serve on for SHUTDOWN_DRAIN_S with `Connection: close`, stop
  // accepting, answer what is in flight, then these in order (server/shutdown.ts). SIGINT (a
  // terminal's Ctrl-C) skips the serving on: no load balancer is waiting to hear of it.
  const drainMs = config.shutdownDrainSeconds * 1000;
  const shutdown = shutdownSequence(
    app.log,
    [
      { name: "HTTP server", close: (signal) => app.drain(signal === "SIGTERM" ? drainMs : 0) },
      { name: "job queue", close: () => jobs.stop() },
      { name: "backup access", close: () => backupAccess?.remove() },
      { name: "database", close: () => handle.close() },
      { name: "DATA_DIR lock", close: releaseLock },
    ],
    { exitDeadlineMs: drainMs + SHUTDOWN_TIMING.exitDeadlineMs },
  );
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  if (handle.engine === "pglite") {
    // This process owns DATA_DIR: `npm run backup` asks it (core/backup/server-access.ts).
    const { port } = app.server.address() as AddressInfo;
    backupAccess = publishBackupAccess(config.dataDir, `http://${localHost(config.host)}:${port}`);
  }
  app.log.info(
    `Chalkboard Deals is serving ${config.publicUrl} (database: ${handle.engine}, data: ${path.relative(process.cwd(), config.dataDir) || "."})`,
  );
}

/** Where a command on this machine reaches a server bound to `host`. */
function localHost(host: string): string {
  if (host === "0.0.0.0" || host === "") return "127.0.0.1";
  if (host === "::") return "[::1]";
  return host.includes(":") ? `[${host}]` : host;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
