/**
 * Compares this checkout's server with another checkout's (an older commit, say) on a shared,
 * noisy machine: both servers run at once, each on its own data set (`bench/.data/deals-N` of
 * each checkout, made by `npm run bench` there), and each target is measured alternately, A B A B
 * …, reporting the median server CPU per request of each and their ratio.
 *
 *   npx tsx bench/compare.ts ../other-checkout [--rounds 3] [--seconds 5] [--deals 1000000]
 *
 * Both checkouts need their production build (`npm run bench` makes it).
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const other = process.argv[2];
if (!other || other.startsWith("--")) {
  console.error("usage: npx tsx bench/compare.ts <other checkout> [--rounds N] [--seconds S]");
  process.exit(2);
}
const rounds = Number(arg("rounds", "3"));
const seconds = Number(arg("seconds", "5"));
const deals = arg("deals", "1000000");

/** CPU time (ms) a process has used so far, from /proc (Linux). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

interface Server {
  name: string;
  port: number;
  process: ChildProcess;
}

function start(name: string, checkout: string, port: number): Server {
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: checkout,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: path.join(checkout, "bench/.data", `deals-${deals}`),
      DATABASE_URL: "",
      RATE_LIMIT: "off",
      LOG_LEVEL: "error",
      DEMO_DATA: "off",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  return { name, port, process: child };
}

async function ready(server: Server) {
  for (let i = 0; i < 480; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${server.port}/api/health`)).ok) return;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${server.name} did not start`);
}

const targets: { name: string; method: "GET" | "POST"; path: string; body?: object }[] = [
  { name: "trivial JSON", method: "GET", path: "/api/health" },
  { name: "home page SSR", method: "GET", path: "/" },
  {
    name: "new deals page 1 (JSON)",
    method: "POST",
    path: "/api/category_page",
    body: { type: "d", slug: "", page: 1 },
  },
  {
    name: "new deals page 2000 (JSON)",
    method: "POST",
    path: "/api/category_page",
    body: { type: "d", slug: "", page: 2000 },
  },
  { name: "new deals page 1 SSR", method: "GET", path: "/newdeals" },
  { name: "new deals page 2000 SSR", method: "GET", path: "/newdeals?page=2000" },
  { name: "search SSR", method: "GET", path: "/search?query=crayons" },
  { name: "store page SSR", method: "GET", path: "/store/walmart" },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const servers = [start("this", root, 4701), start("other", path.resolve(other), 4702)];
try {
  await Promise.all(servers.map(ready));
  console.log("| target | this CPU ms/req | other CPU ms/req | this ÷ other |");
  console.log("|---|---:|---:|---:|");
  for (const target of targets) {
    const options = (server: Server, duration: number) => ({
      url: `http://127.0.0.1:${server.port}${target.path}`,
      method: target.method,
      headers: target.body ? { "content-type": "application/json" } : {},
      body: target.body ? JSON.stringify(target.body) : undefined,
      connections: 10,
      duration,
    });
    for (const server of servers) await autocannon(options(server, 2)); // warm up
    const cpu = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const before = cpuMs(server.process.pid!);
        const result = await autocannon(options(server, seconds));
        const used = cpuMs(server.process.pid!) - before;
        if (result.non2xx || result.errors) {
          console.error(`${server.name} ${target.name}: ${result.non2xx + result.errors} failed`);
        }
        cpu.get(server.name)!.push(used / Math.max(1, result.requests.total));
      }
    }
    const mine = median(cpu.get("this")!);
    const theirs = median(cpu.get("other")!);
    console.log(
      `| ${target.name} | ${mine.toFixed(2)} | ${theirs.toFixed(2)} | ${(mine / theirs).toFixed(2)} |`,
    );
  }
} finally {
  for (const server of servers) server.process.kill("SIGTERM");
}
