import fs from "node:fs";
import http from "node:http";
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
