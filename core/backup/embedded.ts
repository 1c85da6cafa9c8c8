import type pg from "pg";
import { PglitePool, PgliteServer } from "../../db/pglite-server.ts";

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
