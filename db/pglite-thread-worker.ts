// The thread that runs PGlite (db/pglite-thread.ts): it answers the PostgreSQL wire protocol's
// bytes with PGlite's, one request at a time, in the order they came, but that a client's open
// transaction holds the other clients' batches back until it ends. Plain TypeScript (types only)
// so that Node runs it as it is, from the source tree or beside the compiled server.
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { planModeFor, type PlanCacheMode } from "./plan-mode.ts";
import {
  beginsWithParseComplete,
  leadingParse,
  PARSE_COMPLETE,
  quoteIdentifier,
  sameBytes,
} from "./shared-session.ts";

export interface PgliteThreadOptions {
  dataDir?: string;
  image?: Blob;
}

export type PgliteThreadRequest =
  | { id: number; kind: "protocol"; client: number; bytes: Uint8Array }
  | { id: number; kind: "release"; client: number }
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

/**
 * The client whose transaction is open (docs/decisions/0070): PGlite has one session, which the
 * pool's clients share batch by batch, but a transaction is one client's until it ends, so the
 * others' batches wait meanwhile, as they would for a lock.
 */
let transactionOf: number | null = null;

/**
 * The named statements parsed in the session, by name, as their Parse messages. Each client of the
 * pool parses a statement the first time it runs it; a statement another client has parsed
 * already is not parsed again (PostgreSQL would refuse the name), and the client is told it was.
 */
const statements = new Map<string, Uint8Array>();

async function runProtocol(pglite: PGlite, client: number, batch: Uint8Array): Promise<Uint8Array> {
  await choosePlanMode(pglite, batch);
  const parse = leadingParse(batch);
  const known = parse && statements.get(parse.name);
  let answer: Uint8Array;
  if (parse && known && sameBytes(known, parse.message)) {
    const rest = await pglite.execProtocolRaw(parse.rest);
    answer = new Uint8Array(PARSE_COMPLETE.length + rest.length);
    answer.set(PARSE_COMPLETE);
    answer.set(rest, PARSE_COMPLETE.length);
  } else {
    if (parse && known) {
      // The same name for another text: only a test names its statements itself (db/prepared.ts
      // names each by its text's hash), and the newest text is the one meant. Should the
      // DEALLOCATE fail (an aborted transaction), the Parse gets PostgreSQL's own error.
      await pglite.exec(`DEALLOCATE ${quoteIdentifier(parse.name)}`).catch(() => undefined);
      statements.delete(parse.name);
    }
    answer = await pglite.execProtocolRaw(batch);
    if (parse && beginsWithParseComplete(answer)) statements.set(parse.name, parse.message.slice());
  }
  transactionOf = pglite.isInTransaction() ? client : null;
  return answer;
}

async function answer(request: PgliteThreadRequest): Promise<PgliteThreadAnswer> {
  const pglite = await opened;
  if (request.kind === "protocol") {
    return {
      id: request.id,
      ok: true,
      bytes: await runProtocol(pglite, request.client, request.bytes),
    };
  }
  if (request.kind === "release") {
    // A client that went away may have left its transaction open.
    if (transactionOf === request.client) {
      if (pglite.isInTransaction()) await pglite.exec("ROLLBACK");
      // The ROLLBACK may have undone a SET of the plan mode: the next batch sets it again.
      planMode = undefined;
      transactionOf = null;
    }
    return { id: request.id, ok: true };
  }
  if (request.kind === "dump") {
    return { id: request.id, ok: true, image: await pglite.dumpDataDir("none") };
  }
  await pglite.close();
  return { id: request.id, ok: true };
}

/** Whether a request may run now: not while another client's transaction is open. */
function mayRun(request: PgliteThreadRequest): boolean {
  if (transactionOf === null || request.kind === "release") return true;
  return request.kind === "protocol" && request.client === transactionOf;
}

/** Requests in the order they came; each runs alone, the first that may, one after another. */
const waiting: PgliteThreadRequest[] = [];
let running = false;

async function runWaiting(): Promise<void> {
  if (running) return;
  running = true;
  try {
    for (;;) {
      const next = waiting.findIndex(mayRun);
      if (next < 0) return;
      const [request] = waiting.splice(next, 1) as [PgliteThreadRequest];
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
      if (request.kind === "close") {
        port.close();
        return;
      }
    }
  } finally {
    running = false;
  }
}

opened.then(
  () => port.postMessage({ id: 0, ok: true }),
  (error: unknown) => port.postMessage({ id: 0, ok: false, error: String(error) }),
);

port.on("message", (request: PgliteThreadRequest) => {
  waiting.push(request);
  void runWaiting();
});
