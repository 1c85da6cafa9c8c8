import type { IncomingMessage, ServerResponse } from "node:http";
import net from "node:net";
import type { FastifyBaseLogger } from "fastify";
import fp from "fastify-plugin";
import { endProcess } from "./exit.ts";

/**
 * Graceful shutdown (docs/decisions/0023, 0093). On SIGTERM readiness answers 503 at once
 * (server/routes/probes.ts), so that a load balancer stops sending new requests here, while the
 * server goes on serving for the drain period (SHUTDOWN_DRAIN_S): it still accepts connections,
 * every answer carries `Connection: close`, so each kept-alive connection closes right after its
 * next answer (the client learns it from the answer instead of from a reset), and connections that
 * sit idle between requests are closed. Then it stops listening, awaits the requests still running
 * up to a deadline, and the closers run in order (jobs, database, DATA_DIR lock); the process exits
 * within 10 s of the drain's end whatever happens.
 */

/** Something to close on the way out, after the HTTP server has drained. */
export interface Closer {
  name: string;
  /** `signal`: what started the shutdown (SIGTERM drains for the whole period, SIGINT does not). */
  close(signal: string): Promise<void> | void;
}

export const SHUTDOWN_TIMING = {
  /**
   * A kept-alive connection idle this long while draining is closed. Not at once: a client that has
   * just had an answer sends its next request within moments, and would meet a reset; it gets that
   * answer, with `Connection: close`, instead.
   */
  idleCloseMs: 1000,
  /** How often idle connections are looked for while draining. */
  idleSweepMs: 100,
  /** Requests still running this long after the drain period are cut off. */
  requestDeadlineMs: 8000,
  /** The process exits this long after the drain period, even if a closer hangs. */
  exitDeadlineMs: 10_000,
};

/** What the drain knows of each open connection. */
interface ConnectionState {
  /** Requests on it not yet answered. */
  running: number;
  /** When its last answer ended (or it was accepted). */
  idleSince: number;
  /**
   * socket.bytesRead when a sweep first found it idle long enough; undefined until then. It is
   * closed by a later sweep only if nothing more has been read meanwhile.
   */
  bytesReadWhenSeenIdle: number | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    /**
     * Turns readiness off and `Connection: close` on, serves on for `periodMs`, then stops
     * accepting, lets the open connections finish, and closes the Fastify instance (its onClose
     * hooks).
     */
    drain(periodMs?: number): Promise<void>;
    /** True from the start of `drain()`: readiness answers 503. */
    readonly draining: boolean;
  }
}

/**
 * The `Connection: close` hook, the connections' bookkeeping (registered before the app is ready)
 * and `app.drain()`, which server/main.ts calls on SIGTERM.
 */
export const drainPlugin = fp<{ timing?: typeof SHUTDOWN_TIMING }>(
  async (app, { timing = SHUTDOWN_TIMING }) => {
    let draining = false;
    app.decorate("draining", {
      getter: () => draining,
    });
    app.addHook("onSend", async (_request, reply, payload) => {
      if (draining) reply.header("connection", "close");
      return payload;
    });

    // Which connections are idle, and since when: Node's server knows the first but not the second.
    const connections = new Map<net.Socket, ConnectionState>();
    const server = app.server;
    server.on("connection", (socket: net.Socket) => {
      connections.set(socket, {
        running: 0,
        idleSince: Date.now(),
        bytesReadWhenSeenIdle: undefined,
      });
      socket.once("close", () => connections.delete(socket));
    });
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const state = connections.get(request.socket);
      if (!state) return;
      state.running++;
      response.once("close", () => {
        state.running--;
        state.idleSince = Date.now();
      });
    });
    // A connection is closed by the second sweep that finds it idle, with nothing read in between.
    // One sweep is not enough: after the event loop was held up (a long render, a loaded machine),
    // a client's next request can be waiting unread in the socket while the clock says idle, and
    // closing a socket with unread data resets it. Between two sweeps the loop polls the sockets,
    // so such a request has been read, and its connection is busy, by the second.
    const closeIdleConnections = () => {
      const now = Date.now();
      for (const [socket, state] of connections) {
        if (state.running > 0 || now - state.idleSince < timing.idleCloseMs) {
          state.bytesReadWhenSeenIdle = undefined;
        } else if (state.bytesReadWhenSeenIdle !== socket.bytesRead) {
          state.bytesReadWhenSeenIdle = socket.bytesRead;
        } else {
          socket.destroy();
          connections.delete(socket);
        }
      }
    };

    app.decorate("drain", async function drain(periodMs = 0): Promise<void> {
      draining = true;
      const sweep = setInterval(closeIdleConnections, timing.idleSweepMs);
      try {
        await new Promise((resolve) => setTimeout(resolve, periodMs));
        const started = Date.now();
        // Connections the kernel has completed but Node has not accepted yet would be reset when
        // the listener closes: let the event loop poll (and accept them) once more before closing.
        for (let turn = 0; turn < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
        // net.Server#close stops listening and calls back once every connection has ended. (http's
        // own close() would also drop idle kept-alive connections at once, racing a client that is
        // sending on one of them right now: that race is the reset this drain exists to avoid.)
        const allClosed = new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          net.Server.prototype.close.call(server, () => resolve());
        });
        const inTime = await Promise.race([
          allClosed.then(() => true),
          new Promise<boolean>((resolve) =>
            setTimeout(
              () => resolve(false),
              Math.max(0, timing.requestDeadlineMs - (Date.now() - started)),
            ).unref(),
          ),
        ]);
        if (!inTime) {
          app.log.warn("shutdown: requests still running at the deadline were cut off");
          server.closeAllConnections();
        }
      } finally {
        clearInterval(sweep);
      }
      await app.close(); // Fastify's onClose hooks; later requests would answer 503 (return503OnClosing)
    });
  },
  { name: "drain" },
);

/**
 * Runs the closers one after another (each failure is logged and the next one still runs), then
 * exits: 0 when all closed, 1 when one failed or the exit deadline passed first. The exit lets the
 * event loop end (server/exit.ts), which the closers have emptied.
 */
export function shutdownSequence(
  log: FastifyBaseLogger,
  closers: Closer[],
  { exitDeadlineMs = SHUTDOWN_TIMING.exitDeadlineMs, exit = endProcess } = {},
) {
  let started = false;
  return async (signal: string) => {
    if (started) return;
    started = true;
    log.info(`${signal}: closing (${closers.map((c) => c.name).join(", then ")})`);
    let current = "";
    const deadline = setTimeout(() => {
      log.error(`shutdown took over ${exitDeadlineMs / 1000} s (stuck at: ${current}); exiting`);
      exit(1);
    }, exitDeadlineMs);

    let failed = false;
    for (const closer of closers) {
      current = closer.name;
      try {
        await closer.close(signal);
      } catch (error) {
        failed = true;
        log.error({ err: error }, `shutdown: ${closer.name} failed`);
      }
    }
    clearTimeout(deadline);
    exit(failed ? 1 : 0);
  };
}
