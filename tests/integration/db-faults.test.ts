import { randomBytes } from "node:crypto";
import path from "node:path";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/env.ts";
import { createSession } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { seedDemoData } from "../../db/demo/seed.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { isDatabaseUnavailable } from "../../db/faults.ts";
import { buildApp, type BuiltApp } from "../../server/app.ts";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import {
  prepareLoadTarget,
  runMixedLoad,
  storedWrites,
  type LoadTarget,
} from "../helpers/fault-load.ts";
import {
  createServerSchema,
  startServerProcess,
  tempDataDir,
  waitUntil,
  type ServerProcess,
  type ServerSchema,
} from "../helpers/server-process.ts";
import { createTestUser } from "../helpers/users.ts";
import { createFolderStorage } from "../../core/media/storage.ts";
import { DEMO_IMAGE_CACHE } from "../setup/demo-images.ts";
import { startCuttableRelay } from "../helpers/cuttable-relay.ts";

const DATABASE_URL = process.env.DATABASE_URL;
const SKIP_REASON = "needs PostgreSQL: set DATABASE_URL (PGlite runs in-process and cannot drop)";

describe("isDatabaseUnavailable", () => {
  it.each([
    ["admin shutdown (pg_terminate_backend)", { code: "57P01" }],
    ["crash shutdown", { code: "57P02" }],
    ["starting up", { code: "57P03" }],
    ["connection exception class 08", { code: "08006" }],
    ["refused", Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })],
    ["reset", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
    ["lost mid-query", new Error("Connection terminated unexpectedly")],
    ["pool timeout", new Error("timeout exceeded when trying to connect")],
    ["dead client", new Error("Client has encountered a connection error and is not queryable")],
    [
      "connect timeout, with its cause",
      new Error("Connection terminated due to connection timeout", { cause: new Error("x") }),
    ],
    [
      "every address refused",
      new AggregateError([Object.assign(new Error("r"), { code: "ECONNREFUSED" })], "connect"),
    ],
    ["wrapped", new Error("query failed", { cause: { code: "57P01" } })],
  ])("knows %s", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["unique violation", { code: "23505" }],
    ["syntax error", { code: "42601" }],
    ["a service's 404", Object.assign(new Error("No Data Found"), { statusCode: 404 })],
    ["a plain bug", new TypeError("x is undefined")],
    ["nothing", undefined],
  ])("leaves %s alone", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe(`GET /api/health and a closed pool (${DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  const schema = DATABASE_URL ? `health_${randomBytes(5).toString("hex")}` : undefined;
  const data = tempDataDir();
  let handle: DbHandle;
  let app: BuiltApp["app"];

  beforeAll(async () => {
    handle = await createDb({ databaseUrl: DATABASE_URL ?? "memory://", schema, poolSize: 2 });
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: data.dir, LOG_LEVEL: "silent" });
    ({ app } = await buildApp({
      config,
      db: handle.db,
      readiness: handle.readiness,
      jobs: createSiteJobQueue(handle),
      pages: false,
      logger: false,
    }));
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    data.remove();
  });

  it("reports the database up, then down with 503 once its pool is gone, as do the calls", async () => {
    const up = await app.inject({ method: "GET", url: "/api/health" });
    expect(up.statusCode).toBe(200);
    expect(up.json()).toEqual({ status: "ok", database: "up" });

    if (schema) await handle.db.schema.dropSchema(schema).cascade().execute();
    await handle.close();
    await waitUntil(async () => (await app.inject({ url: "/api/health" })).statusCode === 503, {
      what: "health to notice",
    });
    const down = await app.inject({ method: "GET", url: "/api/health" });
    expect(down.headers["retry-after"]).toBe("5");
    expect(down.json()).toEqual({ status: "unavailable", database: "down" });
    const call = await app.inject({ method: "GET", url: "/api/stores_list" });
    expect(call.statusCode).toBe(503);
    expect(call.headers["retry-after"]).toBe("5");
    expect(call.json()).toMatchObject({ status: false });
  });
});

describe.skipIf(!DATABASE_URL)(`while PostgreSQL is out of reach (${SKIP_REASON})`, () => {
  let relay: Awaited<ReturnType<typeof startCuttableRelay>>;
  let handle: DbHandle;
  let built: BuiltApp;
  let sessionToken: string;
  const data = tempDataDir();
  const schema = `outage_${randomBytes(5).toString("hex")}`;

  beforeAll(async () => {
    const target = new URL(DATABASE_URL!);
    relay = await startCuttableRelay(target);
    const viaRelay = new URL(DATABASE_URL!);
    viaRelay.hostname = "127.0.0.1";
    viaRelay.port = String(relay.port);
    handle = await createDb({ databaseUrl: viaRelay.href, schema, poolSize: 4 });
    await seedDemoData(handle.db, {
      media: createFolderStorage(path.join(data.dir, "media")),
      scale: "small",
      imageCache: DEMO_IMAGE_CACHE,
    });
    const userId = await createTestUser(handle.db);
    sessionToken = (await createSession(handle.db, userId)).token;
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: data.dir,
      RATE_LIMIT: "off",
      LOG_LEVEL: "silent",
    });
    built = await buildApp({
      config,
      db: handle.db,
      readiness: handle.readiness,
      jobs: createSiteJobQueue(handle),
      pages: "build",
      logger: false,
    });
  }, 120_000);

  afterAll(async () => {
    await built?.app.close();
    await relay?.restore().catch(() => {});
    await handle?.db.schema.dropSchema(schema).ifExists().cascade().execute();
    await handle?.close();
    await relay?.close();
    data.remove();
  });

  const inject = (options: InjectOptions) => built.app.inject(options);

  it("answers 503 with Retry-After on the API, pages and health, then serves again once it is back", async () => {
    expect((await inject({ method: "GET", url: "/api/health" })).json()).toEqual({
      status: "ok",
      database: "up",
    });
    await relay.cut();

    const api = await inject({ method: "POST", url: "/api/home", payload: {} });
    expect(api.statusCode).toBe(503);
    expect(api.headers["retry-after"]).toBe("5");
    expect(api.json()).toEqual({
      status: false,
      message: "The site is temporarily unavailable. Please try again in a moment.",
    });

    // A loader's failure: React Router renders the root ErrorBoundary's 503 page.
    const page = await inject({ method: "GET", url: "/store" });
    expect(page.statusCode).toBe(503);
    expect(page.headers["retry-after"]).toBe("5");
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain("Temporarily unavailable");

    // The session lookup fails before React Router runs: the server's own 503 page.
    const signedIn = await inject({
      method: "GET",
      url: "/",
      cookies: { [SESSION_COOKIE]: sessionToken },
    });
    expect(signedIn.statusCode).toBe(503);
    expect(signedIn.headers["retry-after"]).toBe("5");
    expect(signedIn.body).toContain("Temporarily unavailable");

    await waitUntil(async () => (await inject({ url: "/api/health" })).statusCode === 503, {
      what: "health to notice",
    });
    const health = await inject({ method: "GET", url: "/api/health" });
    expect(health.headers["retry-after"]).toBe("5");
    expect(health.json()).toEqual({ status: "unavailable", database: "down" });

    await relay.restore();
    const back = Date.now();
    await waitUntil(
      async () =>
        (await inject({ method: "POST", url: "/api/home", payload: {} })).statusCode === 200,
      { timeoutMs: 5000, what: "the API to serve again" },
    );
    await waitUntil(async () => (await inject({ url: "/api/health" })).statusCode === 200, {
      timeoutMs: 5000,
      what: "health to recover",
    });
    expect((await inject({ url: "/store" })).statusCode).toBe(200);
    expect(Date.now() - back).toBeLessThan(5000);
  });
});

describe.skipIf(!DATABASE_URL)(
  `terminating the server process's database connections under load (${SKIP_REASON})`,
  () => {
    let schema: ServerSchema;
    let server: ServerProcess;
    let target: LoadTarget;
    const data = tempDataDir();

    beforeAll(async () => {
      schema = await createServerSchema(DATABASE_URL!);
      target = await prepareLoadTarget(schema.handle.db, path.join(data.dir, "media"));
      server = await startServerProcess({ DATABASE_URL: schema.url, DATA_DIR: data.dir });
    }, 150_000);

    afterAll(async () => {
      await server?.kill();
      await schema?.drop();
      data.remove();
    });

    it("stays up, answers 503 or success meanwhile, serves again and keeps every acknowledged write", async () => {
      let terminated = 0;
      let rounds = 0;
      let done = false;
      const load = runMixedLoad(server.url, target, { workers: 8, keepGoing: () => !done });
      // Six rounds of pg_terminate_backend on all of the server's connections, 250 ms apart.
      for (; rounds < 6; rounds++) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        terminated += await schema.terminateServerConnections();
      }
      // Traffic continues a little after the last round, then stops.
      await new Promise((resolve) => setTimeout(resolve, 500));
      done = true;
      const result = await load;

      expect(terminated).toBeGreaterThan(0);
      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/Unhandled 'error' event/);
      expect(result.networkErrors).toEqual([]);
      expect(result.unexpected).toEqual([]);

      const recovered = await waitUntil(
        async () =>
          (await fetch(`${server.url}/api/health`)).status === 200 &&
          (await fetch(`${server.url}/`)).status === 200,
        { timeoutMs: 5000, what: "the server to serve again" },
      );

      const stored = await storedWrites(schema.handle.db, result.attemptedWrites);
      const lost = result.acknowledgedWrites.filter((text) => !stored.has(text));
      expect(lost).toEqual([]);
      console.info(
        `db faults, pg_terminate_backend x${rounds}: ${terminated} connections ended; ` +
          `${result.requests} requests ${JSON.stringify(result.byStatus)}; ` +
          `writes acknowledged ${result.acknowledgedWrites.length}, stored ${stored.size} ` +
          `(of ${result.attemptedWrites.length} sent); serving again after ${recovered} ms`,
      );
    }, 60_000);
  },
);
