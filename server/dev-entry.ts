import type { ViteDevServer } from "vite";
import { loadConfig } from "../config/env.ts";
import type { JobQueue } from "../core/jobs/queue.ts";
import { createSiteJobQueue } from "../core/jobs/site-jobs.ts";
import { createDb, type DbHandle } from "../db/index.ts";
import { lockDataDir } from "../db/lock.ts";
import { seedIfEmpty } from "../db/demo/seed-if-empty.ts";
import { buildApp } from "./app.ts";

// Vite rebuilds this module on every change; the one database stays on globalThis so PGlite is not
// opened twice on the same folder, and so does the one job queue (each build registers its job
// handlers again, replacing the last build's).
const shared = globalThis as typeof globalThis & {
  __chalkboardDb?: Promise<DbHandle>;
  __chalkboardJobs?: Promise<JobQueue>;
};

/** `npm run dev`: React Router's dev server mounts the Fastify app built here. */
export async function createServer(devServer?: ViteDevServer) {
  const config = loadConfig({ NODE_ENV: "development", ...process.env });
  shared.__chalkboardDb ??= (async () => {
    if (!config.databaseUrl) lockDataDir(config.dataDir);
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    await seedIfEmpty(handle.db, config, console.log);
    return handle;
  })();
  const handle = await shared.__chalkboardDb;
  shared.__chalkboardJobs ??= (async () => {
    const jobs = createSiteJobQueue(handle);
    await jobs.start(console);
    return jobs;
  })();
  const { app } = await buildApp({
    config,
    db: handle.db,
    readiness: handle.readiness,
    jobs: await shared.__chalkboardJobs,
    pages: devServer ? { devServer } : "build",
  });
  return app;
}
