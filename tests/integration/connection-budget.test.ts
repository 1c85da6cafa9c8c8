import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_HEADROOM,
  readConnectionLimits,
  type ConnectionLimits,
} from "../../db/connection-budget.ts";
import { withPgClient } from "../helpers/pg-client.ts";
import {
  createServerSchema,
  startServerProcess,
  waitUntil,
  type ServerSchema,
} from "../helpers/server-process.ts";

/**
 * The connection budget at start (docs/decisions/0105-connection-budget.md): each process says
 * what it will open, and once per site start the processes are counted against the PostgreSQL
 * server's own max_connections.
 */
const root = path.resolve(import.meta.dirname, "../..");
const databaseUrl = process.env.DATABASE_URL;

interface LogLine {
  level: number;
  msg: string;
  worker?: number | "primary";
}

const WARN = 40;
const INFO = 30;

function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

const budgetLines = (output: string) =>
  logLines(output).filter((l) => l.msg.startsWith("connection budget:"));

describe.skipIf(!databaseUrl)("the connection budget on PostgreSQL", () => {
  let schema: ServerSchema;
  let limits: ConnectionLimits;
  let available: number;

  beforeAll(async () => {
    schema = await createServerSchema(databaseUrl!);
    limits = await readConnectionLimits(schema.handle.db);
    available = limits.maxConnections - limits.superuserReserved - limits.reserved - ADMIN_HEADROOM;
  }, 60_000);

  afterAll(async () => {
    await schema?.drop();
  });

  it("warns, saying what to do, when one server process's pool is too big for max_connections", async () => {
    const pool = available; // with LISTEN and readiness, 2 more than PostgreSQL allows
    const server = await startServerProcess({
      DATABASE_URL: schema.url,
      DATABASE_POOL_SIZE: String(pool),
      LOG_LEVEL: "info",
    });
    try {
      const lines = logLines(server.output());
      expect(lines.map((l) => l.msg)).toContain(
        `this server process opens up to ${pool + 2} connections to PostgreSQL: pool ${pool}, jobs 0 (pg-boss shares the pool), listen 1, readiness 1`,
      );
      const budget = budgetLines(server.output());
      expect(budget).toHaveLength(1);
      expect(budget[0]!.level).toBe(WARN);
      expect(budget[0]!.msg).toContain(
        `this server process (1 × ${pool + 2}) could open ${pool + 2} connections, more than PostgreSQL allows ${available} (max_connections ${limits.maxConnections} − ${limits.superuserReserved} superuser_reserved_connections`,
      );
      expect(budget[0]!.msg).toContain(
        `lower DATABASE_POOL_SIZE (now ${pool}) or WEB_CONCURRENCY, raise max_connections, or put PgBouncer in front`,
      );
      // The pool opens connections as queries need them, not its whole size at start.
      const open = await withPgClient(databaseUrl!, async (client) => {
        const { rows } = await client.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1",
          [schema.applicationName],
        );
        return rows[0]!.n;
      });
      expect(open).toBeLessThan(pool);
    } finally {
      await server.kill();
    }
  }, 120_000);

  it("with WEB_CONCURRENCY=2, checks the machine once from the primary; each process says what it opens", async () => {
    const server = await startServerProcess({
      DATABASE_URL: schema.url,
      WEB_CONCURRENCY: "2",
      DATABASE_POOL_SIZE: "4",
      LOG_LEVEL: "info",
    });
    try {
      await waitUntil(
        () => logLines(server.output()).filter((l) => / is serving$/.test(l.msg)).length === 2,
        { timeoutMs: 100_000, what: "both workers to serve" },
      );
      const budget = budgetLines(server.output());
      expect(budget).toHaveLength(1);
      expect(budget[0]).toMatchObject({ level: INFO, worker: "primary" });
      const fit = Math.floor(available / 12);
      expect(budget[0]!.msg).toContain(
        `this machine's 2 server processes (2 × 6) could open 12 connections; PostgreSQL allows ${available}`,
      );
      expect(budget[0]!.msg).toContain(
        `: ${fit} machines of this size fit, fewer with \`npm run worker\` processes beside them`,
      );
      const opens = logLines(server.output()).filter((l) => l.msg.includes("opens up to"));
      expect(opens.map((l) => l.worker).sort()).toEqual([1, 2]);
      for (const line of opens) {
        expect(line.msg).toBe(
          "this server process opens up to 6 connections to PostgreSQL: pool 4, jobs 0 (pg-boss shares the pool), listen 1, readiness 1",
        );
      }
    } finally {
      await server.kill();
    }
  }, 150_000);

  describe("npm run worker", () => {
    // A database of its own: the worker keeps its jobs in the default schemas, as a site does.
    const database = `cbd_budget_${randomBytes(5).toString("hex")}`;
    const workerUrl = databaseUrl
      ? Object.assign(new URL(databaseUrl), { pathname: `/${database}` }).href
      : "";

    afterAll(async () => {
      await withPgClient(databaseUrl!, (c) =>
        c.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`),
      );
    });

    it("says what it opens and warns when its pool alone is too big", async () => {
      await withPgClient(databaseUrl!, (c) => c.query(`CREATE DATABASE "${database}"`));
      const base = { ...process.env } as Record<string, string>;
      delete base.DATABASE_URL;
      const pool = available;
      const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
        cwd: root,
        env: {
          ...base,
          LOG_LEVEL: "info",
          DATABASE_URL: workerUrl,
          DATABASE_POOL_SIZE: String(pool),
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      try {
        await waitUntil(
          () => {
            if (child.exitCode !== null) throw new Error(`worker exited:\n${output}`);
            return /working jobs/.test(output);
          },
          { timeoutMs: 100_000, what: "the worker to start" },
        );
        expect(logLines(output).map((l) => l.msg)).toContain(
          `this worker opens up to ${pool + 2} connections to PostgreSQL: pool ${pool}, jobs 0 (pg-boss shares the pool), listen 1, readiness 1`,
        );
        const budget = budgetLines(output);
        expect(budget).toHaveLength(1);
        expect(budget[0]!.level).toBe(WARN);
        expect(budget[0]!.msg).toContain(
          `this worker (1 × ${pool + 2}) could open ${pool + 2} connections, more than PostgreSQL allows ${available}`,
        );
        expect(budget[0]!.msg).toContain(`lower DATABASE_POOL_SIZE (now ${pool}), raise`);
        child.kill("SIGTERM");
        expect(await exited).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL");
        await exited;
      }
    }, 150_000);
  });
});
