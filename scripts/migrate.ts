// `npm run migrate`: applies the pending migrations and nothing else, on the embedded database
// (DATA_DIR) or on DATABASE_URL, under the same advisory lock as a starting server
// (db/migrate.ts), so it can run before the new build starts, beside the old one still serving
// (docs/deploy.md, "Upgrades"). One JSON log line per migration applied, then a summary; any
// failure is one plain line on stderr and exit code 1.
import { pathToFileURL } from "node:url";
import { ConfigError, loadConfig } from "../config/env.ts";
import { createLogger } from "../core/log/logger.ts";
import { createDb } from "../db/index.ts";
import { DataDirLockedError, lockDataDir } from "../db/lock.ts";
import {
  MigrationFailedError,
  SchemaNewerThanBuildError,
  migrate,
  migrationFiles,
} from "../db/migrate.ts";

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export async function runMigrate(env = process.env): Promise<number> {
  let releaseLock = () => {};
  try {
    const config = loadConfig({ ...env, LOG_LEVEL: env.LOG_LEVEL || "warn" });
    if (!config.databaseUrl) {
      try {
        releaseLock = lockDataDir(config.dataDir);
      } catch (error) {
        if (!(error instanceof DataDirLockedError)) throw error;
        throw new DataDirLockedError(
          `The server is running on the embedded database in ${config.dataDir} (one process at a time may open it): stop it, run npm run migrate, then start the new build.`,
        );
      }
    }
    // The site's one line format (core/log/logger.ts); a failure stays one plain line on stderr.
    const log = createLogger({ level: env.LOG_LEVEL || "info" });
    const started = performance.now();
    const handle = await createDb({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      migrate: false,
    });
    try {
      const applied = await migrate(handle.db, {
        advisoryLock: handle.engine === "postgres",
        onApplied: (name, ms) => log.info(`applied ${name} (${seconds(ms)})`),
      });
      const files = migrationFiles();
      const current = `the schema is current (${files.length} migrations, the last ${files.at(-1)?.name})`;
      log.info(
        applied.length === 0
          ? `Nothing to apply: ${current}.`
          : `${applied.length} migration${applied.length === 1 ? "" : "s"} applied in ${seconds(performance.now() - started)}; ${current}.`,
      );
    } finally {
      await handle.close();
    }
    return 0;
  } catch (error) {
    if (
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof SchemaNewerThanBuildError ||
      error instanceof MigrationFailedError
    ) {
      console.error(error.message);
      return 1;
    }
    console.error(
      `Could not migrate: ${((error as Error).message ?? String(error)).split("\n")[0]}`,
    );
    return 1;
  } finally {
    releaseLock();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runMigrate();
}
