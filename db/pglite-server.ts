import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import pg from "pg";
import type {
  PgliteServerAnswer,
  PgliteServerOptions,
  PgliteServerRequest,
} from "./pglite-server-worker.ts";

/**
 * The name node-postgres gives a server's Unix socket in the folder it is told as `host`, after
 * the port: PostgreSQL's own convention.
 */
const SOCKET_PORT = 5432;

/**
 * PGlite in a thread of its own (docs/decisions/0060, 0075), served there by PGlite's socket server
 * on a Unix socket in a folder only this user may enter, so that node-postgres connects to it as
 * to PostgreSQL and the queries' WebAssembly runs beside the server's thread, not in it.
 */
export class PgliteServer {
  readonly #worker: Worker;
  readonly #socketDir: string;
  readonly #removeSocketDir = () => fs.rmSync(this.#socketDir, { recursive: true, force: true });
  readonly #pending = new Map<number, (answer: PgliteServerAnswer) => void>();
  #nextId = 1;
  #exited: Error | null = null;

  private constructor(options: Omit<PgliteServerOptions, "socketPath">) {
    // mkdtemp makes the folder readable by its owner only: PGlite asks for no password.
    this.#socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "chalkboard-pglite-"));
    // Also when the process ends without closing the database.
    process.once("exit", this.#removeSocketDir);
    this.#worker = new Worker(new URL("./pglite-server-worker.ts", import.meta.url), {
      workerData: {
        ...options,
        socketPath: path.join(this.#socketDir, `.s.PGSQL.${SOCKET_PORT}`),
      } satisfies PgliteServerOptions,
    });
    this.#worker.on("message", (answer: PgliteServerAnswer) => {
      const settle = this.#pending.get(answer.id);
      this.#pending.delete(answer.id);
      // Idle, the thread does not keep the process alive (a script that forgot to close the
      // database still ends): the pool's connection does while a query runs, and the thread
      // while it is asked something here.
      if (this.#pending.size === 0) this.#worker.unref();
      settle?.(answer);
    });
    const fail = (error: Error) => {
      this.#exited = error;
      for (const settle of this.#pending.values())
        settle({ id: 0, ok: false, error: error.message });
      this.#pending.clear();
      this.#removeSocketDir();
      process.off("exit", this.#removeSocketDir);
    };
    this.#worker.on("error", fail);
    this.#worker.on("exit", (code) => fail(new Error(`the PGlite thread exited (${code})`)));
  }

  /** Starts the thread and waits until PGlite has opened the database and listens. */
  static async start(options: Omit<PgliteServerOptions, "socketPath">): Promise<PgliteServer> {
    const server = new PgliteServer(options);
    const opened = await new Promise<PgliteServerAnswer>((resolve) =>
      server.#pending.set(0, resolve),
    );
    if (!opened.ok) {
      await server.#worker.terminate();
      throw new Error(`PGlite could not open the database: ${opened.error}`);
    }
    return server;
  }

  #ask(kind: PgliteServerRequest["kind"]): Promise<PgliteServerAnswer & { ok: true }> {
    if (this.#exited) return Promise.reject(this.#exited);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, (answer) =>
        answer.ok ? resolve(answer) : reject(new Error(answer.error)),
      );
      this.#worker.ref();
      this.#worker.postMessage({ id, kind } satisfies PgliteServerRequest);
    });
  }

  async dumpImage(): Promise<Blob> {
    return (await this.#ask("dump")).image ?? new Blob([]);
  }

  /** Resolves while PGlite is open and its thread answers; does not touch the session. */
  async ping(): Promise<void> {
    await this.#ask("ping");
  }

  async close(): Promise<void> {
    if (this.#exited) return;
    await this.#ask("close");
    await this.#worker.terminate();
  }

  /** Where node-postgres finds the socket, as it finds a local PostgreSQL's. */
  connection(): Pick<pg.PoolConfig, "host" | "port" | "user" | "database"> {
    return { host: this.#socketDir, port: SOCKET_PORT, user: "postgres", database: "postgres" };
  }
}

/** The pool's wait for the one connection, as for PostgreSQL's (db/index.ts). */
const TIMEOUT = "timeout exceeded when trying to connect";

/**
 * node-postgres's pool over PGlite's one session: one connection (docs/decisions/0075). A query
 * that waits longer than `connectionTimeoutMillis` for it fails, as on PostgreSQL with a full
 * pool, with an error that says what held the connection: an open transaction (a query made
 * outside a transaction from inside it would otherwise wait for ever), or other queries. The
 * pool's own error stays its cause, so the request still answers 503 (db/faults.ts).
 */
export class PglitePool extends pg.Pool {
  #client: pg.Client | undefined;

  constructor(config: pg.PoolConfig) {
    // Kept for good; idle, it lets the process end.
    super({ idleTimeoutMillis: 0, allowExitOnIdle: true, ...config, max: 1 });
    this.on("connect", (client) => {
      this.#client = client;
      // PGlite's session outlives a connection: one that replaces a lost one (the socket server
      // has rolled back what the lost one left open) would find its named statements, which
      // node-postgres would parse again under the same names.
      void client.query("DEALLOCATE ALL").catch(() => undefined);
    });
    this.on("remove", (client) => {
      if (this.#client === client) this.#client = undefined;
    });
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(
    callback: (
      error: Error | undefined,
      client: pg.PoolClient | undefined,
      done: () => void,
    ) => void,
  ): void;
  override connect(
    callback?: (
      error: Error | undefined,
      client: pg.PoolClient | undefined,
      done: () => void,
    ) => void,
  ): Promise<pg.PoolClient> | void {
    if (!callback) {
      return new Promise((resolve, reject) =>
        this.connect((error, client) => (error ? reject(error) : resolve(client!))),
      );
    }
    super.connect((error, client, done) =>
      callback(error?.message === TIMEOUT ? this.#waitedTooLong(error) : error, client, done),
    );
  }

  #waitedTooLong(error: Error): Error {
    const seconds = (this.options.connectionTimeoutMillis ?? 0) / 1000;
    const status = this.#client?.getTransactionStatus();
    const cause =
      status === "T" || status === "E"
        ? "an open transaction held it all that time (a query made outside a transaction from inside it waits for that transaction's end)"
        : "other queries kept it busy all that time (more traffic than PGlite serves: PostgreSQL is the engine for that)";
    return new Error(`Waited ${seconds} s for the embedded database's one connection: ${cause}.`, {
      cause: error,
    });
  }
}
