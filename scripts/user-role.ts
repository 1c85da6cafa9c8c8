// `npm run user:role -- --email someone@example.com --role admin`: sets a role from the shell, on
// the embedded database (DATA_DIR) or on DATABASE_URL, migrating first as the server does. This is
// how the first owner of a fresh site gets into the console (README.md). Prints what it did; any
// failure is one line on stderr and exit code 1.
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "../config/env.ts";
import { DomainError } from "../core/errors.ts";
import { USER_ROLES } from "../core/people/roles/schema.ts";
import { assignRoleFromShell } from "../core/people/roles/service.ts";
import { createDb } from "../db/index.ts";
import { DataDirLockedError, lockDataDir } from "../db/lock.ts";
import type { UserRole } from "../db/schema.ts";

const USAGE =
  "usage: npm run user:role -- --email someone@example.com --role member|moderator|admin";

class UsageError extends Error {}

function readArguments(argv: string[]): { email: string; role: UserRole } {
  let values: { email?: string; role?: string };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { email: { type: "string" }, role: { type: "string" } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(`${(error as Error).message.split("\n")[0]} (${USAGE})`);
  }
  const email = values.email?.trim();
  if (!email) throw new UsageError(`--email is required (${USAGE})`);
  const role = values.role?.trim().toLowerCase();
  if (!role) throw new UsageError(`--role is required (${USAGE})`);
  if (!(USER_ROLES as readonly string[]).includes(role)) {
    throw new UsageError(`Unknown role "${values.role}": use member, moderator or admin.`);
  }
  return { email, role: role as UserRole };
}

export async function runUserRole(argv: string[], env = process.env): Promise<number> {
  let releaseLock = () => {};
  try {
    const input = readArguments(argv);
    const config = loadConfig({ ...env, LOG_LEVEL: env.LOG_LEVEL || "warn" });
    if (!config.databaseUrl) {
      try {
        releaseLock = lockDataDir(config.dataDir);
      } catch (error) {
        if (!(error instanceof DataDirLockedError)) throw error;
        throw new DataDirLockedError(
          `The server is running on the embedded database in ${config.dataDir} (one process at a time may open it): stop the server, run this command, then start the server again.`,
        );
      }
    }
    const handle = await createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const { email, before, after } = await assignRoleFromShell(handle.db, input);
      console.log(
        before === after ? `${email}: already ${after}` : `${email}: ${before} → ${after}`,
      );
    } finally {
      await handle.close();
    }
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof ConfigError ||
      error instanceof DataDirLockedError ||
      error instanceof DomainError
    ) {
      console.error(error.message);
      return 1;
    }
    console.error(`Could not set the role: ${(error as Error).message}`);
    return 1;
  } finally {
    releaseLock();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  process.exitCode = await runUserRole(process.argv.slice(2));
}
