import { spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RATE_LIMITS } from "../../server/plugins/rate-limit.ts";
import { CRASH_LOOP_LIMIT } from "../../server/restart-policy.ts";
import { parseExposition, sampleValue } from "../helpers/prometheus.ts";
import {
  createServerSchema,
  freePort,
  tempDataDir,
  waitUntil,
  type ServerSchema,
} from "../helpers/server-process.ts";

/**
 * `npm start` as it runs in production (scripts/start.mjs: the compiled server of build/node/), with
 * several server processes (WEB_CONCURRENCY, docs/decisions/0052-compiled-start-and-processes.md).
 */
const root = path.resolve(import.meta.dirname, "../..");

function npmStart(env: Record<string, string>) {
  const child = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: "",
      REDIS_URL: "",
      DEMO_DATA: "off",
      ...env,
    },
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

interface LogLine {
  pid: number;
  worker?: number | "primary";
  reqId?: string;
  req?: { url: string };
  res?: { statusCode: number };
  msg: string;
}

function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as LogLine);
}

/** One request on a connection of its own (the cluster hands each new connection to a worker). */
function request(
  url: string,
  options: { method?: string; body?: object } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const body = options.body ? JSON.stringify(options.body) : undefined;
    const req = http.request(
      url,
      {
        method: options.method ?? "GET",
        agent: false,
        headers: body ? { "content-type": "application/json" } : {},
      },
      (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Which worker answered each request to `url`, from the workers' own log lines. */
function workersThatServed(output: string, url: string): (number | "primary" | undefined)[] {
  const lines = logLines(output);
  const asked = new Set(
    lines.filter((l) => l.req?.url === url).map((l) => `${l.worker}:${l.reqId}`),
  );
  return lines
    .filter((l) => l.msg === "request completed" && asked.has(`${l.worker}:${l.reqId}`))
    .map((l) => l.worker);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("npm start with several server processes", () => {
  it("refuses WEB_CONCURRENCY above 1 on the embedded database, with one clear line", async () => {
    const data = tempDataDir();
    try {
      const server = npmStart({ DATA_DIR: data.dir, WEB_CONCURRENCY: "2" });
      expect(await server.exited).toBe(1);
      expect(server.output().trim()).toBe(
        'Invalid environment variable WEB_CONCURRENCY="2": the embedded database (no DATABASE_URL) can be opened by one server process only; set DATABASE_URL to run several, or leave WEB_CONCURRENCY unset',
      );
    } finally {
      data.remove();
    }
  }, 60_000);

  describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL, WEB_CONCURRENCY=2", () => {
    let schema: ServerSchema;
    let server: ReturnType<typeof npmStart>;
    let url: string;

    beforeAll(async () => {
      schema = await createServerSchema(process.env.DATABASE_URL!);
      const port = await freePort();
      url = `http://127.0.0.1:${port}`;
      server = npmStart({
        DATABASE_URL: schema.url,
        WEB_CONCURRENCY: "2",
        PORT: String(port),
        LOG_LEVEL: "info",
        RATE_LIMIT: "on",
        // Left over from an older version: no longer used, and said once, not once a process.
        REDIS_URL: "redis://127.0.0.1:6379",
      });
      await waitUntil(
        async () => {
          if (server.child.exitCode !== null) throw new Error(`exited:\n${server.output()}`);
          const ready = logLines(server.output()).filter((l) => / is serving$/.test(l.msg));
          return ready.length === 2;
        },
        { timeoutMs: 150_000, what: "two workers to serve" },
      );
    }, 180_000);

    afterAll(async () => {
      if (server?.child.exitCode === null) server.child.kill("SIGKILL");
      await schema?.drop();
    });

    it("warns once, from the primary, that a REDIS_URL left set is no longer used", () => {
      const warnings = logLines(server.output()).filter((l) => /REDIS_URL/.test(l.msg));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.worker).toBe("primary");
      expect(warnings[0]!.msg).toMatch(/^REDIS_URL is set but no longer used/);
    });

    it("writes every line, the primary's and the workers', as one JSON object", () => {
      const lines = server
        .output()
        .split("\n")
        .filter((line) => line.trim());
      expect(lines.length).toBeGreaterThan(3);
      for (const line of lines) {
        expect(() => JSON.parse(line) as unknown, line).not.toThrow();
        expect(JSON.parse(line), line).toMatchObject({
          level: expect.any(Number),
          time: expect.any(Number),
          pid: expect.any(Number),
          msg: expect.any(String),
        });
      }
      const primary = logLines(server.output()).filter((l) => l.worker === "primary");
      expect(primary.map((l) => l.msg)).toContain(
        "starting 2 server processes (WEB_CONCURRENCY=2)",
      );
    });

    it("answers through both worker processes, and its logs name the worker", async () => {
      for (let i = 0; i < 6; i++)
        expect((await request(`${url}/api/stores_list`)).status).toBe(200);
      await waitUntil(() => workersThatServed(server.output(), "/api/stores_list").length === 6, {
        what: "the six requests' log lines",
      });
      const workers = workersThatServed(server.output(), "/api/stores_list");
      expect(new Set(workers)).toEqual(new Set([1, 2]));
      const pids = new Set(
        logLines(server.output())
          .filter((l) => typeof l.worker === "number")
          .map((l) => l.pid),
      );
      expect(pids.size).toBe(2);
      expect(pids.has(server.child.pid!)).toBe(false);
    });

    it("counts a sign-in limit across both processes", async () => {
      // Another address each time: one address's failures meet the per-account limit after five
      // (docs/decisions/0073-sign-in-guessing-limits.md).
      let tries = 0;
      const attempt = () =>
        request(`${url}/api/signin`, {
          method: "POST",
          body: { email: `nobody-${++tries}@example.com`, password: "Wrong#Pass1" },
        });
      const { max } = RATE_LIMITS.signin;
      for (let i = 0; i < max; i++) expect((await attempt()).status).not.toBe(429);
      const refused = await attempt();
      expect(refused.status).toBe(429);
      expect(JSON.parse(refused.body)).toMatchObject({ status: false });
      // The allowance was used up through both processes: neither saw more than part of it.
      await waitUntil(() => workersThatServed(server.output(), "/api/signin").length === max + 1, {
        what: "the sign-ins' log lines",
      });
      const workers = workersThatServed(server.output(), "/api/signin");
      expect(workers.filter((w) => w === 1).length).toBeGreaterThan(0);
      expect(workers.filter((w) => w === 2).length).toBeGreaterThan(0);
    });

    it("sums both processes in one scrape of /metrics, whichever process takes it", async () => {
      const route = "/api/category_list";
      for (let i = 0; i < 6; i++) expect((await request(`${url}${route}`)).status).toBe(200);
      await waitUntil(() => workersThatServed(server.output(), route).length === 6, {
        what: "the six requests' log lines",
      });
      expect(new Set(workersThatServed(server.output(), route))).toEqual(new Set([1, 2]));
      // Each scrape is a connection of its own, which the cluster hands to either process.
      const scrapes = [];
      for (let i = 0; i < 4; i++) {
        const scrape = await request(`${url}/metrics`);
        expect(scrape.status).toBe(200);
        scrapes.push(parseExposition(scrape.body));
      }
      expect(new Set(workersThatServed(server.output(), "/metrics"))).toEqual(new Set([1, 2]));
      for (const metrics of scrapes) {
        expect(
          sampleValue(metrics, "chalkboard_http_requests_total", { route, status: "200" }),
        ).toBe(6);
        // One Node.js version, not one per process; both processes' memory.
        expect(metrics.samples.filter((s) => s.name === "nodejs_version_info")).toHaveLength(1);
        expect(sampleValue(metrics, "process_resident_memory_bytes")).toBeGreaterThan(0);
      }
    });

    it("starts another worker when one dies, and SIGTERM stops every process cleanly", async () => {
      const worker1 = logLines(server.output()).find((l) => l.worker === 1)!.pid;
      process.kill(worker1, "SIGKILL");
      await waitUntil(
        () =>
          logLines(server.output()).some((l) => l.worker === 3 && l.msg.startsWith("Chalkboard")),
        { timeoutMs: 90_000, what: "a third worker to serve" },
      );
      expect(server.output()).toMatch(
        /worker 1 \(pid \d+\) exited unexpectedly \(signal SIGKILL\)/,
      );
      expect((await request(`${url}/api/stores_list`)).status).toBe(200);

      const workerPids = new Set(
        logLines(server.output())
          .filter((l) => typeof l.worker === "number")
          .map((l) => l.pid),
      );
      server.child.kill("SIGTERM");
      expect(await server.exited).toBe(0);
      for (const pid of workerPids) expect(isRunning(pid)).toBe(false);
      expect(server.output()).toMatch(/worker 2 \(pid \d+\) stopped \(code 0\)/);
      expect(server.output()).toMatch(/worker 3 \(pid \d+\) stopped \(code 0\)/);
    }, 120_000);
  });

  describe.skipIf(!process.env.DATABASE_URL)("on PostgreSQL, workers that keep dying", () => {
    it("are given up on: the primary says why, stops the rest and exits 1", async () => {
      const schema = await createServerSchema(process.env.DATABASE_URL!);
      // Another program holds the port: every worker fails to listen and dies young.
      const squatter = net.createServer();
      await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
      const port = (squatter.address() as net.AddressInfo).port;
      let server: ReturnType<typeof npmStart> | undefined;
      try {
        server = npmStart({
          DATABASE_URL: schema.url,
          WEB_CONCURRENCY: "2",
          PORT: String(port),
          LOG_LEVEL: "info",
        });
        expect(await server.exited).toBe(1);
        const primary = logLines(server.output()).filter((l) => l.worker === "primary");
        const restarts = primary.filter((l) => / exited unexpectedly \(code 1\)/.test(l.msg));
        expect(restarts).toHaveLength(CRASH_LOOP_LIMIT - 1);
        const givenUp = primary.filter((l) => /giving up/.test(l.msg));
        expect(givenUp).toHaveLength(1);
        expect(givenUp[0]!.msg).toMatch(
          new RegExp(
            `^worker \\d+ \\(pid \\d+\\) exited \\(code 1\\) \\d+ ms after it started: ${CRASH_LOOP_LIMIT} workers in a row died within 30 s of starting; giving up: stopping the other workers and exiting with code 1 so that the supervisor can act$`,
          ),
        );
        expect(server.output()).toMatch(/EADDRINUSE/);
        const workerPids = logLines(server.output())
          .filter((l) => typeof l.worker === "number")
          .map((l) => l.pid);
        for (const pid of workerPids) expect(isRunning(pid)).toBe(false);
      } finally {
        if (server?.child.exitCode === null) server.child.kill("SIGKILL");
        squatter.close();
        await schema.drop();
      }
    }, 240_000);
  });
});
