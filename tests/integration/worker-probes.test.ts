import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import type { DatabaseReadiness, DatabaseReadinessState } from "../../db/readiness.ts";
import { serveWorkerMetrics } from "../../server/metrics/worker-server.ts";
import { testWorld } from "../setup/test-world.ts";

/**
 * `npm run worker`'s liveness and readiness on METRICS_PORT (server/metrics/worker-server.ts,
 * docs/decisions/0098): what each probe answers, for every reason, and that readiness follows the
 * job queue's real state. tests/integration/worker.test.ts asks them of the worker's own process.
 */

const DATABASE_URL = process.env.DATABASE_URL;

type Served = Awaited<ReturnType<typeof serveWorkerMetrics>>;
const open: Served[] = [];
afterEach(async () => {
  for (const served of open.splice(0)) await served.close();
});

/** A database side of readiness that answers `state()`, counting the checks. */
function fakeReadiness(state: () => DatabaseReadinessState) {
  const readiness = {
    checks: 0,
    check: async () => {
      readiness.checks++;
      return state();
    },
    close: async () => {},
  };
  return readiness satisfies DatabaseReadiness;
}

async function serve(options: Omit<Parameters<typeof serveWorkerMetrics>[0], "port" | "host">) {
  const served = await serveWorkerMetrics({ port: 0, host: "127.0.0.1", ...options });
  open.push(served);
  const ask = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`http://127.0.0.1:${served.port}${path}`, init);
    const text = await response.text();
    return {
      status: response.status,
      type: response.headers.get("content-type"),
      cacheControl: response.headers.get("cache-control"),
      text,
      json: () => JSON.parse(text) as unknown,
    };
  };
  return { served, ask };
}

describe(`the worker's probes on METRICS_PORT (${DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("answers each reason in order, and ready only when the database and the queue both are", async () => {
    let database: DatabaseReadinessState = "database";
    let working = false;
    let stopping = false;
    const readiness = fakeReadiness(() => database);
    const { ask } = await serve({
      readiness,
      working: () => working,
      stopping: () => stopping,
    });
    const readyz = async () => {
      const answer = await ask("/readyz");
      expect(answer.type).toBe("application/json; charset=utf-8");
      expect(answer.cacheControl).toBe("no-store");
      return { status: answer.status, body: answer.json() };
    };

    // The database is down: that is the reason, whatever the queue.
    expect(await readyz()).toEqual({
      status: 503,
      body: { status: "unready", reason: "database" },
    });
    database = "migrations";
    expect(await readyz()).toEqual({
      status: 503,
      body: { status: "unready", reason: "migrations" },
    });
    database = "ready";
    expect(await readyz()).toEqual({ status: 503, body: { status: "unready", reason: "jobs" } });
    working = true;
    expect(await readyz()).toEqual({ status: 200, body: { status: "ready" } });
    // Stopping: "draining" at once, without asking the database.
    stopping = true;
    const asked = readiness.checks;
    expect(await readyz()).toEqual({
      status: 503,
      body: { status: "unready", reason: "draining" },
    });
    expect(readiness.checks).toBe(asked);
  });

  it("answers liveness whatever the database, to HEAD too, and the metrics only as before", async () => {
    const readiness = fakeReadiness(() => "database");
    const { ask } = await serve({ readiness, working: () => false, stopping: () => false });

    const live = await ask("/healthz");
    expect(live.status).toBe(200);
    expect(live.json()).toEqual({ status: "ok" });
    expect(live.cacheControl).toBe("no-store");
    expect(readiness.checks).toBe(0);
    const head = await ask("/healthz?from=compose", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");

    // The probes say nothing private: a proxied request gets them; the metrics stay hidden from it.
    const proxied = { headers: { "x-forwarded-for": "203.0.113.7" } };
    expect((await ask("/healthz", proxied)).status).toBe(200);
    expect((await ask("/readyz", proxied)).status).toBe(503);
    expect((await ask("/metrics", proxied)).status).toBe(404);
    expect((await ask("/metrics")).status).toBe(200);
    expect((await ask("/healthz", { method: "POST" })).status).toBe(404);
    expect((await ask("/")).status).toBe(404);
  });

  it("follows the job queue: unready before it starts and after it stops", async () => {
    // On PostgreSQL, schemas of its own for the site's tables and the queue's, dropped at the end.
    const schema = DATABASE_URL ? `worker_probes_${randomBytes(5).toString("hex")}` : undefined;
    const handle: DbHandle = DATABASE_URL
      ? await createDb({ databaseUrl: DATABASE_URL, schema })
      : await createDb({
          databaseUrl: "memory://",
          image: new Blob([await fs.promises.readFile(testWorld().migrated)]),
        });
    const jobs = createSiteJobQueue(handle, schema ? { schema: `${schema}_jobs` } : {});
    try {
      const { ask } = await serve({
        readiness: handle.readiness,
        working: () => jobs.isWorking(),
        stopping: () => false,
        pool: handle.pool,
        jobs,
      });
      expect((await ask("/readyz")).json()).toEqual({ status: "unready", reason: "jobs" });
      await jobs.start({ warn: () => {}, error: () => {} });
      // The database's answer is remembered for a second; the queue is asked each time.
      const ready = await ask("/readyz");
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({ status: "ready" });
      await jobs.stop();
      expect((await ask("/readyz")).json()).toEqual({ status: "unready", reason: "jobs" });
    } finally {
      await jobs.stop();
      if (schema) {
        for (const name of [schema, `${schema}_jobs`]) {
          await handle.db.schema.dropSchema(name).ifExists().cascade().execute();
        }
      }
      await handle.close();
    }
  }, 120_000);
});
