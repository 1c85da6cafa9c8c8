// The thread that runs PGlite (db/pglite-server.ts, docs/decisions/0075): PGlite's own socket
// server (@electric-sql/pglite-socket) serves it on a Unix socket, and node-postgres connects to
// that as to PostgreSQL. Plain TypeScript (types only) so that Node runs it as it is, from the
// source tree or beside the compiled server.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

export interface PgliteServerOptions {
  dataDir?: string;
  /**
   * The database to start from (a `dumpImage`): in memory, or written into an empty `dataDir` (a
   * restore, core/backup/restore.ts; PGlite refuses a folder that holds a database).
   */
  image?: Blob;
  /** The Unix socket to listen on. */
  socketPath: string;
}

/**
 * What the server's thread asks besides queries: the database's image, whether PGlite is open and
 * this thread turns (readiness, db/readiness.ts), and to close.
 */
export type PgliteServerRequest = { id: number; kind: "dump" | "ping" | "close" };

export type PgliteServerAnswer =
  { id: number; ok: true; image?: Blob } | { id: number; ok: false; error: string };

/**
 * PostgreSQL's memory settings for PGlite, whose WebAssembly memory grows to what they allow and
 * never shrinks (docs/decisions/0100). PGlite reads its files through the operating system, whose
 * page cache (outside the process) keeps what these buffers no longer hold: 32 MB of shared
 * buffers instead of PostgreSQL's 128 MB, and half its maintenance memory (the vacuum job and
 * migrations' index builds), keep the embedded server within its memory goal at a million deals.
 */
const PGLITE_MEMORY_SETTINGS = [
  "shared_buffers=32MB",
  "maintenance_work_mem=32MB",
  "temp_buffers=4MB",
] as const;

const port = parentPort!;
const options = workerData as PgliteServerOptions;

let pglite: PGlite;
let server: PGLiteSocketServer;
try {
  pglite = await PGlite.create({
    dataDir: options.dataDir,
    extensions: { pg_trgm },
    startParams: [
      ...PGlite.defaultStartParams,
      ...PGLITE_MEMORY_SETTINGS.flatMap((setting) => ["-c", setting]),
    ],
    ...(options.image ? { loadDataDir: options.image } : {}),
  });
  // Two connections: the pool keeps one, and a replacement may connect while the socket server
  // still lets the lost one go (rolling back what it left open).
  server = new PGLiteSocketServer({ db: pglite, path: options.socketPath, maxConnections: 2 });
  await server.start();
  port.postMessage({ id: 0, ok: true } satisfies PgliteServerAnswer);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: String(error) } satisfies PgliteServerAnswer);
  port.close();
}

port.on("message", (request: PgliteServerRequest) => {
  void (async (): Promise<PgliteServerAnswer> => {
    if (request.kind === "dump") {
      return { id: request.id, ok: true, image: await pglite.dumpDataDir("none") };
    }
    if (request.kind === "ping") {
      if (pglite.closed) throw new Error("PGlite is closed");
      return { id: request.id, ok: true };
    }
    await server.stop();
    await pglite.close();
    return { id: request.id, ok: true };
  })()
    .catch((error: unknown): PgliteServerAnswer => ({
      id: request.id,
      ok: false,
      error: error instanceof Error ? error.message : String(error),
    }))
    .then((answer) => {
      port.postMessage(answer);
      if (request.kind === "close") port.close();
    });
});
