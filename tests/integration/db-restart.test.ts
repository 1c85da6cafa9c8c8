import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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

/**
 * Restarts the whole PostgreSQL cluster under load. Every other test connected to it fails
 * meanwhile, so this runs only when asked (PG_RESTART_TEST=1), alone: `.ci/run` has a step for it.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const ENABLED = Boolean(DATABASE_URL) && process.env.PG_RESTART_TEST === "1";
const run = promisify(execFile);

function cluster(action: "restart" | "start") {
  const version = fs.readdirSync("/etc/postgresql").sort()[0]!;
  return run("pg_ctlcluster", ["--skip-systemctl-redirect", version, "main", action]);
}

async function postgresAccepts(): Promise<boolean> {
  const url = new URL(DATABASE_URL!);
  return run("pg_isready", ["-q", "-h", url.hostname, "-p", url.port || "5432"]).then(
    () => true,
    () => false,
  );
}

describe.skipIf(!ENABLED)(
  "restarting PostgreSQL under load (runs only with DATABASE_URL and PG_RESTART_TEST=1: it disturbs every other test on the server)",
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
      // Whatever happened above, PostgreSQL is left running.
      if (!(await postgresAccepts())) await cluster("start").catch(() => {});
      await waitUntil(postgresAccepts, { timeoutMs: 30_000, what: "PostgreSQL" }).catch(() => {});
      await server?.kill();
      await schema?.drop();
      data.remove();
    }, 60_000);

    it("stays up, serves again within 5 s of PostgreSQL being back, and keeps every acknowledged write", async () => {
      let done = false;
      const load = runMixedLoad(server.url, target, { workers: 8, keepGoing: () => !done });
      await new Promise((resolve) => setTimeout(resolve, 1000));

      const restartStarted = Date.now();
      await cluster("restart");
      const restartMs = Date.now() - restartStarted;
      await waitUntil(postgresAccepts, { timeoutMs: 30_000, what: "PostgreSQL to accept" });
      const back = Date.now();
      const servingAfter = await waitUntil(
        async () =>
          (await fetch(`${server.url}/api/health`)).status === 200 &&
          (
            await fetch(`${server.url}/api/home`, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: "{}",
            })
          ).status === 200,
        { timeoutMs: 5000, what: "the server to serve again" },
      );
      expect(Date.now() - back).toBeLessThan(5000);

      await new Promise((resolve) => setTimeout(resolve, 1000));
      done = true;
      const result = await load;

      expect(server.child.exitCode).toBeNull();
      expect(server.output()).not.toMatch(/Unhandled 'error' event/);
      expect(result.networkErrors).toEqual([]);
      expect(result.unexpected).toEqual([]);
      expect(result.byStatus["503"]).toBeGreaterThan(0); // the outage was seen

      const stored = await storedWrites(schema.handle.db, result.attemptedWrites);
      expect(result.acknowledgedWrites.filter((text) => !stored.has(text))).toEqual([]);
      console.info(
        `db restart (pg_ctlcluster restart took ${restartMs} ms): ${result.requests} requests ` +
          `${JSON.stringify(result.byStatus)}; writes acknowledged ${result.acknowledgedWrites.length}, ` +
          `stored ${stored.size} (of ${result.attemptedWrites.length} sent); ` +
          `serving again ${servingAfter} ms after PostgreSQL accepted connections`,
      );
    }, 90_000);
  },
);
