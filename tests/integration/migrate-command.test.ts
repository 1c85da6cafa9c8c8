import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { createDb } from "../../db/index.ts";
import { migrationFiles } from "../../db/migrate.ts";
import { withPgClient } from "../helpers/pg-client.ts";

/**
 * `npm run migrate` (scripts/migrate.ts), and every way the site starts refusing a database whose
 * schema is newer than its build (docs/decisions/0097-safe-upgrades.md): `npm start`
 * (scripts/start.mjs, the compiled server/main.ts), its cluster primary (WEB_CONCURRENCY=2, on
 * PostgreSQL), `npm run worker` (PostgreSQL) and `npm run migrate`. Each is run as the shell runs
 * it, a child process, and must exit non-zero with one line on stderr.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const databaseUrl = process.env.DATABASE_URL;
const NEWER = "999_from_a_newer_build.sql";
const folders: string[] = [];
const schemas: string[] = [];

afterAll(async () => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  if (databaseUrl && schemas.length) {
    await withPgClient(databaseUrl, async (client) => {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
  }
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Each command answers in seconds (a refusal reads two small tables; the embedded migrate took 13 s
 * on CI's busy machine). One that has not ended by then is killed with everything it started, and
 * the test fails naming it, rather than waiting out the test's whole time.
 */
const COMMAND_TIMEOUT_MS = 180_000;
const TIMEOUT = 4 * COMMAND_TIMEOUT_MS + 60_000;

/** Runs `command args` from the project's folder with `env` over a clean environment. */
function run(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  const baseEnv = { ...process.env, LOG_LEVEL: "warn", PORT: "0" } as Record<string, string>;
  delete baseEnv.DATABASE_URL;
  delete baseEnv.WEB_CONCURRENCY;
  return new Promise((resolve, reject) => {
    // A process group of its own, so that a kill reaches npm's children too.
    const child = spawn(command, args, {
      cwd: root,
      env: { ...baseEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    const timer = setTimeout(() => {
      stderr += `\n[the test killed \`${[command, ...args].join(" ")}\` after ${COMMAND_TIMEOUT_MS / 1000} s]`;
      process.kill(-child.pid!, "SIGKILL");
    }, COMMAND_TIMEOUT_MS);
    // "close", not "exit": the process can end before its output has all been read.
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const npmRun = (script: string, env: Record<string, string>) =>
  run("npm", ["run", "--silent", script], env);
const npmStart = (env: Record<string, string>) => run(process.execPath, ["scripts/start.mjs"], env);

/** What a command wrote on stderr, without npm's own warnings about the machine's npmrc. */
/** The messages of the command's log lines (core/log/logger.ts: one JSON object a line). */
function messages(stdout: string): string[] {
  return stdout
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

function errorLines(result: Run): string[] {
  return result.stderr.split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
}

function expectRefused(result: Run) {
  expect(result.code, result.stdout + result.stderr).not.toBe(0);
  const lines = errorLines(result);
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toContain(NEWER);
  expect(lines[0]).toContain("older than the database");
}

describe("on the embedded database", () => {
  it(
    "npm run migrate applies what is pending, one line each and a summary, then nothing",
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "migrate-command-"));
      folders.push(dataDir);
      const files = migrationFiles();

      const first = await npmRun("migrate", { DATA_DIR: dataDir, LOG_LEVEL: "info" });
      expect(first.code, first.stderr).toBe(0);
      const lines = messages(first.stdout);
      expect(lines.slice(0, -1).map((line) => line.split(" ")[1])).toEqual(
        files.map((f) => f.name),
      );
      expect(lines.at(-1)).toMatch(
        new RegExp(`^${files.length} migrations applied in [\\d.]+ s; the schema is current`),
      );

      const again = await npmRun("migrate", { DATA_DIR: dataDir, LOG_LEVEL: "info" });
      expect(again.code, again.stderr).toBe(0);
      expect(messages(again.stdout)).toEqual([
        `Nothing to apply: the schema is current (${files.length} migrations, the last ${files.at(-1)!.name}).`,
      ]);

      // A newer build has since migrated this folder.
      const handle = await createDb({ dataDir, migrate: false });
      try {
        await sql`INSERT INTO schema_migrations (name) VALUES (${NEWER})`.execute(handle.db);
      } finally {
        await handle.close();
      }
      expectRefused(await npmRun("migrate", { DATA_DIR: dataDir }));
      expectRefused(await npmStart({ DATA_DIR: dataDir }));
    },
    TIMEOUT,
  );
});

describe.skipIf(!databaseUrl)("on PostgreSQL", () => {
  it(
    "npm start, its cluster primary, npm run worker and npm run migrate refuse a newer schema",
    async () => {
      const schema = `migrate_command_${randomBytes(5).toString("hex")}`;
      schemas.push(schema);
      const handle = await createDb({ databaseUrl: databaseUrl!, schema });
      try {
        await sql`INSERT INTO schema_migrations (name) VALUES (${NEWER})`.execute(handle.db);
      } finally {
        await handle.close();
      }
      const url = new URL(databaseUrl!);
      url.searchParams.set("options", `-c search_path="${schema}",public`);
      const env = { DATABASE_URL: url.toString() };

      expectRefused(await npmRun("migrate", env));
      expectRefused(await npmRun("worker", env));
      expectRefused(await npmStart({ ...env, WEB_CONCURRENCY: "1" }));
      expectRefused(await npmStart({ ...env, WEB_CONCURRENCY: "2" }));
    },
    TIMEOUT,
  );
});
