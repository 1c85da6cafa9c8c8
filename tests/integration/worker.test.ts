import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { createMailQueue } from "../../core/mail/queue.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { startSmtpCapture, type SmtpCapture } from "../helpers/smtp.ts";

/* `npm run worker` (scripts/worker.ts) as its own process, as an operator starts it. */

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const databaseUrl = process.env.DATABASE_URL;

function startWorker(env: Record<string, string>) {
  const base = { ...process.env } as Record<string, string>;
  delete base.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: root,
    env: { ...base, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return { child, exited, output: () => output };
}

describe("npm run worker", () => {
  it.skipIf(databaseUrl)(
    "refuses to start on the embedded database, saying why",
    async () => {
      const worker = startWorker({ DATA_DIR: path.join(os.tmpdir(), "cbd-worker-unused") });
      expect(await worker.exited).toBe(1);
      expect(worker.output()).toContain("npm run worker needs DATABASE_URL");
    },
    60_000,
  );

  describe.skipIf(!databaseUrl)("on PostgreSQL", () => {
    // A database of its own: the worker uses the default schemas, as a real deployment does.
    const database = `cbd_worker_${randomBytes(5).toString("hex")}`;
    const workerUrl = databaseUrl
      ? Object.assign(new URL(databaseUrl), { pathname: `/${database}` }).href
      : "";
    let smtp: SmtpCapture | undefined;
    let handle: DbHandle | undefined;

    async function admin(statement: string) {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      await client.query(statement);
      await client.end();
    }

    afterAll(async () => {
      await handle?.close();
      await smtp?.close();
      await admin(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    });

    it("works the jobs a server queued, and stops cleanly on SIGTERM", async () => {
      await admin(`CREATE DATABASE "${database}"`);
      smtp = await startSmtpCapture();

      // A server's side: it queues the mail but works no jobs itself.
      handle = await createDb({ databaseUrl: workerUrl });
      const jobs = createSiteJobQueue(handle);
      await jobs.start({ warn: () => {}, error: () => {} });
      await createMailQueue(jobs).send({
        to: "worker@example.com",
        subject: "From the worker",
        text: "Sent by npm run worker.",
        html: "<p>Sent by npm run worker.</p>",
      });

      const worker = startWorker({ DATABASE_URL: workerUrl, SMTP_URL: smtp.url });
      try {
        const mail = await smtp.waitForMessage("worker@example.com", { timeoutMs: 60_000 });
        expect(mail.subject).toBe("From the worker");
      } finally {
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
        await jobs.stop();
      }
      // The server's format: one JSON object a line; the mail named by its id, not its address.
      const lines = worker
        .output()
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => {
          expect(() => JSON.parse(line) as unknown, line).not.toThrow();
          return JSON.parse(line) as { level: number; time: number; msg: string };
        });
      for (const line of lines) {
        expect(line).toMatchObject({ level: expect.any(Number), time: expect.any(Number) });
      }
      const messages = lines.map((line) => line.msg);
      expect(messages).toContain("Chalkboard Deals worker: working jobs (no HTTP)");
      expect(
        messages.some((m) => /^mail sent, message id [^ (]+: "From the worker"$/.test(m)),
      ).toBe(true);
      expect(worker.output()).not.toContain("worker@example.com");
    }, 120_000);
  });
});
