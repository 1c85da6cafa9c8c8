import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { createDb, type DbHandle } from "../../db/index.ts";
import { withPgClient } from "./pg-client.ts";

/**
 * The production server as `npm start` runs it (server/main.ts, pages from build/), in a child
 * process on a free port, for tests of what only a real process shows: crashes, signals, sockets.
 */
export interface ServerProcess {
  url: string;
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  output(): string;
  /** Ends the process if it still runs (SIGKILL), and waits for it. */
  kill(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      DATABASE_URL: "",
      DEMO_DATA: "off",
      RATE_LIMIT: "off",
      // One process, as these tests watch it (the cluster has tests of its own).
      WEB_CONCURRENCY: "1",
      PORT: String(port),
      ...env,
    },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    child,
    exited,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
  try {
    await waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
        return (await fetch(`${url}/api/stores_list`).catch(() => undefined))?.ok === true;
      },
      { timeoutMs: 100_000, what: "the server to start" },
    );
  } catch (error) {
    await server.kill();
    throw error;
  }
  return server;
}

/** Polls `check` until it answers true (no fixed sleeps); fails after `timeoutMs`. */
export async function waitUntil(
  check: () => Promise<boolean> | boolean,
  { timeoutMs = 10_000, intervalMs = 50, what = "the condition" } = {},
): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * A PostgreSQL schema of its own for a server process, migrated, with a handle for the test to set
 * up and check data. `url` points the server at it; its sessions carry `applicationName`, which
 * is how a test finds (and terminates) the server's own connections among other tests' ones.
 */
export interface ServerSchema {
  handle: DbHandle;
  url: string;
  applicationName: string;
  /** pg_terminate_backend on every connection of the server; answers how many it ended. */
  terminateServerConnections(): Promise<number>;
  drop(): Promise<void>;
}

export async function createServerSchema(databaseUrl: string): Promise<ServerSchema> {
  const tag = randomBytes(5).toString("hex");
  const schema = `proc_${tag}`;
  const applicationName = `cbd-server-${tag}`;
  const handle = await createDb({ databaseUrl, schema, poolSize: 2 });
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path="${schema}",public`);
  url.searchParams.set("application_name", applicationName);
  const admin = <T>(work: (client: pg.Client) => Promise<T>) => withPgClient(databaseUrl, work);
  return {
    handle,
    url: url.href,
    applicationName,
    terminateServerConnections: () =>
      admin(async (client) => {
        const { rows } = await client.query<{ ok: boolean }>(
          "SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1",
          [applicationName],
        );
        return rows.filter((r) => r.ok).length;
      }),
    async drop() {
      await handle.close();
      await admin((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    },
  };
}

export function tempDataDir(prefix = "cbd-proc-"): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
