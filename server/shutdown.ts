import net from "node:net";
import type { FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";

/**
 * Graceful shutdown (docs/decisions/0023). On SIGTERM the server stops accepting connections, and
 * every response from then on carries `Connection: close`, so each kept-alive connection closes
 * right after its next answer: the client learns it from the answer instead of from a reset.
 * Connections that send nothing more are closed after a grace period; requests still running are
 * awaited up to a deadline. Then the closers run in order (jobs, database, DATA_DIR lock), and the
 * process exits within 10 s whatever happens.
 */

/** Something to close on the way out, after the HTTP server has drained. */
export interface Closer {
  name: string;
  close(): Promise<void> | void;
}

export const SHUTDOWN_TIMING = {
  /** Kept-alive connections that stay idle this long after SIGTERM are closed. */
  idleGraceMs: 5000,
  /** Requests still running by then are cut off. */
  requestDeadlineMs: 8000,
  /** The process exits by then, even if a closer hangs. */
  exitDeadlineMs: 10_000,
};

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Stops accepting, lets kept-alive connections finish, then closes the Fastify instance (its
     * onClose hooks).
     */
    drain(): Promise<void>;
  }
}

/**
 * The `Connection: close` hook (registered before the app is ready) and `app.drain()`, which
 * turns it on (server/main.ts calls it on SIGTERM).
 */
export const drainPlugin = fp<{ timing?: typeof SHUTDOWN_TIMING }>(
  async (app, { timing = SHUTDOWN_TIMING }) => {
    let draining = false;
    app.addHook("onSend", async (_request, reply, payload) => {
      if (draining) reply.header("connection", "close");
      return payload;
    });

    app.decorate("drain", async function drain(): Promise<void> {
      draining = true;
      const server = app.server;
      const started = Date.now();
      // Connections the kernel has completed but Node has not accepted yet would be reset when the
      // listener closes: let the event loop poll (and accept them) once more before closing it.
      for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
      // net.Server#close stops listening and calls back once every connection has ended. (http's
      // own close() would also drop idle kept-alive connections at once, racing a client that is
      // sending on one of them right now: that race is the reset this drain exists to avoid.)
      const allClosed = new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        net.Server.prototype.close.call(server, () => resolve());
      });
      const until = (ms: number) =>
        Promise.race([
          allClosed.then(() => true),
          new Promise<boolean>((resolve) =>
            setTimeout(() => resolve(false), Math.max(0, ms - (Date.now() - started))).unref(),
          ),
        ]);

      if (!(await until(timing.idleGraceMs))) {
        server.closeIdleConnections();
        if (!(await until(timing.requestDeadlineMs))) {
          app.log.warn("shutdown: requests still running at the deadline were cut off");
          server.closeAllConnections();
        }
      }
      await app.close(); // Fastify's onClose hooks; later requests would answer 503 (return503OnClosing)
    });
  },
  { name: "drain" },
);

/**
 * Runs the closers one after another (each failure is logged and the next one still runs), then
 * exits: 0 when all closed, 1 when one failed or the exit deadline passed first.
 */
export function shutdownSequence(
  log: FastifyBaseLogger,
  closers: Closer[],
  {
    exitDeadlineMs = SHUTDOWN_TIMING.exitDeadlineMs,
    exit = (code: number) => process.exit(code),
  } = {},
) {
  let started = false;
  return async (signal: string) => {
    if (started) return;
    started = true;
    log.info(`${signal}: closing (${closers.map((c) => c.name).join(", then ")})`);
    let current = "";
    setTimeout(() => {
      log.error(`shutdown took over ${exitDeadlineMs / 1000} s (stuck at: ${current}); exiting`);
      exit(1);
    }, exitDeadlineMs);

    let failed = false;
    for (const closer of closers) {
      current = closer.name;
      try {
        await closer.close();
      } catch (error) {
        failed = true;
        log.error({ err: error }, `shutdown: ${closer.name} failed`);
      }
    }
    exit(failed ? 1 : 0);
  };
}
