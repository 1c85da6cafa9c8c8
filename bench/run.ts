/**
 * `npm run bench`: builds and starts the production server on a generated data set and measures,
 * from one run with autocannon, requests per second and p99 latency of each target, each as a
 * ratio of the trivial JSON route measured in the same run (the machines are shared and noisy, so
 * only ratios within one run are compared).
 *
 *   npm run bench                      # 1,000,000 deals (generated once into bench/.data/)
 *   npm run bench -- --deals 200000 --duration 5 --only home
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { javascriptWeight, someDealPath } from "./js-weight.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const deals = Number(arg("deals", process.env.BENCH_DEALS ?? "1000000"));
const duration = Number(arg("duration", "8"));
const connections = Number(arg("connections", "10"));
const only = arg("only", "");

interface Target {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
}

const targets: Target[] = [
  { name: "trivial JSON (GET /api/health)", method: "GET", path: "/api/health" },
  { name: "POST /api/home", method: "POST", path: "/api/home", body: {} },
  { name: "home page, anonymous SSR (GET /)", method: "GET", path: "/" },
  {
    name: "new deals page 1 (POST /api/category_page)",
    method: "POST",
    path: "/api/category_page",
    body: { type: "d", slug: "", page: 1 },
  },
  {
    name: "new deals page 2000 (POST /api/category_page)",
    method: "POST",
    path: "/api/category_page",
    body: { type: "d", slug: "", page: 2000 },
  },
  { name: "new deals page 1, SSR (GET /newdeals)", method: "GET", path: "/newdeals" },
  {
    name: "new deals page 2000, SSR (GET /newdeals?page=2000)",
    method: "GET",
    path: "/newdeals?page=2000",
  },
  { name: "search SSR (GET /search?query=crayons)", method: "GET", path: "/search?query=crayons" },
  { name: "store page, SSR (GET /store/walmart)", method: "GET", path: "/store/walmart" },
];

/**
 * CPU time (user + system, ms) the server process has used so far, from /proc; null where there is
 * none. CPU per request is steadier than requests per second on a shared machine: other work
 * slows the server down but does not make its requests cost more.
 */
function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

async function main() {
  // Keyword alert matching (issue 12) runs against PostgreSQL alone: no server, no data set.
  if (only === "alerts") {
    const { benchAlerts } = await import("./alerts.ts");
    await benchAlerts({
      pg: arg("pg", process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test"),
      alerts: Number(arg("alerts", "100000")),
      deals: Number(arg("publish", "200")),
    });
    return;
  }
  console.log("Building the production bundle…");
  run("react-router", ["build"]);

  const dataDir = path.join(root, "bench/.data", `deals-${deals}`);
  if (!fs.existsSync(path.join(dataDir, "READY"))) {
    console.log(
      `Generating ${deals.toLocaleString("en-US")} deals into ${path.relative(root, dataDir)} (once)…`,
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
    run("tsx", ["db/demo/large.ts", "--deals", String(deals), "--data-dir", dataDir], {
      ...process.env,
      DATABASE_URL: "",
    });
    fs.writeFileSync(path.join(dataDir, "READY"), new Date().toISOString());
  }

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      RATE_LIMIT: "off",
      LOG_LEVEL: "error",
      DEMO_DATA: "off",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    for (let i = 0; i < 480; i++) {
      try {
        if ((await fetch(`${base}/api/health`)).ok) break;
      } catch {
        /* starting */
      }
      await new Promise((r) => setTimeout(r, 250));
    }

    // A deal page: the newest deal, with its price history, freshness and related deals.
    const dealPath = await someDealPath(base);
    if (dealPath)
      targets.push({ name: "deal page, SSR (GET /post/…)", method: "GET", path: dealPath });

    const results: {
      name: string;
      rps: number;
      p99: number;
      errors: number;
      cpuPerRequest: number | null;
    }[] = [];
    for (const target of targets) {
      if (only && !target.name.includes(only) && target.name !== targets[0]!.name) continue;
      const probe = await fetch(base + target.path, {
        method: target.method,
        headers: target.body ? { "content-type": "application/json" } : {},
        body: target.body ? JSON.stringify(target.body) : undefined,
      });
      if (probe.status >= 400) {
        console.log(`skip ${target.name}: answers ${probe.status}`);
        continue;
      }
      const cpuBefore = cpuMs(server.pid);
      const result = await autocannon({
        url: base + target.path,
        method: target.method,
        headers: target.body ? { "content-type": "application/json" } : {},
        body: target.body ? JSON.stringify(target.body) : undefined,
        connections,
        duration,
      });
      const cpuAfter = cpuMs(server.pid);
      results.push({
        name: target.name,
        rps: result.requests.average,
        p99: result.latency.p99,
        errors: result.errors + result.non2xx,
        cpuPerRequest:
          cpuBefore === null || cpuAfter === null || result.requests.total === 0
            ? null
            : (cpuAfter - cpuBefore) / result.requests.total,
      });
      console.log(
        `${target.name}: ${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms`,
      );
    }

    const baseline = results[0]!;
    console.log(
      `\n${deals.toLocaleString("en-US")} deals, ${connections} connections, ${duration} s each, one run\n`,
    );
    console.log(
      "| target | req/s | p99 ms | req/s ÷ trivial | p99 ÷ trivial | server CPU ms/req | errors |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const r of results) {
      const cpu = r.cpuPerRequest === null ? "–" : r.cpuPerRequest.toFixed(2);
      console.log(
        `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${(r.rps / baseline.rps).toFixed(3)} | ${(r.p99 / Math.max(1, baseline.p99)).toFixed(1)} | ${cpu} | ${r.errors} |`,
      );
    }
    const weightPages = ["/", "/newdeals"];
    if (dealPath) weightPages.push(dealPath);
    console.log("\nJavaScript loaded at start (compressed with the server's defaults)\n");
    console.log("| page | files | raw kB | gzip kB | brotli kB |");
    console.log("|---|---:|---:|---:|---:|");
    for (const page of weightPages) {
      const w = await javascriptWeight(base, page);
      const kb = (n: number) => (n / 1000).toFixed(1);
      console.log(`| ${page} | ${w.files} | ${kb(w.raw)} | ${kb(w.gzip)} | ${kb(w.brotli)} |`);
    }

    const page1 = results.find((r) => r.name.startsWith("new deals page 1 (POST"));
    const page2000 = results.find((r) => r.name.startsWith("new deals page 2000 (POST"));
    if (page1 && page2000) {
      console.log(
        `\ndeep page cost: page 2000 takes ${(page1.rps / page2000.rps).toFixed(2)}× the time of page 1 (goal ≤ 2)`,
      );
    }
  } finally {
    server.kill("SIGTERM");
  }
}

await main();
