/**
 * `npm run bench -- --pg URL`, or alone with `--only hosts` (issue 37): the throughput of one
 * application host and of two behind HAProxy, in one run. It reuses the multi-host test's network and processes
 * (tests/hosts/network.ts, tests/hosts/processes.ts): namespaces cbd-lb, cbd-a and cbd-b on the
 * bridge cbd-br0, PostgreSQL reached through a relay on 10.77.0.1:5432, each app host running
 * `npm start` on the database at URL (read only: nothing is written but what a server writes by
 * itself), HAProxy in cbd-lb checking /readyz.
 *
 * Each route is measured twice, one right after the other, with the same duration and
 * connections: (a) HAProxy sending to host A alone (B set to maintenance on HAProxy's admin socket)
 * and (b) to A and B. The load generator is autocannon in a process of its own in the root
 * namespace (the relay runs in this process's event loop, which autocannon would otherwise
 * crowd). Needs root (`ip netns`) and /usr/sbin/haproxy; everything is torn down at the end,
 * also after a failure or Ctrl-C.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startCuttableRelay } from "../tests/helpers/cuttable-relay.ts";
import { waitUntil } from "../tests/helpers/server-process.ts";
import { GATEWAY, HOSTS, setUpNetwork, tearDownNetwork } from "../tests/hosts/network.ts";
import {
  httpRequest,
  npmStartCommand,
  runInNamespace,
  startLoadBalancer,
  type HostProcess,
  type LoadBalancer,
} from "../tests/hosts/processes.ts";
import { productionBuildState, runProductionBuild } from "../scripts/production-build.ts";
import { hostsTable, parseHostProcesses, type HostsRow } from "./report.ts";
import { cpuMs, generatedSearchWords, searchTargets, type Target } from "./targets.ts";

/** Anonymous pages (the page cache keeps them) and JSON calls it never keeps (/api/ paths). */
export function hostsTargets(commonWord: string): Target[] {
  return [
    { name: "home page, anonymous, page cache (GET /)", method: "GET", path: "/" },
    {
      name: "new deals page, anonymous, page cache (GET /newdeals)",
      method: "GET",
      path: "/newdeals",
    },
    {
      name: "store page, anonymous, page cache (GET /store/walmart)",
      method: "GET",
      path: "/store/walmart",
    },
    {
      name: `search page, anonymous, page cache (GET /search?query=${commonWord})`,
      method: "GET",
      path: `/search?query=${encodeURIComponent(commonWord)}`,
    },
    {
      name: "new deals page 1, uncached (POST /api/category_page)",
      method: "POST",
      path: "/api/category_page",
      body: { type: "d", slug: "", page: 1 },
    },
    {
      ...searchTargets("common", commonWord)[1]!,
      name: `search, uncached (POST /api/filter "${commonWord}")`,
    },
  ];
}

interface AppHost {
  name: "a" | "b";
  url: string;
  process: HostProcess;
}

interface Load {
  rps: number;
  p99: number;
  total: number;
  errors: number;
}

const root = path.resolve(import.meta.dirname, "..");

/** autocannon's command-line tool in a process of its own; its --json summary. */
async function autocannon(
  url: string,
  target: Target,
  options: { connections: number; duration: number },
): Promise<Load> {
  const args = [
    path.join(root, "node_modules/autocannon/autocannon.js"),
    "--json",
    "--no-progress",
    "-c",
    String(options.connections),
    "-d",
    String(options.duration),
    "-m",
    target.method,
  ];
  if (target.body)
    args.push("-H", "content-type=application/json", "-b", JSON.stringify(target.body));
  args.push(url + target.path);
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d));
  child.stderr.on("data", (d: Buffer) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  if (code !== 0) throw new Error(`autocannon ended with ${code}: ${stderr.slice(-1000)}`);
  const result = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.non2xx,
  };
}

/** SIGTERM, SIGKILL after 10 s; resolves once the process has ended. */
async function stopProcess(proc: HostProcess): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  proc.child.kill("SIGTERM");
  const timer = setTimeout(() => proc.child.kill("SIGKILL"), 10_000);
  await proc.exited;
  clearTimeout(timer);
}

async function startAppHost(
  name: "a" | "b",
  env: Record<string, string>,
  cleanups: (() => Promise<void> | void)[],
): Promise<AppHost> {
  const host: AppHost = {
    name,
    url: `http://${HOSTS[name].address}:3000`,
    process: runInNamespace(`host ${name}`, HOSTS[name].ns, npmStartCommand(), env),
  };
  cleanups.push(() => stopProcess(host.process));
  await waitUntil(
    async () => {
      if (host.process.child.exitCode !== null) {
        throw new Error(`host ${name}'s npm start exited:\n${host.process.output().slice(-3000)}`);
      }
      const answer = await httpRequest(`${host.url}/readyz`, { timeoutMs: 2000 }).catch(
        () => undefined, // not listening yet
      );
      return answer?.status === 200;
    },
    { timeoutMs: 120_000, intervalMs: 200, what: `host ${name} to answer /readyz` },
  );
  return host;
}

/** Puts host B in or out of HAProxy's rotation and waits until HAProxy says so. */
async function setHostB(lb: LoadBalancer, on: boolean): Promise<void> {
  const answer = (await lb.command(`${on ? "enable" : "disable"} server app/b`)).trim();
  if (answer) throw new Error(`HAProxy refused to ${on ? "enable" : "disable"} host B: ${answer}`);
  await waitUntil(
    async () => {
      const status = await lb.status("b");
      return on ? status === "UP" : status.startsWith("MAINT");
    },
    { timeoutMs: 20_000, intervalMs: 200, what: `HAProxy to mark host B ${on ? "UP" : "MAINT"}` },
  );
}

/** What the machine lacks for this bench (root, HAProxy): a plain `--pg` run goes on without it. */
export class HostsUnavailableError extends Error {}

export async function benchHosts(options: {
  pg: string;
  duration: number;
  connections: number;
}): Promise<void> {
  if (process.getuid?.() !== 0) {
    throw new HostsUnavailableError("it needs root: it makes network namespaces with `ip netns`");
  }
  if (!fs.existsSync("/usr/sbin/haproxy")) {
    throw new HostsUnavailableError(
      "it needs HAProxy at /usr/sbin/haproxy (Debian's haproxy package)",
    );
  }
  const processes = parseHostProcesses(process.env.BENCH_HOST_PROCESSES);
  const state = productionBuildState(root);
  if (state !== "fresh") {
    console.log(`the production build is ${state}: building (npm run build)`);
    const build = await runProductionBuild(root, "pipe");
    if (!build.ok) throw new Error(`npm run build failed:\n${build.output}`);
  }
  const words = generatedSearchWords();
  const targets = hostsTargets(words.common);

  const cleanups: (() => Promise<void> | void)[] = [];
  // Once, and a signal during it waits for the same tear-down.
  let tearingDown: Promise<void> | undefined;
  const tearDown = () =>
    (tearingDown ??= (async () => {
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          console.error(`tear-down step failed: ${String(error)}`);
        }
      }
    })());
  const onSignal = () => void tearDown().finally(() => process.exit(130));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  const rows: HostsRow[] = [];
  try {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-bench-hosts-"));
    cleanups.push(() => fs.rmSync(workDir, { recursive: true, force: true }));
    // Kills every process left in the namespaces (hosts, HAProxy), then removes them.
    cleanups.push(() => tearDownNetwork());
    setUpNetwork();
    const databaseUrl = new URL(options.pg);
    const relay = await startCuttableRelay(databaseUrl, { host: GATEWAY, port: 5432 });
    // cut(), not close(): close() would wait for the hosts' pooled connections to end.
    cleanups.push(() => relay.cut());

    const lbUrl = `http://${HOSTS.lb.address}`;
    const env = (name: "a" | "b") => {
      const url = new URL(databaseUrl.href);
      url.hostname = GATEWAY;
      url.port = "5432";
      url.searchParams.set("application_name", `cbd-bench-${name}`);
      return {
        NODE_ENV: "production",
        LOG_LEVEL: "error",
        DEMO_DATA: "off",
        // As the other bench phases: the load comes from one address.
        RATE_LIMIT: "off",
        PUBLIC_URL: lbUrl,
        TRUST_PROXY: HOSTS.lb.address,
        // Nothing to drain at the end of a bench: the load has stopped.
        SHUTDOWN_DRAIN_S: "0",
        DATABASE_URL: url.href,
        WEB_CONCURRENCY: String(processes),
        PORT: "3000",
        HOST: "0.0.0.0",
        DATA_DIR: fs.mkdtempSync(path.join(workDir, `data-${name}-`)),
      };
    };
    // One after the other: both migrating and checking the database at once gains nothing here.
    const hostA = await startAppHost("a", env("a"), cleanups);
    const hostB = await startAppHost("b", env("b"), cleanups);
    console.log(`hosts a and b answer /readyz (WEB_CONCURRENCY=${processes} each)`);

    const lb = startLoadBalancer(workDir, { serverKeepAlive: true });
    cleanups.push(() => stopProcess(lb.process));
    await waitUntil(
      async () => {
        if (lb.process.child.exitCode !== null) {
          throw new Error(`HAProxy exited:\n${lb.process.output()}`);
        }
        const servers = await lb.servers().catch(() => []); // its socket not there yet
        return servers.length === 2 && servers.every((s) => s.status === "UP");
      },
      { timeoutMs: 20_000, intervalMs: 200, what: "HAProxy to mark both hosts UP" },
    );
    console.log("HAProxy marks both hosts UP");

    const serverCpu = () =>
      (cpuMs(hostA.process.child.pid) ?? 0) + (cpuMs(hostB.process.child.pid) ?? 0);
    const haproxyCpu = () => cpuMs(lb.process.child.pid) ?? 0;
    const run = async (target: Target) => {
      const before = { server: serverCpu(), lb: haproxyCpu() };
      const load = await autocannon(lb.url, target, options);
      const per = (ms: number) => (load.total > 0 ? ms / load.total : null);
      return {
        ...load,
        serverCpu: per(serverCpu() - before.server),
        haproxyCpu: per(haproxyCpu() - before.lb),
      };
    };

    for (const target of targets) {
      // Every process of both hosts renders the page once (their page caches filled), and a
      // target that does not answer 200 is skipped, not measured.
      const body = target.body ? JSON.stringify(target.body) : undefined;
      const headers = target.body ? { "content-type": "application/json" } : undefined;
      let status = 0;
      for (const host of [hostA, hostB]) {
        for (let i = 0; i < processes * 2; i++) {
          status = Math.max(
            status,
            (await httpRequest(host.url + target.path, { method: target.method, headers, body }))
              .status,
          );
        }
      }
      if (status !== 200) {
        console.log(`skip ${target.name}: answers ${status}`);
        continue;
      }
      await setHostB(lb, false);
      const one = await run(target);
      await setHostB(lb, true);
      const two = await run(target);
      rows.push({ name: target.name, one, two });
      console.log(
        `${target.name}: A alone ${one.rps.toFixed(0)} req/s, A+B ${two.rps.toFixed(0)} req/s`,
      );
    }
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await tearDown();
  }
  console.log(
    `\n## One app host against two behind HAProxy: ${options.connections} connections, ${options.duration} s each, WEB_CONCURRENCY=${processes} a host\n`,
  );
  console.log(hostsTable(rows));
}
