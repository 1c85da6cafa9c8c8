import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { createMailQueue } from "../../core/mail/queue.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { parseExposition, sampleValue } from "../helpers/prometheus.ts";
import { freePort, waitUntil } from "../helpers/server-process.ts";
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

      const metricsPort = await freePort();
      const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
      const worker = startWorker({
        DATABASE_URL: workerUrl,
        SMTP_URL: smtp.url,
        METRICS_PORT: String(metricsPort),
      });
      try {
        const mail = await smtp.waitForMessage("worker@example.com", { timeoutMs: 60_000 });
        expect(mail.subject).toBe("From the worker");

        // METRICS_PORT: the worker's own metrics, the mail it sent among them.
        let text = "";
        await waitUntil(
          async () => {
            const response = await fetch(metricsUrl);
            text = await response.text();
            return (
              response.status === 200 && /chalkboard_mail_total\{outcome="sent"\} 1$/m.test(text)
            );
          },
          { timeoutMs: 20_000, what: "the worker's metrics to count the mail sent" },
        );
        const metrics = parseExposition(text);
        expect(metrics.types.get("chalkboard_jobs")).toBe("gauge");
        expect(metrics.types.get("chalkboard_db_pool_connections_in_use")).toBe("gauge");
        expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(0);
        expect(metrics.types.has("chalkboard_http_requests_total")).toBe(false);
        // Passed on by a proxy: not loopback's, and there is no token.
        const proxied = await fetch(metricsUrl, { headers: { "x-forwarded-for": "203.0.113.7" } });
        expect(proxied.status).toBe(404);
        expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);

        // The probes on the same port, compose's health check (server/metrics/worker-server.ts):
        // the worker has sent a mail, so its queue works jobs and its database answers.
        const ready = await fetch(`http://127.0.0.1:${metricsPort}/readyz`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toEqual({ status: "ready" });
        const live = await fetch(`http://127.0.0.1:${metricsPort}/healthz`);
        expect(live.status).toBe(200);
        expect(await live.json()).toEqual({ status: "ok" });
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

    it("stops with one line when METRICS_PORT is taken", async () => {
      const squatter = net.createServer();
      await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
      const port = (squatter.address() as net.AddressInfo).port;
      try {
        const worker = startWorker({ DATABASE_URL: workerUrl, METRICS_PORT: String(port) });
        expect(await worker.exited).toBe(1);
        expect(worker.output()).toContain(
          `The worker cannot serve its metrics on 127.0.0.1:${port} (METRICS_PORT): listen EADDRINUSE`,
        );
        expect(worker.output()).not.toContain("working jobs");
      } finally {
        squatter.close();
      }
    }, 60_000);
  });
});
