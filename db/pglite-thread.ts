import type { Socket } from "node:net";
import { Duplex } from "node:stream";
import { Worker } from "node:worker_threads";
import type pg from "pg";
import type {
  PgliteThreadAnswer,
  PgliteThreadOptions,
  PgliteThreadRequest,
} from "./pglite-thread-worker.ts";

/** Each kind of request, before it is given its id. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;
type Request = WithoutId<PgliteThreadRequest>;

/**
 * PGlite in a thread of its own (docs/decisions/0060). PostgreSQL works on its own core while
 * Node renders pages and answers calls; PGlite ran in the server's one thread, so every query's
 * WebAssembly held up everything else. Here the thread runs PGlite and answers the PostgreSQL wire
 * protocol's bytes (db/pglite-thread-worker.ts); node-postgres speaks to it through
 * `PgliteThreadSocket`, as it would to a server. The pool's few clients share PGlite's one
 * session, batch by batch, a transaction holding the others back until it ends (record 0070).
 */
export class PgliteThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, (answer: PgliteThreadAnswer) => void>();
  #nextId = 1;
  #nextClient = 1;
  #exited: Error | null = null;

  private constructor(options: PgliteThreadOptions) {
    this.#worker = new Worker(new URL("./pglite-thread-worker.ts", import.meta.url), {
      workerData: options,
    });
    this.#worker.on("message", (answer: PgliteThreadAnswer) => {
      const settle = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      // Idle, the thread does not keep the process alive (a script that forgot to close the
      // database still ends); while a request waits, it does.
      if (this.#pending.size === 0) this.#worker.unref();
      settle?.(answer);
    });
    const fail = (error: Error) => {
      this.#exited = error;
      for (const settle of this.#pending.values())
        settle({ id: 0, ok: false, error: error.message });
      this.#pending.clear();
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new Error(`the PGlite thread exited (${code})`)));
  }

  /** Starts the thread and waits until PGlite has opened the database. */
  static async start(options: PgliteThreadOptions): Promise<PgliteThread> {
    const thread = new PgliteThread(options);
    const opened = await new Promise<PgliteThreadAnswer>((resolve) =>
      thread.#pending.set(0, resolve),
    );
    if (!opened.ok) {
      await thread.#worker.terminate();
      throw new Error(`PGlite could not open the database: ${opened.error}`);
    }
    return thread;
  }

  #ask(request: Request, transfer: ArrayBuffer[] = []): Promise<PgliteThreadAnswer> {
    if (this.#exited) return Promise.reject(this.#exited);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (answer) =>
        answer.ok ? resolve(answer) : reject(new Error(answer.error)),
      );
      this.#worker.ref();
      this.#worker.postMessage({ ...request, id }, transfer);
    });
  }

  /** A client of the pool, known to the thread by this number. */
  newClient(): number {
    return this.#nextClient++;
  }

  /** A client's wire-protocol messages in, PGlite's answers out. */
  async protocol(client: number, bytes: Uint8Array): Promise<Uint8Array> {
    // A copy, handed over whole: node-postgres may reuse the buffer it wrote from.
    const message = new Uint8Array(bytes);
    const answer = await this.#ask({ kind: "protocol", client, bytes: message }, [message.buffer]);
    return (answer.ok && answer.bytes) || new Uint8Array(0);
  }

  /** A client has gone: what it left open is rolled back, and the others may go on. */
  async release(client: number): Promise<void> {
    await this.#ask({ kind: "release", client });
  }

  async dumpImage(): Promise<Blob> {
    const answer = await this.#ask({ kind: "dump" });
    return answer.ok && answer.image ? answer.image : new Blob([]);
  }

  async close(): Promise<void> {
    if (this.#exited) return;
    await this.#ask({ kind: "close" });
    await this.#worker.terminate();
  }

  /**
   * node-postgres settings that reach this thread: a few clients, kept for good, so that one
   * request's next query is already waiting in the thread while the server's thread renders
   * another's page (docs/decisions/0070).
   */
  poolConfig(): pg.PoolConfig {
    return {
      max: PGLITE_CLIENTS,
      idleTimeoutMillis: 0,
      user: "postgres",
      database: "postgres",
      stream: () => new PgliteThreadSocket(this) as unknown as Socket,
    };
  }
}

/**
 * The pool's clients over PGlite's one session (docs/decisions/0070). One left the thread idle
 * while the server's thread was busy between two queries; more than a few only queue there.
 */
export const PGLITE_CLIENTS = 4;

/**
 * Frontend messages after which the client waits for the server (PostgreSQL's protocol, "Message
 * Formats"): Sync, a simple Query, Flush, Terminate, and the end or failure of a COPY.
 */
const EXCHANGE_ENDS = new Set([..."SQHXcf"].map((c) => c.charCodeAt(0)));

/** Whether the last message in `chunk` is one the client then waits on (a startup message is). */
function endsExchange(chunk: Buffer): boolean {
  // The startup message has no type byte: it begins with its length, whose first byte is 0.
  if (chunk[0] === 0) return true;
  let last = -1;
  for (let at = 0; at + 5 <= chunk.length; at += 1 + chunk.readInt32BE(at + 1)) last = chunk[at]!;
  return EXCHANGE_ENDS.has(last);
}

/**
 * What node-postgres takes for a socket: each write is sent to the thread, and its answer is read
 * back. Writes go one at a time, in order (a Writable's own queue), so the one PGlite session sees
 * the protocol as a server would.
 */
class PgliteThreadSocket extends Duplex {
  readonly #thread: PgliteThread;
  readonly #client: number;
  #released = false;

  constructor(thread: PgliteThread) {
    super();
    this.#thread = thread;
    this.#client = thread.newClient();
  }

  connect() {
    process.nextTick(() => this.emit("connect"));
    return this;
  }

  /** Tells the thread this client is gone (its open transaction, if any, is rolled back). */
  #release(): Promise<void> {
    if (this.#released) return Promise.resolve();
    this.#released = true;
    return this.#thread.release(this.#client).catch(() => undefined);
  }

  setNoDelay() {
    return this;
  }

  setKeepAlive() {
    return this;
  }

  ref() {
    return this;
  }

  unref() {
    return this;
  }

  /** Messages written since the last batch went to the thread. */
  #batch: Buffer[] = [];

  /**
   * node-postgres writes a query's Parse, Bind, Describe and Execute one by one, then Sync, and
   * reads nothing back before Sync's answer: they go to the thread as one batch, one crossing per
   * query instead of five.
   */
  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error) => void) {
    this.#batch.push(chunk);
    if (!endsExchange(chunk)) {
      callback();
      return;
    }
    const batch = this.#batch.length === 1 ? chunk : Buffer.concat(this.#batch);
    this.#batch = [];
    this.#thread.protocol(this.#client, batch).then((answer) => {
      if (answer.length) this.push(Buffer.from(answer.buffer, answer.byteOffset, answer.length));
      callback();
    }, callback);
  }

  override _read() {}

  override _final(callback: () => void) {
    this.push(null);
    void this.#release().then(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void) {
    void this.#release().then(() => callback(error));
  }
}
