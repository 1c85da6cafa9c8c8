import type { ViteDevServer } from "vite";
import { loadConfig } from "../config/env.ts";
import { createDb, type DbHandle } from "../db/index.ts";
import { lockDataDir } from "../db/lock.ts";
import { seedIfEmpty } from "../db/demo/seed-if-empty.ts";
import { buildApp } from "./app.ts";

// Vite rebuilds this module on every change; the one database stays on globalThis so PGlite is not
// opened twice on the same folder.
const shared = globalThis as typeof globalThis & { __chalkboardDb?: Promise<DbHandle> };

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
  const { app } = await buildApp({
    config,
    db: handle.db,
    pages: devServer ? { devServer } : "build",
  });
  return app;
}
