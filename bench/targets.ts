/**
 * What `npm run bench` (bench/run.ts) and `bench/compare.ts` share: the targets, the server's CPU
 * time, starting and stopping a production server, and one autocannon measurement.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import autocannon from "autocannon";
import { CATEGORIES, GENERAL_STORES } from "../db/demo/categories.ts";
import { DEMO_PASSWORD } from "../db/demo/people.ts";
import {
  parseProcStatus,
  pickSearchWords,
  processRole,
  startScriptFlags,
  type Measurement,
  type ServerProcessMemory,
} from "./report.ts";

export interface Target {
  name: string;
  method: "GET" | "POST";
  path: string;
  body?: Record<string, unknown>;
  /** The session cookie a staff member's page is asked for with. */
  cookie?: string;
}

export const TRIVIAL: Target = {
  name: "trivial JSON (GET /api/health)",
  method: "GET",
  path: "/api/health",
};

export interface SearchWords {
  common: string;
  rare: string;
}

/** A search of `word`, as a page and as the JSON call the apps make. */
export function searchTargets(kind: "common" | "rare", word: string): Target[] {
  return [
    {
      name: `search ${kind} word, SSR (GET /search?query=${word})`,
      method: "GET",
      path: `/search?query=${encodeURIComponent(word)}`,
    },
    {
      name: `search ${kind} word (POST /api/filter "${word}")`,
      method: "POST",
      path: "/api/filter",
      body: { filter_type: "search", search_title: word, page: 1 },
    },
  ];
}

/** Which page of new deals is the deep one: 2,000, or the last there is on a smaller data set. */
export interface DeepPages {
  /** Of the JSON call (all deals). */
  json: number;
  /** Of the /newdeals page (live deals only, its default). */
  ssr: number;
}

export const DEEP_PAGE = 2000;

/**
 * Page 2,000 of new deals where the data set has it, else its last page: the JSON call's from its
 * pagination, the page's by halving until it answers (it hides expired deals, so it has fewer).
 */
export async function findDeepPages(base: string): Promise<DeepPages> {
  const response = await fetch(`${base}/api/category_page`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type: "d", slug: "", page: 1 }),
  });
  const body = (await response.json()) as {
    response?: { deal_data_pagination?: { last_page?: number } };
  };
  const json = Math.max(
    1,
    Math.min(DEEP_PAGE, body.response?.deal_data_pagination?.last_page ?? 1),
  );
  let ssr = json;
  while (ssr > 1 && (await fetch(`${base}/newdeals?page=${ssr}`)).status === 404) {
    ssr = Math.floor(ssr / 2);
  }
  return { json, ssr };
}

/** The listing and search calls (JSON) measured on each engine and process count. */
export function engineTargets(words: SearchWords, deep: DeepPages): Target[] {
  return [
    {
      name: "new deals page 1 (POST /api/category_page)",
      method: "POST",
      path: "/api/category_page",
      body: { type: "d", slug: "", page: 1 },
    },
    {
      name: `new deals page ${deep.json} (POST /api/category_page)`,
      method: "POST",
      path: "/api/category_page",
      body: { type: "d", slug: "", page: deep.json },
    },
    searchTargets("common", words.common)[1]!,
    searchTargets("rare", words.rare)[1]!,
  ];
}

/** The server-rendered new deals pages, first and deep. */
export function newDealsPages(deep: DeepPages): [Target, Target] {
  return [
    { name: "new deals page 1, SSR (GET /newdeals)", method: "GET", path: "/newdeals" },
    {
      name: `new deals page ${deep.ssr}, SSR (GET /newdeals?page=${deep.ssr})`,
      method: "GET",
      path: `/newdeals?page=${deep.ssr}`,
    },
  ];
}

/** Every target of one bench run on the main data set, the trivial route first. */
/** The home page rendered for each request (the server runs with PAGE_CACHE=off). */
export const HOME_UNCACHED: Target = {
  name: "home page, anonymous SSR, uncached (GET /)",
  method: "GET",
  path: "/",
};

export function benchTargets(
  words: SearchWords,
  dealPath: string | null,
  deep: DeepPages,
): Target[] {
  return [
    TRIVIAL,
    { name: "POST /api/home", method: "POST", path: "/api/home", body: {} },
    ...engineTargets(words, deep).slice(0, 2),
    ...newDealsPages(deep),
    ...searchTargets("common", words.common),
    ...searchTargets("rare", words.rare),
    { name: "store page, SSR (GET /store/walmart)", method: "GET", path: "/store/walmart" },
    ...(dealPath
      ? [{ name: "deal page, SSR (GET /post/…)", method: "GET" as const, path: dealPath }]
      : []),
  ];
}

/**
 * A member's profile, page and call. The demo account (user 1) has as many posts as any member:
 * `npm run data:large` spreads its deals over the demo's members, about 23,000 each at 1,000,000.
 */
export const PROFILE_TARGETS: Target[] = [
  { name: "member profile, SSR (GET /profile/1)", method: "GET", path: "/profile/1" },
  {
    name: "member profile (POST /api/user_profile)",
    method: "POST",
    path: "/api/user_profile",
    body: { user_id: 1 },
  },
];

/** The console's lists of members and of posts, asked for as the demo administrator. */
export async function consoleTargets(base: string): Promise<Target[]> {
  const response = await fetch(`${base}/api/signin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: DEMO_PASSWORD }),
  });
  if (!response.ok) {
    console.log(
      `skip the console's targets: signing in as the demo administrator answers ${response.status}`,
    );
    return [];
  }
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  return [
    {
      name: "console members (GET /api/admin/users)",
      method: "GET",
      path: "/api/admin/users",
      cookie,
    },
    {
      name: "console posts (GET /api/admin/posts)",
      method: "GET",
      path: "/api/admin/posts",
      cookie,
    },
    {
      name: "console posts page, SSR (GET /admin/posts)",
      method: "GET",
      path: "/admin/posts",
      cookie,
    },
  ];
}

/**
 * The names of the generated deals' offerings (a product at one of its stores), as
 * db/demo/large.ts draws them, and the store names, to choose the search words from.
 */
export function generatedSearchWords(): SearchWords {
  const names: string[] = [];
  const stores = new Set<string>(GENERAL_STORES);
  for (const category of CATEGORIES) {
    for (const store of category.stores) stores.add(store);
    for (const product of category.products) {
      const sellers = new Set(
        product.stores ?? [...category.stores, ...GENERAL_STORES, ...(product.alsoAt ?? [])],
      );
      for (const store of sellers) {
        stores.add(store);
        names.push(product.name);
      }
    }
  }
  const { common, rare } = pickSearchWords(names, [...stores]);
  return { common, rare };
}

/** The ids of a process and all its descendants, from /proc (Linux); [pid] elsewhere. */
function processTree(pid: number): number[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return [pid];
  }
  const children = new Map<number, number[]>();
  for (const entry of entries) {
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(") ") + 2).split(" ")[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      /* gone meanwhile */
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
  return tree;
}

/**
 * CPU time (user + system, ms) a server has used so far, summed over its process and every
 * process it started (WEB_CONCURRENCY workers), from /proc; null where there is none. CPU per
 * request is steadier than requests per second on a shared machine: other work slows the server
 * down but does not make its requests cost more. A worker that exits takes its time with it, so
 * measure between two readings while the same processes run.
 */
/** How many processes a server runs (1, or 1 + its WEB_CONCURRENCY workers). */
export function processCount(pid: number | undefined): number {
  return pid ? processTree(pid).length : 0;
}

/**
 * The peak resident memory (VmHWM) of each process of a server: itself, and with WEB_CONCURRENCY
 * its cluster workers (PGlite's thread lives in the server's process). Read it while the server
 * runs, just before stopping it: a process that has exited takes its figure with it.
 */
export function serverMemory(pid: number | undefined): ServerProcessMemory[] {
  if (!pid) return [];
  const tree = processTree(pid);
  const memory: ServerProcessMemory[] = [];
  for (const id of tree) {
    let status: string;
    try {
      status = fs.readFileSync(`/proc/${id}/status`, "utf8");
    } catch {
      continue; // gone meanwhile, or no /proc
    }
    const read = (file: string) => {
      try {
        return fs.readFileSync(`/proc/${id}/${file}`, "utf8");
      } catch {
        return "";
      }
    };
    const workerId =
      read("environ")
        .split("\0")
        .find((entry) => entry.startsWith("NODE_UNIQUE_ID="))
        ?.slice("NODE_UNIQUE_ID=".length) ?? null;
    const role = processRole({
      isRoot: id === pid,
      processes: tree.length,
      workerId,
      command: read("comm").trim(),
    });
    memory.push({ role, pid: id, peak: parseProcStatus(status).peak });
  }
  return memory;
}

export function cpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  let total = 0;
  let found = false;
  for (const id of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${id}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(") ") + 2).split(" ");
      // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
      total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      found = true;
    } catch {
      /* gone meanwhile */
    }
  }
  return found ? total : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface Server {
  name: string;
  base: string;
  process: ChildProcess;
}

/**
 * Starts a checkout's production server the way `npm start` does (its Node flags, scripts/start.mjs: the build,
 * WEB_CONCURRENCY processes where it supports them), rate limits off, quiet, no demo data unless
 * `env` asks for it; resolves when it answers.
 */
export async function startServer(options: {
  name: string;
  checkout: string;
  port: number;
  env: Record<string, string>;
}): Promise<Server> {
  const packageJson = JSON.parse(fs.readFileSync(`${options.checkout}/package.json`, "utf8")) as {
    scripts: { start: string };
  };
  const flags = startScriptFlags(packageJson.scripts.start);
  const child = spawn(process.execPath, [...flags, "scripts/start.mjs"], {
    cwd: options.checkout,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(options.port),
      HOST: "127.0.0.1",
      DATABASE_URL: "",
      RATE_LIMIT: "off",
      LOG_LEVEL: "error",
      DEMO_DATA: "off",
      ...options.env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const server = { name: options.name, base: `http://127.0.0.1:${options.port}`, process: child };
  let exited = false;
  child.once("exit", () => (exited = true));
  for (let i = 0; i < 1200 && !exited; i++) {
    try {
      if ((await fetch(`${server.base}/api/health`)).ok) {
        await settle(server);
        return server;
      }
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  if (!exited) await stopServer(server);
  throw new Error(`${options.name}: the server did not start (see its output above)`);
}

/**
 * Waits until a server that has just started is quiet (under a fifth of a core for a second, 30 s
 * at most): the work it does after it answers (the job queue's first runs, the expiry sweep,
 * warming caches) would otherwise count as the first target's CPU per request.
 */
async function settle(server: Server, maxMs = 30_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < maxMs) {
    const before = cpuMs(server.process.pid);
    await new Promise((r) => setTimeout(r, 1000));
    const after = cpuMs(server.process.pid);
    if (before === null || after === null || after - before < 200) return;
  }
}

/** SIGTERM, then waits for the process to end (its DATA_DIR lock is free afterwards). */
export async function stopServer(server: Server): Promise<void> {
  const child = server.process;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await ended;
  clearTimeout(timer);
}

function requestOptions(target: Target, compressed = false) {
  const headers: Record<string, string> = target.body ? { "content-type": "application/json" } : {};
  // As a browser asks: the server then compresses each answer, which costs CPU too.
  if (compressed) headers["accept-encoding"] = "br, gzip";
  if (target.cookie) headers.cookie = target.cookie;
  return {
    method: target.method,
    headers,
    body: target.body ? JSON.stringify(target.body) : undefined,
  };
}

/** One request to a target: its status, so targets that fail are skipped, not measured. */
export async function probe(base: string, target: Target): Promise<number> {
  return (await fetch(base + target.path, requestOptions(target))).status;
}

/** Runs autocannon on one target and reads the server's CPU before and after. */
export async function measure(
  server: Server,
  target: Target,
  options: { connections: number; duration: number; label?: string; compressed?: boolean },
): Promise<Measurement> {
  const cpuBefore = cpuMs(server.process.pid);
  const result = await autocannon({
    url: server.base + target.path,
    ...requestOptions(target, options.compressed),
    connections: options.connections,
    duration: options.duration,
  });
  const cpuAfter = cpuMs(server.process.pid);
  return {
    name: options.label ?? target.name,
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuPerRequest:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : (cpuAfter - cpuBefore) / result.requests.total,
  };
}
