import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import pg from "pg";
import type { S3Config } from "../../config/env.ts";
import { extractArchive, readManifest } from "./archive.ts";
import { fileDigest, readDatabaseFacts, userRelations } from "./database.ts";
import { lockDataDirFor, openEmbeddedDatabase } from "./embedded.ts";
import {
  BackupError,
  COUNTED_TABLES,
  countsLine,
  MEDIA_FOLDER,
  type BackupManifest,
} from "./manifest.ts";
import { mediaFiles } from "./media.ts";
import { runTool, toolMajorVersion } from "./postgres-tools.ts";

/** Where a backup is restored to: the site's configuration (DATA_DIR, DATABASE_URL, S3_*). */
export interface RestoreTarget {
  dataDir: string;
  databaseUrl?: string;
  s3?: S3Config;
}

const migrationsDir = fileURLToPath(new URL("../../db/migrations/", import.meta.url));
/** The lock file of db/lock.ts: the restore's own, while it runs. */
const LOCK_FILE = "server.lock";

/**
 * Fills an empty site from a backup archive (docs/decisions/0096-backups.md). Everything that can
 * refuse is checked before anything is written: the archive (read to its end), its format, its
 * engine (the one this site is configured for), its migrations (none newer than this code's), and
 * that the target holds nothing. The database and the media are then built in a folder of their
 * own inside DATA_DIR and renamed into place at the end (embedded), or restored in one transaction
 * (PostgreSQL): a restore that stops half way leaves nothing that looks like a site.
 */
export async function restoreBackup(
  file: string,
  target: RestoreTarget,
  log: (line: string) => void = () => undefined,
): Promise<BackupManifest> {
  const manifest = await readManifest(file);
  const engine = target.databaseUrl ? "postgres" : "pglite";
  if (manifest.engine !== engine) {
    throw new BackupError(
      manifest.engine === "pglite"
        ? `${file} holds an embedded (PGlite) database, and DATABASE_URL is set: unset DATABASE_URL to restore it into an empty DATA_DIR (then \`npm run db:move\` moves it onto PostgreSQL).`
        : `${file} holds a PostgreSQL dump, and DATABASE_URL is not set: set DATABASE_URL to an empty PostgreSQL database to restore it.`,
    );
  }
  const known = new Set(fs.readdirSync(migrationsDir).filter((name) => name.endsWith(".sql")));
  const newer = manifest.migrations.filter((name) => !known.has(name));
  if (newer.length) {
    throw new BackupError(
      `${file} was made by a newer version of Chalkboard Deals (its database has migration ${newer[0]}, which this code does not know): restore it with that version or a later one.`,
    );
  }
  if (manifest.engine === "pglite") await restoreEmbedded(file, manifest, target.dataDir, log);
  else await restorePostgres(file, manifest, target, log);
  if (manifest.media.storage === "s3") {
    log(
      `The media were in the bucket ${manifest.media.bucket} (${manifest.media.keys} keys listed in the archive, not copied): point S3_BUCKET at it, or at a copy of it.`,
    );
  }
  log(
    `restored ${manifest.engine} backup of ${manifest.created_at}: ${countsLine(manifest.counts)}`,
  );
  return manifest;
}

/** Extracts the archive into a new folder below `parent` and checks its files against the manifest. */
async function unpack(file: string, manifest: BackupManifest, parent: string): Promise<string> {
  const dir = path.join(parent, `.restore-${randomBytes(6).toString("hex")}`);
  await fs.promises.mkdir(dir, { mode: 0o700 });
  await extractArchive(file, dir);
  const digest = await fileDigest(path.join(dir, manifest.database.file)).catch(() => undefined);
  if (digest?.sha256 !== manifest.database.sha256) {
    throw new BackupError(
      `${file} is damaged: its database file ${digest ? "does not match the checksum in its manifest" : "is missing"}.`,
    );
  }
  if (manifest.media.storage === "folder") {
    const { files } = await mediaFiles(path.join(dir, MEDIA_FOLDER));
    if (files.length !== manifest.media.files) {
      throw new BackupError(
        `${file} is damaged: its manifest lists ${manifest.media.files} media files, and it holds ${files.length}.`,
      );
    }
  }
  return dir;
}

function checkCounts(file: string, manifest: BackupManifest, counts: BackupManifest["counts"]) {
  const wrong = COUNTED_TABLES.find((table) => counts[table] !== manifest.counts[table]);
  if (wrong) {
    throw new BackupError(
      `${file}: the restored database has ${counts[wrong]} rows in ${wrong}, and its manifest says ${manifest.counts[wrong]}.`,
    );
  }
}

async function restoreEmbedded(
  file: string,
  manifest: BackupManifest,
  dataDir: string,
  log: (line: string) => void,
): Promise<void> {
  const created = !fs.existsSync(dataDir);
  // Held to the end: no server starts on the folder while it is filled.
  const release = lockDataDirFor(
    dataDir,
    () =>
      `A server is running on DATA_DIR ${dataDir}: a restore fills an empty DATA_DIR only (stop the server, and choose an empty DATA_DIR).`,
  );
  let staging: string | undefined;
  let done = false;
  try {
    const present = fs.readdirSync(dataDir).filter((name) => name !== LOCK_FILE);
    if (present.length) {
      throw new BackupError(
        `DATA_DIR ${dataDir} is not empty (it holds ${present.slice(0, 3).join(", ")}${present.length > 3 ? ", …" : ""}): a restore fills an empty DATA_DIR only, and writes nothing here.`,
      );
    }
    staging = await unpack(file, manifest, dataDir);
    const gzipped = await fs.promises.readFile(path.join(staging, manifest.database.file));
    const image = new Blob([new Uint8Array(zlib.gunzipSync(gzipped))]);
    log(`loading the database (${manifest.database.bytes} bytes)…`);
    const database = await openEmbeddedDatabase(path.join(staging, "pglite"), image);
    try {
      const client = await database.pool.connect();
      try {
        checkCounts(file, manifest, (await readDatabaseFacts(client)).counts);
      } finally {
        client.release();
      }
    } finally {
      await database.close();
    }
    // The database last: a DATA_DIR with pglite/ in it is a site.
    if (fs.existsSync(path.join(staging, MEDIA_FOLDER))) {
      await fs.promises.rename(path.join(staging, MEDIA_FOLDER), path.join(dataDir, MEDIA_FOLDER));
    }
    await fs.promises.rename(path.join(staging, "pglite"), path.join(dataDir, "pglite"));
    done = true;
  } finally {
    if (staging) await fs.promises.rm(staging, { recursive: true, force: true });
    release();
    if (!done && created) await fs.promises.rm(dataDir, { recursive: true, force: true });
  }
}

async function restorePostgres(
  file: string,
  manifest: BackupManifest,
  target: RestoreTarget,
  log: (line: string) => void,
): Promise<void> {
  const databaseUrl = target.databaseUrl!;
  const pgRestoreMajor = await toolMajorVersion("pg_restore");
  const needed = manifest.database.pg_dump_major ?? 0;
  if (pgRestoreMajor < needed) {
    throw new BackupError(
      `pg_restore on PATH is version ${pgRestoreMajor}, and the archive was written by pg_dump ${needed}: install PostgreSQL ${needed}'s client programs (Debian: postgresql-client-${needed}) and put them first in PATH.`,
    );
  }
  const client = new pg.Client({
    connectionString: databaseUrl,
    application_name: "chalkboard-deals-restore",
  });
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError(`Could not connect to DATABASE_URL: ${(error as Error).message}`);
  }
  let staging: string | undefined;
  const created = !fs.existsSync(target.dataDir);
  let done = false;
  try {
    const present = await userRelations(client);
    if (present.length) {
      throw new BackupError(
        `The database of DATABASE_URL is not empty (it holds ${present.join(", ")}${present.length > 2 ? ", …" : ""}): a restore fills an empty database only, and writes nothing there.`,
      );
    }
    const mediaDir = path.join(target.dataDir, MEDIA_FOLDER);
    if (manifest.media.storage === "folder" && manifest.media.files > 0) {
      const present = fs.existsSync(mediaDir) ? fs.readdirSync(mediaDir) : [];
      if (present.length) {
        throw new BackupError(
          `${mediaDir} is not empty: a restore fills an empty media folder only, and writes nothing there.`,
        );
      }
    }
    await fs.promises.mkdir(target.dataDir, { recursive: true });
    staging = await unpack(file, manifest, target.dataDir);
    log(`restoring the database (${manifest.database.bytes} bytes)…`);
    // One transaction: a restore that fails leaves the database as empty as it found it.
    await runTool(
      "pg_restore",
      [
        "--single-transaction",
        "--exit-on-error",
        "--no-owner",
        "--no-privileges",
        path.join(staging, manifest.database.file),
      ],
      databaseUrl,
      "The database restore",
    );
    checkCounts(file, manifest, (await readDatabaseFacts(client)).counts);
    if (fs.existsSync(path.join(staging, MEDIA_FOLDER))) {
      await fs.promises.rm(mediaDir, { recursive: true, force: true }); // empty, checked above
      await fs.promises.rename(path.join(staging, MEDIA_FOLDER), mediaDir);
    }
    done = true;
  } finally {
    if (staging) await fs.promises.rm(staging, { recursive: true, force: true });
    if (!done && created) await fs.promises.rm(target.dataDir, { recursive: true, force: true });
    await client.end().catch(() => undefined);
  }
}
