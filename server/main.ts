import path from "node:path";
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig, type Config } from "../config/env.ts";
import { createDb } from "../db/index.ts";
import { DataDirLockedError, lockDataDir } from "../db/lock.ts";
import { seedIfEmpty } from "../db/demo/seed-if-empty.ts";
import { createSiteJobQueue } from "../core/jobs/site-jobs.ts";
import { buildApp } from "./app.ts";

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

  const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const jobs = createSiteJobQueue(handle);
  const { app } = await buildApp({ config, db: handle.db, jobs, pages: "build" });
  await seedIfEmpty(handle.db, config, (line) => app.log.info(line));
  await jobs.start(app.log);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: finishing in-flight requests, then closing`);
    const timer = setTimeout(() => {
      app.log.error("shutdown took over 20 s; exiting");
      process.exit(1);
    }, 20_000);
    timer.unref();
    await app.close(); // stops accepting, waits for in-flight requests
    await jobs.stop(); // finishes running jobs, or hands them back
    await handle.close();
    releaseLock();
    process.exit(0);
  };
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
