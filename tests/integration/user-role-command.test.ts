import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDb, type DbHandle } from "../../db/index.ts";
import { lockDataDir } from "../../db/lock.ts";
import type { UserRole } from "../../db/schema.ts";

/**
 * `npm run user:role -- --email … --role …` (scripts/user-role.ts), run as the shell runs it: a
 * child process on a data folder of its own, and on PostgreSQL when DATABASE_URL is set.
 */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const TIMEOUT = 180_000;
const folders: string[] = [];

afterAll(() => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the command; `viaNpm` goes through package.json's script, as a person would type it. */
function userRole(args: string[], env: Record<string, string>, viaNpm = false): Promise<Run> {
  const baseEnv = { ...process.env, LOG_LEVEL: "silent" } as Record<string, string>;
  delete baseEnv.DATABASE_URL;
  const [command, commandArgs] = viaNpm
    ? ["npm", ["run", "--silent", "user:role", "--", ...args]]
    : [process.execPath, ["--import", "tsx", "scripts/user-role.ts", ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, commandArgs, {
      cwd: root,
      env: { ...baseEnv, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

/** What the command wrote on stderr, without npm's own warnings about the machine's npmrc. */
function errorLines(run: Run): string[] {
  return run.stderr.split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
}

async function addUser(handle: DbHandle, email: string, role: UserRole = "member") {
  await handle.db
    .insertInto("users")
    .values({ name: email.split("@")[0]!, email, password_hash: null, role })
    .execute();
}

async function roleAndAudit(handle: DbHandle, email: string) {
  const user = await handle.db
    .selectFrom("users")
    .select(["id", "role"])
    .where("email", "=", email)
    .executeTakeFirstOrThrow();
  const audit = await handle.db
    .selectFrom("audit_log")
    .select(["actor_id", "actor_name", "action", "item_id", "before", "after"])
    .where("item_type", "=", "user")
    .where("item_id", "=", String(user.id))
    .execute();
  return { role: user.role, audit, id: user.id };
}

describe("npm run user:role on the embedded database", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-user-role-"));
  folders.push(dataDir);
  const env = { DATA_DIR: dataDir };
  const open = () => createDb({ dataDir });

  it(
    "migrates a fresh data folder, then says plainly that the address is unknown",
    async () => {
      const run = await userRole(["--email", "owner@example.com", "--role", "admin"], env);
      expect(run.code).toBe(1);
      expect(errorLines(run)).toEqual(["No account has the email address owner@example.com."]);
      expect(run.stdout).toBe("");
      const handle = await open();
      try {
        const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(
          handle.db,
        );
        expect(rows.map((row) => row.name)).toContain("013_moderation.sql");
      } finally {
        await handle.close();
      }
    },
    TIMEOUT,
  );

  it(
    "makes the first owner an administrator, prints it, and audits it as the shell",
    async () => {
      let handle = await open();
      await addUser(handle, "Owner@Example.com");
      await handle.close();

      const run = await userRole(["--email", "owner@example.com", "--role", "admin"], env, true);
      expect(errorLines(run)).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("Owner@Example.com: member → admin\n");

      handle = await open();
      try {
        const { role, audit, id } = await roleAndAudit(handle, "Owner@Example.com");
        expect(role).toBe("admin");
        expect(audit).toEqual([
          {
            actor_id: null,
            actor_name: "shell",
            action: "user.role",
            item_id: String(id),
            before: { role: "member" },
            after: { role: "admin" },
          },
        ]);
      } finally {
        await handle.close();
      }

      const again = await userRole(["--email=owner@example.com", "--role=admin"], env);
      expect(again.code).toBe(0);
      expect(again.stdout).toBe("Owner@Example.com: already admin\n");
    },
    TIMEOUT,
  );

  it(
    "refuses an unknown role, a missing option and the last administrator's demotion, in one line",
    async () => {
      const unknownRole = await userRole(["--email", "owner@example.com", "--role", "owner"], env);
      expect(unknownRole.code).toBe(1);
      expect(errorLines(unknownRole)).toEqual([
        'Unknown role "owner": use member, moderator or admin.',
      ]);

      const missing = await userRole(["--role", "admin"], env);
      expect(missing.code).toBe(1);
      expect(errorLines(missing)).toHaveLength(1);
      expect(errorLines(missing)[0]).toMatch(/^--email is required/);

      const demote = await userRole(["--email", "owner@example.com", "--role", "member"], env);
      expect(demote.code).toBe(1);
      expect(errorLines(demote)).toEqual([
        "This is the only administrator: make someone else an administrator first.",
      ]);
      const handle = await open();
      try {
        expect((await roleAndAudit(handle, "Owner@Example.com")).role).toBe("admin");
      } finally {
        await handle.close();
      }
    },
    TIMEOUT,
  );

  it(
    "says clearly that a running server holds the embedded database",
    async () => {
      const release = lockDataDir(dataDir); // as `npm start` does, in this (living) process
      try {
        const run = await userRole(["--email", "owner@example.com", "--role", "admin"], env);
        expect(run.code).toBe(1);
        expect(errorLines(run)).toEqual([
          `The server is running on the embedded database in ${dataDir} (one process at a time may open it): stop the server, run this command, then start the server again.`,
        ]);
      } finally {
        release();
      }
    },
    TIMEOUT,
  );
});

describe.skipIf(!process.env.DATABASE_URL)("npm run user:role on DATABASE_URL", () => {
  const databaseUrl = process.env.DATABASE_URL!;
  const schema = `test_role_${randomBytes(5).toString("hex")}`;

  afterAll(async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it(
    "sets the role in the database the URL names",
    async () => {
      let handle = await createDb({ databaseUrl, schema });
      await addUser(handle, "moderator-to-be@example.com");
      await handle.close();
      // The command's own connection, pointed at this test's schema through the URL.
      const url = new URL(databaseUrl);
      url.searchParams.set("options", `-c search_path=${schema},public`);
      const run = await userRole(
        ["--email", "moderator-to-be@example.com", "--role", "moderator"],
        { DATABASE_URL: url.toString() },
      );
      expect(errorLines(run)).toEqual([]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe("moderator-to-be@example.com: member → moderator\n");
      handle = await createDb({ databaseUrl, schema });
      try {
        const { role, audit } = await roleAndAudit(handle, "moderator-to-be@example.com");
        expect(role).toBe("moderator");
        expect(audit).toMatchObject([{ actor_id: null, actor_name: "shell" }]);
      } finally {
        await handle.close();
      }
      const unknown = await userRole(["--email", "nobody@example.com", "--role", "admin"], {
        DATABASE_URL: url.toString(),
      });
      expect(unknown.code).toBe(1);
      expect(errorLines(unknown)).toEqual(["No account has the email address nobody@example.com."]);
    },
    TIMEOUT,
  );
});
