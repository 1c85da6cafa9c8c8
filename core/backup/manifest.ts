import { z } from "zod";

/**
 * The first file of every backup archive (docs/decisions/0096-backups.md): what it holds and from
 * what, read before anything is written on restore. A change that moves or renames a field bumps
 * `format_version`; a reader refuses a version it does not know.
 */
export const BACKUP_FORMAT = "chalkboard-deals-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE = "manifest.json";
/** The embedded database's image (PGlite's `dumpDataDir("gzip")`). */
export const PGLITE_IMAGE_FILE = "database/pglite.tar.gz";
/** PostgreSQL's dump, in pg_dump's custom format (for pg_restore). */
export const POSTGRES_DUMP_FILE = "database/postgres.dump";
/** The media folder's files, below this folder of the archive. */
export const MEDIA_FOLDER = "media";
/** With S3_BUCKET: the bucket's keys, one a line (the objects stay in the bucket). */
export const MEDIA_KEYS_FILE = "media-keys.txt";

/** The tables counted into the manifest, and checked again on restore. */
export const COUNTED_TABLES = ["users", "sessions", "posts", "comments", "media"] as const;
export type CountedTable = (typeof COUNTED_TABLES)[number];

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/);

export const BackupManifest = z.object({
  format: z.literal(BACKUP_FORMAT),
  format_version: z.literal(BACKUP_FORMAT_VERSION),
  engine: z.enum(["pglite", "postgres"]),
  created_at: z.iso.datetime(),
  /** The names of db/migrations applied to the database, as `schema_migrations` lists them. */
  migrations: z.array(z.string()),
  database: z.object({
    file: z.enum([PGLITE_IMAGE_FILE, POSTGRES_DUMP_FILE]),
    bytes: z.number().int().min(0),
    sha256: Sha256,
    /** PostgreSQL's version (PGlite's own for the embedded engine). */
    server_version: z.string(),
    /** The major version of the pg_dump that wrote the dump: pg_restore must be at least it. */
    pg_dump_major: z.number().int().optional(),
  }),
  media: z.discriminatedUnion("storage", [
    z.object({
      storage: z.literal("folder"),
      files: z.number().int().min(0),
      bytes: z.number().int().min(0),
    }),
    z.object({
      storage: z.literal("s3"),
      bucket: z.string(),
      keys: z.number().int().min(0),
    }),
  ]),
  counts: z.record(z.enum(COUNTED_TABLES), z.number().int().min(0)),
});
export type BackupManifest = z.infer<typeof BackupManifest>;

/** A backup or restore that cannot go on: its message is the one line the command prints. */
export class BackupError extends Error {}

/** "users 3, sessions 2, …": the manifest's counts as a command prints them. */
export function countsLine(counts: BackupManifest["counts"]): string {
  return COUNTED_TABLES.map((table) => `${table} ${counts[table] ?? 0}`).join(", ");
}
