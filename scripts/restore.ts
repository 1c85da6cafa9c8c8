// `npm run restore -- FILE`: fills an empty DATA_DIR (embedded database) or an empty database
// (DATABASE_URL) from a backup archive of `npm run backup` (docs/deploy.md, "Backups and
// restore"; docs/decisions/0096-backups.md). Refuses anything else with one line on stderr and exit
// code 1, having written nothing.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/env.ts";
import { createLogger } from "../core/log/logger.ts";
import { BackupError } from "../core/backup/manifest.ts";
import { restoreBackup } from "../core/backup/restore.ts";

const USAGE = "usage: npm run restore -- FILE";

export async function runRestore(argv: string[], env = process.env): Promise<number> {
  try {
    let positionals: string[];
    try {
      ({ positionals } = parseArgs({ args: argv, strict: true, allowPositionals: true }));
    } catch (error) {
      throw new BackupError(`${(error as Error).message.split("\n")[0]} (${USAGE})`);
    }
    if (positionals.length !== 1) throw new BackupError(`One archive, please (${USAGE})`);
    const file = path.resolve(positionals[0]!);
    const config = loadConfig({ ...env, LOG_LEVEL: env.LOG_LEVEL || "warn" });
    // Progress in the site's one line format (core/log/logger.ts); a failure stays one plain line.
    const log = createLogger({ level: env.LOG_LEVEL || "info" });
    await restoreBackup(
      file,
      {
        dataDir: config.dataDir,
        ...(config.databaseUrl ? { databaseUrl: config.databaseUrl } : {}),
        ...(config.s3 ? { s3: config.s3 } : {}),
      },
      (line) => log.info(line),
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Could not restore the backup: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runRestore(process.argv.slice(2));
}
