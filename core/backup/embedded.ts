import type pg from "pg";
import { DataDirLockedError, lockDataDir } from "../../db/lock.ts";
import { PglitePool, PgliteServer } from "../../db/pglite-server.ts";
import { BackupError } from "./manifest.ts";

/** The embedded database opened as it is, for a backup or a restore: never migrated here. */
export interface EmbeddedDatabase {
  pool: pg.Pool;
  dumpImage: () => Promise<Blob>;
  close(): Promise<void>;
}

/**
 * Opens the PGlite folder `dir` (DATA_DIR/pglite) in its own thread, as the server does
 * (db/pglite-server.ts), or with `image`, first fills the empty folder from that image. Unlike
 * createDb (db/index.ts) it runs no migration: a backup copies the database as it is, and a
 * restored one is migrated by the server that starts on it.
 */
export async function openEmbeddedDatabase(dir: string, image?: Blob): Promise<EmbeddedDatabase> {
  const server = await PgliteServer.start({ dataDir: dir, ...(image ? { image } : {}) });
  const pool = new PglitePool({ ...server.connection(), connectionTimeoutMillis: 30_000 });
  return {
    pool,
    dumpImage: () => server.dumpImage(),
    async close() {
      await pool.end();
      await server.close();
    },
  };
}

/**
 * Takes DATA_DIR's lock (db/lock.ts) for a command that reads or fills the embedded database, so
 * that no server starts on it meanwhile; answers its release. A server holding it already is a
 * BackupError with `refusal`'s line (the lock's own message given).
 */
export function lockDataDirFor(dataDir: string, refusal: (locked: string) => string): () => void {
  try {
    return lockDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    throw new BackupError(refusal(error.message));
  }
}
