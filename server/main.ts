import cluster from "node:cluster";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config/env.ts";
import { createDb } from "../db/index.ts";
import { DataDirLockedError, lockDataDir } from "../db/lock.ts";
import { seedIfEmpty } from "../db/demo/seed-if-empty.ts";
import { createSiteJobQueue } from "../core/jobs/site-jobs.ts";
import { buildApp } from "./app.ts";
import { runPrimary } from "./cluster.ts";
import { drainPlugin, shutdownSequence } from "./shutdown.ts";

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
      process.exit(1);
    }
    throw error;
  }
  if (cluster.isPrimary && config.webConcurrency > 1) {
    await runPrimary(config, async (log) => {
      // Migrations (createDb) and demo data, once for every worker.
      const handle = await createDb({ databaseUrl: config.databaseUrl });
      try {
        await seedIfEmpty(handle.db, config, log);
      } finally {
        await handle.close();
      }
    });
    return;
  }
  await serve(config, releaseLock);
}

/** One server process: the only one, or one worker of several. */
async function serve(config: Config, releaseLock: () => void): Promise<void> {
  const worker = cluster.worker;
  let log: { warn(message: string): void } = console;
  const handle = await createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) =>
      log.warn(`database connection lost (${error.message}); it will be replaced`),
  });
  const jobs = createSiteJobQueue(handle);
  const { app } = await buildApp({
    config,
    db: handle.db,
    jobs,
    pool: handle.pool,
    pages: "build",
    ...(worker
      ? { logBase: { pid: process.pid, hostname: os.hostname(), worker: worker.id } }
      : {}),
  });
  log = app.log;
  // Once per start: with workers the primary has said it.
  if (!worker) for (const line of config.warnings) app.log.warn(line);
  // With workers the primary has filled an empty database already.
  if (!worker) await seedIfEmpty(handle.db, config, (line) => app.log.info(line));
  // Before listening: started after, a database fault in its first queries ended the process under
  // the load a restart meets (tests/integration/db-faults.test.ts).
  await jobs.start(app.log);

  // SIGTERM: stop accepting, answer in flight, close kept-alive connections, then these in order.
  await app.register(drainPlugin);
  const shutdown = shutdownSequence(app.log, [
    { name: "HTTP server", close: () => app.drain() },
    { name: "job queue", close: () => jobs.stop() },
    { name: "database", close: () => handle.close() },
    { name: "DATA_DIR lock", close: releaseLock },
  ]);
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `Chalkboard Deals is serving ${config.publicUrl} (database: ${handle.engine}, data: ${path.relative(process.cwd(), config.dataDir) || "."})`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await main();
}
