import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config/env.ts";
import { createDb } from "../db/index.ts";
import { DataDirLockedError, lockDataDir } from "../db/lock.ts";
import { seedIfEmpty } from "../db/demo/seed-if-empty.ts";
import { createSiteJobQueue } from "../core/jobs/site-jobs.ts";
import { buildApp } from "./app.ts";
import { httpDrain, shutdownSequence } from "./shutdown.ts";

/** Starts the production server: config, lock, database, demo data, listen, graceful shutdown. */
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

  let log: { warn(message: string): void } = console;
  const handle = await createDb({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    onConnectionError: (error) =>
      log.warn(`database connection lost (${error.message}); it will be replaced`),
  });
  const jobs = createSiteJobQueue(handle);
  const { app } = await buildApp({ config, db: handle.db, jobs, pages: "build" });
  log = app.log;
  await seedIfEmpty(handle.db, config, (line) => app.log.info(line));
  await jobs.start(app.log);

  // SIGTERM: stop accepting, answer in flight, close kept-alive connections, then these in order.
  const shutdown = shutdownSequence(app.log, [
    { name: "HTTP server", close: httpDrain(app) },
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
