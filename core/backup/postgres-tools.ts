import { spawn } from "node:child_process";
import { BackupError } from "./manifest.ts";

/**
 * PostgreSQL's own client programs (pg_dump, pg_restore), found on PATH as an operator installs
 * them. A dump is only as good as the pg_dump that wrote it: pg_dump refuses a newer server, and
 * pg_restore reads no archive of a newer pg_dump, so both are checked before any work starts.
 */
export type PostgresTool = "pg_dump" | "pg_restore";

/** What the program printed to stderr, kept short for a one-line message. */
function firstLines(text: string): string {
  const lines = text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(0, 2).join(" / ") || "no message";
}

function run(
  tool: PostgresTool,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${tool} was not found on PATH: install PostgreSQL's client programs (Debian: postgresql-client-<version>, the server's version or newer) or put their bin folder first in PATH.`,
            )
          : error,
      ),
    );
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The major version of pg_dump or pg_restore on PATH ("pg_dump (PostgreSQL) 15.20 …" → 15). */
export async function toolMajorVersion(tool: PostgresTool): Promise<number> {
  const { code, stdout, stderr } = await run(tool, ["--version"]);
  const match = /\(PostgreSQL\)\s+(\d+)/.exec(stdout);
  if (code !== 0 || !match) {
    throw new BackupError(`${tool} --version did not answer as expected: ${firstLines(stderr)}`);
  }
  return Number(match[1]);
}

/** The major version of a server_version_num (150020 → 15). */
export const serverMajor = (serverVersionNum: number) => Math.floor(serverVersionNum / 10000);

/**
 * libpq's connection string without the password, which goes in PGPASSWORD instead: a command
 * line is readable by every user of the machine (ps), the environment only by its owner.
 */
export function libpqTarget(databaseUrl: string): { dbname: string; env: Record<string, string> } {
  const url = new URL(databaseUrl);
  const password = decodeURIComponent(url.password);
  url.password = "";
  return { dbname: url.href, env: password ? { PGPASSWORD: password } : {} };
}

/** Runs the tool; a non-zero exit is a BackupError with the tool's own first lines. */
export async function runTool(
  tool: PostgresTool,
  args: string[],
  databaseUrl: string,
  what: string,
): Promise<void> {
  const { dbname, env } = libpqTarget(databaseUrl);
  const { code, stderr } = await run(tool, [...args, `--dbname=${dbname}`], env);
  if (code !== 0) throw new BackupError(`${what} failed (${tool}): ${firstLines(stderr)}`);
}
