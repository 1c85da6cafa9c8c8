// `npm run backup -- --out FILE`: writes one backup archive of the site (docs/deploy.md, "Backups
// and restore"; docs/decisions/0096-backups.md). With DATABASE_URL it runs pg_dump; on the
// embedded database it asks the running server for the backup, or, when no server runs, opens
// DATA_DIR itself. Prints what it wrote; any failure is one line on stderr and exit code 1, and no
// file at FILE.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/env.ts";
import { createLogger, type Log } from "../core/log/logger.ts";
import { createBackup } from "../core/backup/create.ts";
import { lockDataDirFor, openEmbeddedDatabase } from "../core/backup/embedded.ts";
import { backupFromServer } from "../core/backup/from-server.ts";
import { BackupError, countsLine, type BackupManifest } from "../core/backup/manifest.ts";
import { readBackupAccess } from "../core/backup/server-access.ts";

const USAGE = "usage: npm run backup -- --out FILE";

function readOut(argv: string[]): string {
  let values: { out?: string };
  try {
    ({ values } = parseArgs({ args: argv, options: { out: { type: "string" } }, strict: true }));
  } catch (error) {
    throw new BackupError(`${(error as Error).message.split("\n")[0]} (${USAGE})`);
  }
  if (!values.out) throw new BackupError(`--out is required (${USAGE})`);
  const out = path.resolve(values.out);
  if (fs.existsSync(out)) throw new BackupError(`${out} already exists: choose a new file name.`);
  if (!fs.existsSync(path.dirname(out))) {
    throw new BackupError(`The folder ${path.dirname(out)} does not exist.`);
  }
  return out;
}

async function backupEmbedded(
  log: Log,
  dataDir: string,
  out: string,
  s3: ReturnType<typeof loadConfig>["s3"],
) {
  const access = readBackupAccess(dataDir);
  if (access) {
    log.info(`asking the server (pid ${access.pid}) at ${access.url} for the backup`);
    return backupFromServer(access, out);
  }
  const pgliteDir = path.join(dataDir, "pglite");
  if (!fs.existsSync(path.join(pgliteDir, "PG_VERSION"))) {
    throw new BackupError(
      `There is no embedded database in DATA_DIR ${dataDir}: nothing to back up.`,
    );
  }
  const release = lockDataDirFor(
    dataDir,
    (locked) =>
      `${locked.split(";")[0]}, and it offers no backup (DATA_DIR/backup-access.json): it is an older version; stop it to back up, or upgrade it.`,
  );
  try {
    const database = await openEmbeddedDatabase(pgliteDir);
    try {
      return await createBackup(
        {
          engine: "pglite",
          pool: database.pool,
          dumpImage: database.dumpImage,
          dataDir,
          ...(s3 ? { s3 } : {}),
        },
        out,
      );
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
}

export async function runBackup(argv: string[], env = process.env): Promise<number> {
  try {
    const out = readOut(argv);
    const config = loadConfig({ ...env, LOG_LEVEL: env.LOG_LEVEL || "warn" });
    // Progress in the site's one line format (core/log/logger.ts); a failure stays one plain line.
    const log = createLogger({ level: env.LOG_LEVEL || "info" });
    const s3 = config.s3;
    let manifest: BackupManifest;
    if (config.databaseUrl) {
      manifest = await createBackup(
        {
          engine: "postgres",
          databaseUrl: config.databaseUrl,
          dataDir: config.dataDir,
          ...(s3 ? { s3 } : {}),
        },
        out,
      );
    } else {
      manifest = await backupEmbedded(log, config.dataDir, out, s3);
    }
    const media =
      manifest.media.storage === "folder"
        ? `${manifest.media.files} media files`
        : `${manifest.media.keys} media keys of the bucket ${manifest.media.bucket}`;
    log.info(
      `backup written: ${out} (${fs.statSync(out).size} bytes; ${manifest.engine}; ${countsLine(manifest.counts)}; ${media})`,
    );
    return 0;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) {
      console.error(error.message);
      return 1;
    }
    console.error(`Could not write the backup: ${(error as Error).message}`);
    return 1;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runBackup(process.argv.slice(2));
}
