// The thread that runs PGlite (db/pglite-thread.ts): it answers the PostgreSQL wire protocol's
// bytes with PGlite's, one request at a time, in the order they came. Plain TypeScript (types
// only) so that Node runs it as it is, from the source tree or beside the compiled server.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { planModeFor, type PlanCacheMode } from "./plan-mode.ts";

export interface PgliteThreadOptions {
  dataDir?: string;
  image?: Blob;
}

export type PgliteThreadRequest =
  | { id: number; kind: "protocol"; bytes: Uint8Array }
  | { id: number; kind: "reset" }
  | { id: number; kind: "dump" }
  | { id: number; kind: "close" };

export type PgliteThreadAnswer =
  | { id: number; ok: true; bytes?: Uint8Array; image?: Blob }
  | { id: number; ok: false; error: string };

const port = parentPort!;
const options = workerData as PgliteThreadOptions;

const opened = PGlite.create({
  dataDir: options.dataDir,
  extensions: { pg_trgm },
  ...(options.image && !options.dataDir ? { loadDataDir: options.image } : {}),
});

/** The session's plan_cache_mode; undefined when a ROLLBACK may have undone the last SET. */
let planMode: PlanCacheMode | undefined = "auto";

/**
 * Generic plans for the named statements db/prepared.ts sends, PostgreSQL's default for the rest
 * (db/plan-mode.ts): the mode is set before a batch that binds a statement of the other kind.
 * The named ones are planned once, not on every run: the default keeps planning them anew whenever
 * a parameter (the LIMIT) makes a plan for any value look dearer, and in WebAssembly, with the
 * many indexes over posts, planning a card query took longer than running it (record 0060).
 */
async function choosePlanMode(pglite: PGlite, bytes: Uint8Array): Promise<void> {
  const wanted = planModeFor(bytes);
  if (!wanted || wanted === planMode) return;
  try {
    await pglite.exec(`SET plan_cache_mode = ${wanted}`);
    // Set inside a transaction, a ROLLBACK would undo it: it is set again next time.
    planMode = pglite.isInTransaction() ? undefined : wanted;
  } catch {
    // A failed transaction refuses it; the batch gets the transaction's own error.
    planMode = undefined;
  }
}

async function answer(request: PgliteThreadRequest): Promise<PgliteThreadAnswer> {
  const pglite = await opened;
  if (request.kind === "protocol") {
    await choosePlanMode(pglite, request.bytes);
    return { id: request.id, ok: true, bytes: await pglite.execProtocolRaw(request.bytes) };
  }
  if (request.kind === "reset") {
    // A client that went away may have left a transaction open and statements prepared; the
    // new one knows of neither.
    if (pglite.isInTransaction()) {
      await pglite.exec("ROLLBACK");
      // It may have undone a SET of the plan mode: the next batch sets it again.
      planMode = undefined;
    }
    await pglite.exec("DEALLOCATE ALL");
    return { id: request.id, ok: true };
  }
  if (request.kind === "dump") {
    return { id: request.id, ok: true, image: await pglite.dumpDataDir("none") };
  }
  await pglite.close();
  return { id: request.id, ok: true };
}

let queue: Promise<unknown> = opened.then(
  () => port.postMessage({ id: 0, ok: true }),
  (error: unknown) => port.postMessage({ id: 0, ok: false, error: String(error) }),
);

port.on("message", (request: PgliteThreadRequest) => {
  queue = queue.then(async () => {
    let reply: PgliteThreadAnswer;
    try {
      reply = await answer(request);
    } catch (error) {
      reply = {
        id: request.id,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    port.postMessage(reply, reply.ok && reply.bytes ? [reply.bytes.buffer as ArrayBuffer] : []);
    if (request.kind === "close") port.close();
  });
});
