import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import type { S3Config } from "../../config/env.ts";
import { packArchive } from "./archive.ts";
import { fileDigest, snapshotPglite, snapshotPostgres, type DatabaseFacts } from "./database.ts";
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  MANIFEST_FILE,
  MEDIA_FOLDER,
  MEDIA_KEYS_FILE,
  PGLITE_IMAGE_FILE,
  POSTGRES_DUMP_FILE,
  type BackupManifest,
} from "./manifest.ts";
import { mediaBucketKeys, mediaFiles } from "./media.ts";

/** Where a backup is taken from: the site's database and its media. */
export type BackupSource = (
  | {
      engine: "pglite";
      /** PGlite's pool, with its one connection (db/pglite-server.ts). */
      pool: pg.Pool;
      dumpImage: () => Promise<Blob>;
    }
  | { engine: "postgres"; databaseUrl: string }
) & {
  /** DATA_DIR: the media folder is DATA_DIR/media. */
  dataDir: string;
  /** With S3_BUCKET, the media are listed, not copied. */
  s3?: S3Config;
};

/**
 * Writes one backup archive to `out` (docs/decisions/0096-backups.md): the manifest, a consistent
 * database snapshot, and the media folder's files or the bucket's keys. The archive is written
 * under a temporary name beside `out` and renamed when complete; on any failure nothing is left.
 */
export async function createBackup(
  source: BackupSource,
  out: string,
  now: () => Date = () => new Date(),
): Promise<BackupManifest> {
  const staging = await fs.promises.mkdtemp(path.join(os.tmpdir(), "chalkboard-backup-"));
  const partial = `${out}.partial-${process.pid}`;
  try {
    await fs.promises.mkdir(path.join(staging, "database"));
    const createdAt = now().toISOString();
    const databaseFile = source.engine === "pglite" ? PGLITE_IMAGE_FILE : POSTGRES_DUMP_FILE;
    const databasePath = path.join(staging, databaseFile);
    const facts: DatabaseFacts =
      source.engine === "pglite"
        ? await snapshotPglite(source.pool, source.dumpImage, databasePath)
        : await snapshotPostgres(source.databaseUrl, databasePath);
    const digest = await fileDigest(databasePath);

    // After the database: a file uploaded meanwhile is one more, never one a row lacks.
    const entries = [MANIFEST_FILE, databaseFile];
    let media: BackupManifest["media"];
    if (source.s3) {
      const keys = await mediaBucketKeys(source.s3);
      await fs.promises.writeFile(
        path.join(staging, MEDIA_KEYS_FILE),
        keys.map((key) => `${key}\n`).join(""),
      );
      entries.push(MEDIA_KEYS_FILE);
      media = { storage: "s3", bucket: source.s3.bucket, keys: keys.length };
    } else {
      const mediaDir = path.join(source.dataDir, MEDIA_FOLDER);
      const { files, bytes } = await mediaFiles(mediaDir);
      if (files.length) {
        // The archive's media/… entries are read through this link into DATA_DIR/media.
        await fs.promises.symlink(mediaDir, path.join(staging, MEDIA_FOLDER), "dir");
        for (const file of files) entries.push(`${MEDIA_FOLDER}/${file}`);
      }
      media = { storage: "folder", files: files.length, bytes };
    }

    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      format_version: BACKUP_FORMAT_VERSION,
      engine: source.engine,
      created_at: createdAt,
      migrations: facts.migrations,
      database: {
        file: databaseFile,
        bytes: digest.bytes,
        sha256: digest.sha256,
        server_version: facts.serverVersion,
        ...(facts.pgDumpMajor !== undefined ? { pg_dump_major: facts.pgDumpMajor } : {}),
      },
      media,
      counts: facts.counts,
    };
    await fs.promises.writeFile(
      path.join(staging, MANIFEST_FILE),
      `${JSON.stringify(manifest, null, 2)}\n`,
    );
    await packArchive(partial, staging, entries);
    await fs.promises.rename(partial, out);
    return manifest;
  } finally {
    await fs.promises.rm(partial, { force: true });
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}
