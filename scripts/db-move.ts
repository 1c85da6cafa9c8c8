// `npm run db:move -- --to postgres://user@host:port/database`: copies the embedded site of
// DATA_DIR (its PGlite database) into an empty PostgreSQL database, for the site to start on with
// DATABASE_URL set to that URL and the same DATA_DIR (docs/deploy.md, "Moving to PostgreSQL";
// docs/decisions/0099-moving-to-postgresql.md). One JSON log line per table with its rows on both
// sides; any refusal or failure is one line on stderr and exit code 1, and the target is left
// as empty as it was found.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/env.ts";
import { createLogger } from "../core/log/logger.ts";
import { BackupError } from "../core/backup/manifest.ts";
import { moveToPostgres, parseTargetUrl, type MoveOptions } from "../core/backup/move.ts";

const USAGE = "usage: npm run db:move -- --to postgres://user@host:port/database";

export async function runDbMove(
  argv: string[],
  env = process.env,
  hooks: Pick<MoveOptions, "afterCopy" | "batchRows"> = {},
): Promise<number> {
  try {
    let values: { to?: string };
    try {
      ({ values } = parseArgs({ args: argv, options: { to: { type: "string" } }, strict: true }));
    } catch (error) {
      throw new BackupError(`${(error as Error).message.split("\n")[0]} (${USAGE})`);
    }
    const to = parseTargetUrl(values.to, USAGE);
    // The source is always DATA_DIR's embedded database, whatever DATABASE_URL says.
    const config = loadConfig({
      ...env,
      DATABASE_URL: undefined,
      LOG_LEVEL: env.LOG_LEVEL ?? "warn",
    });
    // Progress in the site's one line format (core/log/logger.ts); a failure stays one plain line.
    const log = createLogger({ level: env.LOG_LEVEL ?? "info" });
    const result = await moveToPostgres({ dataDir: config.dataDir, to, log, ...hooks });
    const rows = result.tables.reduce((sum, table) => sum + table.target, 0);
    log.info(
      `moved: ${result.tables.length} tables (${rows} rows) and ${result.sequences} sequences in ${(result.milliseconds / 1000).toFixed(1)} s; start the site with DATABASE_URL set to that database and the same DATA_DIR`,
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    console.error(
      `Could not move the site: ${((error as Error).message ?? String(error)).split("\n")[0]}`,
    );
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runDbMove(process.argv.slice(2));
}
