import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createServerSchema,
  startServerProcess,
  tempDataDir,
  waitUntil,
  type ServerProcess,
  type ServerSchema,
} from "../helpers/server-process.ts";

/**
 * SIGTERM under load (docs/decisions/0023): many clients on kept-alive connections keep sending;
 * each one stops when an answer says `Connection: close`, as a load balancer would stop using that
 * connection. No request may go unanswered and no connection may be reset.
 */
const CLIENTS = 40;
const IDLE_CLIENTS = 5;
const REQUESTS = [
  { method: "GET", path: "/api/stores_list" },
  { method: "POST", path: "/api/home", body: "{}" },
  { method: "GET", path: "/" },
];

interface Tally {
  sent: number;
  answered: number;
  answeredAfterSignal: number;
  byStatus: Record<string, number>;
  errors: string[];
}

function send(
  agent: http.Agent,
  baseUrl: string,
  request: (typeof REQUESTS)[number],
): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      new URL(request.path, baseUrl),
      {
        agent,
        method: request.method,
        headers: request.body ? { "content-type": "application/json" } : {},
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({ status: res.statusCode!, connection: res.headers.connection }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

const DATABASE_URL = process.env.DATABASE_URL;

describe(`SIGTERM under load (${DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  const data = tempDataDir("cbd-shutdown-");
  let schema: ServerSchema | undefined;
  let server: ServerProcess;

  beforeAll(async () => {
    schema = DATABASE_URL ? await createServerSchema(DATABASE_URL) : undefined;
    server = await startServerProcess({
      DATA_DIR: data.dir,
      ...(schema ? { DATABASE_URL: schema.url } : {}),
    });
  }, 150_000);

  afterAll(async () => {
    await server?.kill();
    await schema?.drop();
    data.remove();
  });

  it("answers every request on kept-alive connections, resets none, and exits within 10 s", async () => {
    const tally: Tally = { sent: 0, answered: 0, answeredAfterSignal: 0, byStatus: {}, errors: [] };
    let signalledAt = 0;
    const answeredClients = new Set<number>();

    // Connections that were used once and then sit idle while the server shuts down.
    const idleAgents = Array.from(
      { length: IDLE_CLIENTS },
      () => new http.Agent({ keepAlive: true, maxSockets: 1 }),
    );
    for (const agent of idleAgents) {
      expect((await send(agent, server.url, REQUESTS[0]!)).status).toBe(200);
    }

    const clients = Array.from({ length: CLIENTS }, async (_, index) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = index; ; round++) {
          tally.sent++;
          let answer: Awaited<ReturnType<typeof send>>;
          try {
            answer = await send(agent, server.url, REQUESTS[round % REQUESTS.length]!);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code ?? String(error);
            tally.errors.push(`${code} after ${signalledAt ? Date.now() - signalledAt : -1} ms`);
            return;
          }
          tally.answered++;
          answeredClients.add(index);
          if (signalledAt) tally.answeredAfterSignal++;
          tally.byStatus[answer.status] = (tally.byStatus[answer.status] ?? 0) + 1;
          if (answer.connection === "close") return; // the server is closing this connection
        }
      } finally {
        agent.destroy();
      }
    });

    // Every connection is established and kept alive, and the load has built up.
    await waitUntil(() => answeredClients.size === CLIENTS && tally.answered >= 150, {
      timeoutMs: 60_000,
      what: "load to build up",
    });
    signalledAt = Date.now();
    const inFlight = tally.sent - tally.answered;
    server.child.kill("SIGTERM");

    await Promise.all(clients);
    const code = await server.exited;
    const exitMs = Date.now() - signalledAt;
    for (const agent of idleAgents) agent.destroy();

    console.info(
      `shutdown under load: ${tally.sent} requests sent on ${CLIENTS} kept-alive connections ` +
        `(+${IDLE_CLIENTS} idle), ${inFlight} in flight at SIGTERM; answers ${JSON.stringify(tally.byStatus)}, ` +
        `${tally.answeredAfterSignal} of them after SIGTERM; resets and other errors: ${tally.errors.length} ${JSON.stringify(tally.errors)}; ` +
        `exit code ${code} after ${exitMs} ms`,
    );
    expect(tally.errors).toEqual([]);
    expect(tally.answered).toBe(tally.sent);
    expect(
      Object.keys(tally.byStatus).every((status) => status === "200" || status === "503"),
    ).toBe(true);
    expect(tally.answeredAfterSignal).toBeGreaterThan(0);
    expect(code).toBe(0);
    expect(exitMs).toBeLessThan(10_000);
    if (!schema) expect(fs.existsSync(path.join(data.dir, "server.lock"))).toBe(false);
  }, 150_000);
});

/**
 * The drain as a load balancer meets it (docs/decisions/0093): 100 clients on kept-alive
 * connections go on sending through SIGTERM, opening new connections when an answer says
 * `Connection: close`, until the balancer, which polls /readyz, has seen it answer 503 and takes
 * the process out of rotation a moment later. Connections used once and then left idle are closed
 * by the server between requests. Not one request may fail or be reset. On PostgreSQL the server
 * runs two worker processes, which drain alike.
 */
describe(`100 kept-alive clients through SIGTERM and the drain (${DATABASE_URL ? "PostgreSQL, 2 workers" : "PGlite"})`, () => {
  const HAMMERING_CLIENTS = 100;
  const IDLE_SOCKETS = 5;
  /** How long the balancer goes on sending after its first 503 from /readyz. */
  const BALANCER_DELAY_MS = 500;
  const DRAIN_S = 4;
  const data = tempDataDir("cbd-drain-");
  let schema: ServerSchema | undefined;
  let server: ServerProcess;

  beforeAll(async () => {
    schema = DATABASE_URL ? await createServerSchema(DATABASE_URL) : undefined;
    server = await startServerProcess({
      DATA_DIR: data.dir,
      SHUTDOWN_DRAIN_S: String(DRAIN_S),
      ...(schema ? { DATABASE_URL: schema.url, WEB_CONCURRENCY: "2" } : {}),
    });
  }, 150_000);

  afterAll(async () => {
    await server?.kill();
    await schema?.drop();
    data.remove();
  });

  it("answers every request, resets none, says 503 on /readyz at once and 200 elsewhere, and exits 0", async () => {
    const requests = [
      { method: "GET", path: "/api/stores_list" },
      { method: "GET", path: "/" },
      { method: "GET", path: "/healthz" },
    ];
    let signalledAt = 0;
    let balancerOutAt = 0;
    let stopSending = false;
    const errors: string[] = [];
    const answers: { sentAt: number; status: number }[] = [];
    const probes: { sentAt: number; status: number; body: string }[] = [];
    const answeredClients = new Set<number>();
    const since = () =>
      signalledAt ? `${Date.now() - signalledAt} ms after SIGTERM` : "before SIGTERM";

    // Sockets that asked once, keeping the connection alive, and then send nothing more.
    const idle = await Promise.all(
      Array.from({ length: IDLE_SOCKETS }, async () => {
        const socket = net.connect(Number(new URL(server.url).port), "127.0.0.1");
        const state = { closedAt: 0, error: "" };
        socket.on(
          "error",
          (error: NodeJS.ErrnoException) => (state.error = error.code ?? String(error)),
        );
        socket.on("close", () => (state.closedAt = Date.now()));
        const answered = new Promise<string>((resolve) =>
          socket.once("data", (chunk) => resolve(chunk.toString("latin1"))),
        );
        socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n");
        expect(await answered).toMatch(/^HTTP\/1\.1 200 /);
        return { socket, state };
      }),
    );

    const clients = Array.from({ length: HAMMERING_CLIENTS }, async (_, index) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        for (let round = index; !stopSending; round++) {
          const sentAt = Date.now();
          try {
            const answer = await send(agent, server.url, requests[round % requests.length]!);
            answers.push({ sentAt, status: answer.status });
            answeredClients.add(index);
          } catch (error) {
            errors.push(`${(error as NodeJS.ErrnoException).code ?? String(error)} ${since()}`);
            return;
          }
        }
      } finally {
        agent.destroy();
      }
    });

    // The balancer: polls readiness on fresh connections; out of rotation a moment after a 503.
    const balancer = (async () => {
      while (!stopSending) {
        const sentAt = Date.now();
        const answer = await fetch(`${server.url}/readyz`).then(
          async (response) => ({ status: response.status, body: await response.text() }),
          (error: unknown) => ({ status: 0, body: String(error) }),
        );
        probes.push({ sentAt, ...answer });
        if (answer.status !== 200 && signalledAt && !balancerOutAt) {
          balancerOutAt = Date.now();
          setTimeout(() => (stopSending = true), BALANCER_DELAY_MS);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();

    await waitUntil(() => answeredClients.size === HAMMERING_CLIENTS && answers.length >= 300, {
      timeoutMs: 90_000,
      what: "load to build up",
    });
    signalledAt = Date.now();
    server.child.kill("SIGTERM");

    await Promise.all([...clients, balancer]);
    const code = await server.exited;
    const exitMs = Date.now() - signalledAt;

    const afterOut = answers.filter((a) => a.sentAt >= balancerOutAt);
    const byStatus: Record<number, number> = {};
    for (const a of answers) byStatus[a.status] = (byStatus[a.status] ?? 0) + 1;
    console.info(
      `drain under load: ${answers.length} answers ${JSON.stringify(byStatus)} on ${HAMMERING_CLIENTS} clients, ` +
        `${answers.filter((a) => a.sentAt >= signalledAt).length} sent after SIGTERM, ` +
        `${afterOut.length} after /readyz said 503 (${balancerOutAt - signalledAt} ms after SIGTERM); ` +
        `errors: ${errors.length} ${JSON.stringify(errors)}; idle sockets closed ` +
        `${JSON.stringify(idle.map(({ state }) => state.closedAt - signalledAt))} ms after SIGTERM; ` +
        `exit code ${code} after ${exitMs} ms`,
    );

    // Not one request failed or was reset, before, during or after the drain.
    expect(errors).toEqual([]);
    expect(Object.keys(byStatus).every((status) => status === "200" || status === "503")).toBe(
      true,
    );
    // Readiness: 200 before SIGTERM, then 503 "draining", and never 200 again.
    expect(probes.some((p) => p.sentAt < signalledAt && p.status === 200)).toBe(true);
    const firstUnready = probes.findIndex((p) => p.status !== 200);
    expect(firstUnready).toBeGreaterThanOrEqual(0);
    for (const probe of probes.slice(firstUnready)) {
      expect(probe.status).toBe(503);
      expect(JSON.parse(probe.body)).toEqual({ status: "unready", reason: "draining" });
    }
    // ...while the other requests, sent after it said so, were still served.
    expect(afterOut.filter((a) => a.status === 200).length).toBeGreaterThan(0);
    // The idle connections were closed by the server, cleanly, before it exited.
    for (const { state } of idle) {
      expect(state.error).toBe("");
      expect(state.closedAt).toBeGreaterThan(signalledAt);
    }
    expect(code).toBe(0);
    expect(exitMs).toBeLessThan(DRAIN_S * 1000 + 10_000);
    if (!schema) expect(fs.existsSync(path.join(data.dir, "server.lock"))).toBe(false);
  }, 200_000);
});
