import fs from "node:fs";
import net from "node:net";
import type pg from "pg";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { migrationFiles } from "../../db/migrate.ts";
import { postgresReadiness, pgliteReadiness, type DatabaseReadiness } from "../../db/readiness.ts";
import { buildApp } from "../../server/app.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { testWorld } from "../setup/test-world.ts";
import { startCuttableRelay } from "../helpers/cuttable-relay.ts";

/**
 * GET /healthz and GET /readyz (server/routes/probes.ts, docs/decisions/0093): what each answers,
 * that readiness asks the database apart from the app's pool (a saturated pool is not a database
 * that is down, one that is really gone is), and the drain's answer.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const ENGINE = DATABASE_URL ? "PostgreSQL" : "PGlite";

/** Readiness remembers its answer for a second: this is long enough for a fresh one. */
const freshAnswer = () => new Promise((resolve) => setTimeout(resolve, 1100));

describe(`GET /healthz and GET /readyz (${ENGINE})`, () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ seed: "none", env: { RATE_LIMIT: "on" } });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  it("answers 200 to both, never stored, with no cookie, even for a stale session cookie", async () => {
    for (const url of ["/healthz", "/readyz"]) {
      for (const cookies of [{}, { [SESSION_COOKIE]: "no-such-session" }] as Record<
        string,
        string
      >[]) {
        const answer = await t.app.inject({ method: "GET", url, cookies });
        expect(answer.statusCode, url).toBe(200);
        expect(answer.headers["cache-control"], url).toBe("no-store");
        expect(answer.headers["set-cookie"], url).toBeUndefined();
        expect(answer.headers["content-type"], url).toMatch(/^application\/json/);
        expect(answer.json(), url).toEqual(
          url === "/healthz" ? { status: "ok" } : { status: "ready" },
        );
      }
    }
  });

  it("has no rate limit (rate limits are on in this app)", async () => {
    for (let i = 0; i < 300; i++) {
      const answer = await t.app.inject({ method: "GET", url: i % 2 ? "/healthz" : "/readyz" });
      expect(answer.statusCode).toBe(200);
    }
  });

  it("stays ready while every connection of the app's pool is held in a long transaction", async () => {
    const held: pg.PoolClient[] = [];
    const max = t.pool.options.max;
    try {
      for (let i = 0; i < max; i++) {
        const client = await t.pool.connect();
        held.push(client);
        await client.query("BEGIN");
        await client.query("SELECT 1");
      }
      await freshAnswer();
      // The pool is saturated: /api/health, which asks through it, says the database is down...
      const health = await t.app.inject({ method: "GET", url: "/api/health" });
      expect(health.statusCode).toBe(503);
      // ...while readiness, on its own connection (or PGlite's thread), sees it answer.
      await freshAnswer();
      const ready = await t.app.inject({ method: "GET", url: "/readyz" });
      expect(ready.json()).toEqual({ status: "ready" });
      expect(ready.statusCode).toBe(200);
    } finally {
      for (const client of held) {
        await client.query("ROLLBACK").catch(() => undefined);
        client.release();
      }
    }
  }, 30_000);

  it.skipIf(!DATABASE_URL)(
    "says 'migrations' while schema_migrations lacks a file of db/migrations",
    async () => {
      const last = migrationFiles().at(-1)!.name;
      const client = await t.pool.connect();
      try {
        await client.query("DELETE FROM schema_migrations WHERE name = $1", [last]);
        await freshAnswer();
        const answer = await t.app.inject({ method: "GET", url: "/readyz" });
        expect(answer.statusCode).toBe(503);
        expect(answer.json()).toEqual({ status: "unready", reason: "migrations" });
        expect(answer.headers["cache-control"]).toBe("no-store");
      } finally {
        await client.query("INSERT INTO schema_migrations (name) VALUES ($1)", [last]);
        client.release();
      }
      await freshAnswer();
      expect((await t.app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
    },
  );

  it("asks the database once for a storm of probes, and afresh a second later", async () => {
    let asked = 0;
    const readiness = pgliteReadiness(async () => {
      asked++;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }, true);
    const { app } = await buildApp({
      config: t.config,
      db: t.deps.db,
      readiness,
      jobs: t.jobs,
      pages: false,
      logger: false,
    });
    try {
      const storm = () =>
        Promise.all(
          Array.from({ length: 200 }, () => app.inject({ method: "GET", url: "/readyz" })),
        );
      expect((await storm()).every((answer) => answer.statusCode === 200)).toBe(true);
      expect(asked).toBe(1);
      await freshAnswer();
      await storm();
      expect(asked).toBe(2);
    } finally {
      await app.close();
    }
  });

  it("answers 503 'draining' from the start of the drain, while other requests get Connection: close", async () => {
    const { app } = await buildApp({
      config: t.config,
      db: t.deps.db,
      readiness: t.readiness,
      jobs: t.jobs,
      pages: false,
      logger: false,
    });
    const drained = app.drain(500);
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: "unready", reason: "draining" });
    expect(ready.headers.connection).toBe("close");
    const live = await app.inject({ method: "GET", url: "/healthz" });
    expect(live.statusCode).toBe(200);
    expect(live.headers.connection).toBe("close");
    const call = await app.inject({ method: "GET", url: "/api/stores_list" });
    expect(call.statusCode).toBe(200);
    expect(call.headers.connection).toBe("close");
    await drained;
  });
});

describe(`readiness when the database is really gone (${ENGINE})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: "none" });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
  });

  const appWith = async (readiness: DatabaseReadiness, db = t.deps.db, jobs = t.jobs) =>
    (await buildApp({ config: t.config, db, readiness, jobs, pages: false, logger: false })).app;

  const expectGone = async (app: FastifyInstance) => {
    const ready = await app.inject({ method: "GET", url: "/readyz" });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: "unready", reason: "database" });
    expect(ready.headers["cache-control"]).toBe("no-store");
    // Liveness does not depend on the database: the process still answers.
    expect((await app.inject({ method: "GET", url: "/healthz" })).statusCode).toBe(200);
  };

  it.skipIf(!DATABASE_URL)(
    "PostgreSQL: 503 'database' while a relay to it is cut, 200 again once it is back",
    async () => {
      const target = new URL(t.databaseUrl!);
      const relay = await startCuttableRelay(target);
      const viaRelay = new URL(target);
      viaRelay.hostname = "127.0.0.1";
      viaRelay.port = String(relay.port);
      const readiness = postgresReadiness(
        { connectionString: viaRelay.href, options: `-c search_path="${t.schema}",public` },
        { timeoutMs: 1000, cacheMs: 1000 },
      );
      const app = await appWith(readiness);
      try {
        expect((await app.inject({ method: "GET", url: "/readyz" })).json()).toEqual({
          status: "ready",
        });
        await relay.cut();
        await freshAnswer();
        await expectGone(app);
        await relay.restore();
        await freshAnswer();
        expect((await app.inject({ method: "GET", url: "/readyz" })).statusCode).toBe(200);
      } finally {
        await app.close();
        await readiness.close();
        await relay.close().catch(() => undefined);
      }
    },
    30_000,
  );

  it.skipIf(!DATABASE_URL)("PostgreSQL: 503 'database' when nothing listens there", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const readiness = postgresReadiness({
      connectionString: `postgres://postgres@127.0.0.1:${port}/nothing`,
    });
    try {
      expect(await readiness.check()).toBe("database");
    } finally {
      await readiness.close();
    }
  });

  it.skipIf(DATABASE_URL)(
    "PGlite: 503 'database' once the embedded database has closed",
    async () => {
      const image = new Blob([await fs.promises.readFile(testWorld().migrated)]);
      const handle: DbHandle = await createDb({ databaseUrl: "memory://", image });
      const jobs = createSiteJobQueue(handle);
      const app = await appWith(handle.readiness, handle.db, jobs);
      try {
        expect((await app.inject({ method: "GET", url: "/readyz" })).json()).toEqual({
          status: "ready",
        });
        await handle.close();
        await freshAnswer();
        await expectGone(app);
      } finally {
        await app.close();
        await handle.close();
      }
    },
    60_000,
  );

  it("PGlite's readiness says 'migrations' for a schema that was not current at start", async () => {
    const readiness = pgliteReadiness(async () => {}, false);
    expect(await readiness.check()).toBe("migrations");
    const down = pgliteReadiness(() => Promise.reject(new Error("the PGlite thread exited")), true);
    expect(await down.check()).toBe("database");
  });
});
