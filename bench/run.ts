/**
 * `npm run bench`: builds, starts the production server on a generated data set and measures with
 * autocannon, reporting everything of one run as ratios within that run (the machines are shared
 * and noisy, so only ratios of one run are compared):
 *
 *  1. the anonymous home page, with the page cache warm and with it off (PAGE_CACHE=off), against
 *     the same HTML served by the same server as a static file;
 *  2. the deal page, new deals pages 1 and 2,000, search with a common and a rare word, and the
 *     same searches on a small data set (`--small-deals`, default 10,000); a member's profile and
 *     the console's lists of members and posts (signed in as the demo administrator);
 *  3. with `--pg URL`: the listing and search calls on PostgreSQL (that database filled by
 *     `npm run data:large`, which this does when it has no generated deals) against PGlite, and
 *     PostgreSQL with WEB_CONCURRENCY=1 and 2;
 *  4. the HTML bytes and the compressed JavaScript at start of the home and deal pages;
 *  5. with `--lighthouse`: Lighthouse mobile on the home and a deal page (bench/lighthouse.ts).
 *
 * With `--pg URL`, last: one app host against two behind HAProxy (bench/hosts.ts), when the machine
 * allows it (root and HAProxy; otherwise a line says why not); `--only hosts` runs it alone; then
 * how soon alert pushes leave with 100,000 alerts (bench/push.ts; without `--pg`, one line says
 * it was not measured).
 *
 *   npm run bench                                   # 1,000,000 deals (generated once into bench/.data/)
 *   npm run bench -- --deals 20000 --duration 3 --pg postgres://postgres@127.0.0.1:5432/bench_small
 *   npm run bench -- --only alerts --pg postgres://…   # alert matching (0045), PostgreSQL only
 *   npm run bench -- --only push --pg postgres://…     # deal public → push sent, p95 (0109), PostgreSQL only
 *   npm run bench -- --only migration --pg postgres://…/bench_migrate   # posting during a migration (0097)
 *   npm run bench -- --only hosts --pg postgres://…    # one app host against two behind HAProxy (root)
 *   npm run bench -- --compressed                   # every request asks for brotli, as browsers do
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { javascriptWeight, someDealPath } from "./js-weight.ts";
import {
  costRatio,
  measurementTable,
  MEMORY_GOALS,
  memoryTable,
  parseBenchArgs,
  ratioTable,
  throughputRatio,
  UsageError,
  type BenchOptions,
  type Measurement,
  type RatioRow,
  type ServerProcessMemory,
} from "./report.ts";
import {
  benchTargets,
  consoleTargets,
  DEEP_PAGE,
  engineTargets,
  findDeepPages,
  freePort,
  generatedSearchWords,
  HOME_UNCACHED,
  measure,
  newDealsPages,
  probe,
  PROFILE_TARGETS,
  processCount,
  searchTargets,
  serverMemory,
  startServer,
  stopServer,
  TRIVIAL,
  type DeepPages,
  type SearchWords,
  type Server,
  type Target,
} from "./targets.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The home page's HTML, copied into the client build so the server sends it as a static file. */
const STATIC_HOME = "bench-static-home.html";
const STATIC_TARGET: Target = {
  name: `home HTML as a static file (GET /${STATIC_HOME})`,
  method: "GET",
  path: `/${STATIC_HOME}`,
};
const HOME_WARM: Target = {
  name: "home page, anonymous, page cache warm (GET /)",
  method: "GET",
  path: "/",
};

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed`);
}

/** A PGlite data set of `deals` generated deals in bench/.data/, made once. */
function pgliteDataSet(deals: number): string {
  const dataDir = path.join(root, "bench/.data", `deals-${deals}`);
  if (!fs.existsSync(path.join(dataDir, "READY"))) {
    console.log(
      `Generating ${deals.toLocaleString("en-US")} deals into ${path.relative(root, dataDir)} (once)…`,
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    run("tsx", ["db/demo/large.ts", "--deals", String(deals), "--data-dir", dataDir], {
      ...process.env,
      DATABASE_URL: "",
    });
    fs.writeFileSync(path.join(dataDir, "READY"), new Date().toISOString());
  }
  return dataDir;
}

/** Generated deals in a PostgreSQL database; fills an empty one with `npm run data:large`. */
async function pgDataSet(url: string, deals: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let generated = 0;
  try {
    const table = await client.query<{ ok: boolean }>(
      "SELECT to_regclass('posts') IS NOT NULL AS ok",
    );
    if (table.rows[0]?.ok) {
      const { rows } = await client.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM posts WHERE unique_id LIKE '0%'",
      );
      generated = rows[0]?.n ?? 0;
    }
  } finally {
    await client.end();
  }
  if (generated === 0) {
    console.log(`Generating ${deals.toLocaleString("en-US")} deals into PostgreSQL…`);
    run("tsx", ["db/demo/large.ts", "--deals", String(deals)], {
      ...process.env,
      DATABASE_URL: url,
    });
  } else if (generated !== deals) {
    console.log(
      `note: PostgreSQL has ${generated.toLocaleString("en-US")} generated deals, PGlite ${deals.toLocaleString("en-US")}`,
    );
  }
}

class Phase {
  readonly results: Measurement[] = [];
  /** Server processes seen while measuring (WEB_CONCURRENCY workers included). */
  processes = 0;
  /** Each server process's peak resident memory, read just before the server was stopped. */
  memory: ServerProcessMemory[] = [];
  /** The server's database, whose memory goal applies (docs/decisions/0100). */
  engine: keyof typeof MEMORY_GOALS = "pglite";
  constructor(
    readonly title: string,
    readonly server: Server,
    private readonly options: BenchOptions,
  ) {}

  /** Measures each target (the trivial route always; the rest as `--only` allows). */
  async measure(targets: readonly Target[]): Promise<void> {
    for (const target of targets) {
      if (
        this.options.only &&
        target !== TRIVIAL &&
        target !== STATIC_TARGET &&
        target !== HOME_UNCACHED &&
        target !== HOME_WARM &&
        !target.name.includes(this.options.only)
      ) {
        continue;
      }
      const status = await probe(this.server.base, target);
      if (status >= 400) {
        console.log(`${this.title}: skip ${target.name}: answers ${status}`);
        continue;
      }
      const result = await measure(this.server, target, this.options);
      if (result.rps === 0) {
        console.log(`${this.title}: ${target.name}: no request completed, not measured`);
        continue;
      }
      this.processes = Math.max(this.processes, processCount(this.server.process.pid));
      this.results.push(result);
      console.log(
        `${this.title} · ${target.name}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms` +
          (result.cpuPerRequest === null ? "" : `, ${result.cpuPerRequest.toFixed(2)} ms CPU`),
      );
    }
  }

  get(name: string): Measurement | undefined {
    return this.results.find((r) => r.name === name);
  }

  table(): string {
    return `\n### ${this.title} (${this.processes} server process${this.processes === 1 ? "" : "es"})\n\n${measurementTable(this.results, this.get(TRIVIAL.name))}`;
  }
}

/**
 * Starts a server, runs `body` with it, and stops it (a PGlite folder takes one at a time). Just
 * before stopping it, reads each of its processes' peak resident memory into the phase.
 */
async function withServer(
  name: string,
  env: Record<string, string>,
  body: (server: Server) => Promise<Phase>,
): Promise<Phase> {
  const server = await startServer({ name, checkout: root, port: await freePort(), env });
  let phase: Phase | undefined;
  try {
    phase = await body(server);
    return phase;
  } finally {
    const memory = serverMemory(server.process.pid);
    await stopServer(server);
    if (phase) {
      phase.memory = memory;
      phase.engine = env.DATABASE_URL ? "postgres" : "pglite";
    }
  }
}

/** Writes the home page's current HTML where the server serves static files from. */
async function copyHomeToStatic(server: Server, staticFile: string): Promise<number> {
  const html = Buffer.from(await (await fetch(`${server.base}/`)).arrayBuffer());
  fs.writeFileSync(staticFile, html);
  return html.length;
}

async function main() {
  let options: BenchOptions;
  try {
    options = parseBenchArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`npm run bench: ${error.message}`);
    console.error(
      "usage: npm run bench -- [--deals N] [--small-deals N] [--duration S] [--connections C] [--only TEXT] [--pg URL] [--lighthouse] [--compressed]",
    );
    process.exit(2);
  }
  // Keyword alert matching (record 0045) runs against PostgreSQL alone: no server, no data set.
  if (options.only === "alerts") {
    const { benchAlerts } = await import("./alerts.ts");
    await benchAlerts({
      pg: options.pg ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
      alerts: options.alerts,
      deals: options.publish,
    });
    return;
  }

  // Push alerts' speed (record 0109), PostgreSQL only: no server, its own schema.
  if (options.only === "push") {
    await measurePush(
      options.pg ?? process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test",
      options,
    );
    return;
  }

  // Posting a deal while a migration runs (record 0097), PostgreSQL only: its own server.
  if (options.only === "migration") {
    if (!options.pg) {
      console.error("npm run bench: --only migration needs --pg URL (a database of its own)");
      process.exit(2);
    }
    console.log("Building the production bundle…");
    run("node", ["scripts/production-build.ts"]);
    await pgDataSet(options.pg, options.deals);
    const { benchMigration } = await import("./migration.ts");
    await benchMigration({ root, pg: options.pg });
    return;
  }

  // One app host against two behind HAProxy (issue 37), PostgreSQL only: its own hosts.
  if (options.only === "hosts") {
    if (!options.pg) {
      console.error("npm run bench: --only hosts needs --pg URL (the hosts' shared database)");
      process.exit(2);
    }
    await pgDataSet(options.pg, options.deals);
    try {
      await measureHosts(options.pg, options);
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      console.error(`npm run bench: one app host against two: ${error.message}`);
      process.exit(error instanceof UsageError ? 2 : 1);
    }
    return;
  }

  // The whole production build, as `npm start` wants it: a pages-only build would make the first
  // server start build again, wiping build/client and the static copy's placeholder below.
  console.log("Building the production bundle…");
  run("node", ["scripts/production-build.ts"]);
  const words: SearchWords = generatedSearchWords();
  console.log(
    `search words from the generated data: common "${words.common}", rare "${words.rare}"`,
  );
  const dataDir = pgliteDataSet(options.deals);
  const smallDir = options.smallDeals > 0 ? pgliteDataSet(options.smallDeals) : null;
  if (options.pg) await pgDataSet(options.pg, options.deals);

  // The static file must exist when the server starts: the static plugin routes the files it
  // finds then, and reads their bytes on each request.
  const staticFile = path.join(root, "build/client", STATIC_HOME);
  fs.writeFileSync(staticFile, "");
  const n = options.deals.toLocaleString("en-US");
  const pgliteEnv = { DATA_DIR: dataDir };
  const bytes: string[] = [];
  let dealPath: string | null = null;
  let deep: DeepPages = { json: DEEP_PAGE, ssr: DEEP_PAGE };
  let lighthouse = "";
  try {
    // Every target, rendered on each request: the page cache is off.
    const uncached = await withServer(
      "PGlite, page cache off",
      { ...pgliteEnv, PAGE_CACHE: "off" },
      async (server) => {
        const phase = new Phase(`PGlite, ${n} deals, page cache off`, server, options);
        await copyHomeToStatic(server, staticFile);
        dealPath = await someDealPath(server.base);
        deep = await findDeepPages(server.base);
        await phase.measure([STATIC_TARGET]);
        await phase.measure([HOME_UNCACHED]);
        await phase.measure(benchTargets(words, dealPath, deep));
        await phase.measure([...PROFILE_TARGETS, ...(await consoleTargets(server.base))]);

        bytes.push("| page | HTML kB | JS files | JS raw kB | JS brotli kB | JS gzip kB |");
        bytes.push("|---|---:|---:|---:|---:|---:|");
        const kb = (count: number) => (count / 1000).toFixed(1);
        for (const page of ["/", "/newdeals", ...(dealPath ? [dealPath] : [])]) {
          const html = Buffer.byteLength(await (await fetch(server.base + page)).text());
          const js = await javascriptWeight(server.base, page);
          bytes.push(
            `| ${page} | ${kb(html)} | ${js.files} | ${kb(js.raw)} | ${kb(js.brotli)} | ${kb(js.gzip)} |`,
          );
        }
        return phase;
      },
    );

    // The home page from the page cache (anonymous, no cookie), as the server runs by default.
    const cached = await withServer("PGlite, page cache on", pgliteEnv, async (server) => {
      const phase = new Phase(`PGlite, ${n} deals, page cache on`, server, options);
      await copyHomeToStatic(server, staticFile);
      await phase.measure([TRIVIAL, STATIC_TARGET]);
      await phase.measure([HOME_WARM]);
      if (options.lighthouse) {
        const { lighthouseFigures } = await import("./lighthouse.ts");
        lighthouse = await lighthouseFigures(server.base, dealPath);
      }
      return phase;
    });

    const small = smallDir
      ? await withServer(
          "PGlite, small data set",
          { DATA_DIR: smallDir, PAGE_CACHE: "off" },
          async (server) => {
            const phase = new Phase(
              `PGlite, ${options.smallDeals.toLocaleString("en-US")} deals, page cache off`,
              server,
              options,
            );
            await phase.measure([
              TRIVIAL,
              ...searchTargets("common", words.common),
              ...searchTargets("rare", words.rare),
            ]);
            return phase;
          },
        )
      : null;

    const engines: Phase[] = [];
    if (options.pg) {
      for (const processes of [1, 2]) {
        engines.push(
          await withServer(
            `PostgreSQL, ${processes} process(es)`,
            { DATABASE_URL: options.pg, PAGE_CACHE: "off", WEB_CONCURRENCY: String(processes) },
            async (server) => {
              const phase = new Phase(
                `PostgreSQL, WEB_CONCURRENCY=${processes}, page cache off`,
                server,
                options,
              );
              await phase.measure([TRIVIAL, ...engineTargets(words, deep)]);
              return phase;
            },
          ),
        );
      }
    }

    // The report: ratios first, then each phase's figures.
    const rows: RatioRow[] = [];
    const rps = (phase: Phase, name: string, other: Phase, otherName: string) =>
      throughputRatio(phase.get(name), other.get(otherName));
    rows.push({
      measure: "home, page cache warm ÷ static file (req/s)",
      value: rps(cached, HOME_WARM.name, cached, STATIC_TARGET.name),
      goal: { op: "≥", bound: 0.5 },
      basis: "req/s, same server",
    });
    rows.push({
      measure: "home, uncached SSR ÷ static file (req/s)",
      value: rps(uncached, HOME_UNCACHED.name, uncached, STATIC_TARGET.name),
      goal: { op: "≥", bound: 0.25 },
      basis: "req/s, same server",
    });
    const [page1, pageDeep] = engineTargets(words, deep);
    const deepJson = costRatio(uncached.get(pageDeep!.name), uncached.get(page1!.name));
    rows.push({
      measure: `new deals page ${deep.json.toLocaleString("en-US")} ÷ page 1 (time, JSON)`,
      value: deepJson.value,
      goal: { op: "≤", bound: 2 },
      basis: deepJson.basis,
    });
    const [ssr1, ssrDeep] = newDealsPages(deep);
    const deepSsr = costRatio(uncached.get(ssrDeep.name), uncached.get(ssr1.name));
    rows.push({
      measure: `new deals page ${deep.ssr.toLocaleString("en-US")} ÷ page 1 (time, SSR)`,
      value: deepSsr.value,
      goal: { op: "≤", bound: 2 },
      basis: deepSsr.basis,
    });
    if (small) {
      for (const [kind, word] of [
        ["common", words.common],
        ["rare", words.rare],
      ] as const) {
        for (const target of searchTargets(kind, word)) {
          const cost = costRatio(uncached.get(target.name), small.get(target.name));
          rows.push({
            measure: `${target.name}: ${n} ÷ ${options.smallDeals.toLocaleString("en-US")} deals (time)`,
            value: cost.value,
            goal: { op: "≤", bound: 3 },
            basis: cost.basis,
          });
        }
      }
    }
    const [pg1, pg2] = engines;
    if (pg1 && pg2) {
      for (const target of engineTargets(words, deep)) {
        rows.push({
          measure: `${target.name}: PGlite ÷ PostgreSQL (req/s)`,
          value: throughputRatio(uncached.get(target.name), pg1.get(target.name)),
          goal: { op: "≥", bound: 0.5 },
          basis: "req/s, 1 process each",
        });
      }
      for (const target of engineTargets(words, deep)) {
        rows.push({
          measure: `${target.name}: PostgreSQL 2 ÷ 1 processes (req/s)`,
          value: throughputRatio(pg2.get(target.name), pg1.get(target.name)),
          basis: "req/s",
        });
      }
    }

    console.log(
      `\n## ${n} deals, ${options.connections} connections, ${options.duration} s each, one run\n`,
    );
    console.log(ratioTable(rows));
    for (const phase of [uncached, cached, ...(small ? [small] : []), ...engines]) {
      console.log(phase.table());
    }
    console.log(
      "\n### HTML (uncompressed) and JavaScript at start (bytes as the server sends them)\n",
    );
    console.log(bytes.join("\n"));
    console.log("\n### Peak resident memory of each server process (VmHWM, before it stopped)\n");
    console.log(
      memoryTable(
        [uncached, cached, ...(small ? [small] : []), ...engines].map((phase) => ({
          phase: phase.title,
          processes: phase.memory,
          limit: MEMORY_GOALS[phase.engine],
        })),
      ),
    );
    if (lighthouse) console.log(`\n### Lighthouse (mobile), page cache on\n\n${lighthouse}`);
  } finally {
    fs.rmSync(staticFile, { force: true });
  }
  // One app host against two behind HAProxy (issue 37): every `--pg URL` run, where the machine can.
  if (options.pg && !options.only) {
    const { HostsUnavailableError } = await import("./hosts.ts");
    try {
      await measureHosts(options.pg, options);
    } catch (error) {
      if (!(error instanceof HostsUnavailableError)) throw error;
      console.log(`\n### One app host against two behind HAProxy: not measured, ${error.message}`);
    }
  }
  // Push alerts' speed (record 0109): measured on PostgreSQL, the engine the goal names.
  if (options.pg && !options.only) await measurePush(options.pg, options);
  else if (!options.only)
    console.log("\n### Push alerts: not measured, needs --pg URL (PostgreSQL)");
}

/** Deals published for the push bench, one a second: enough pushes for a 95th percentile. */
const PUSH_BENCH_DEALS = 30;

/** bench/push.ts: deal public → push sent, with the run's number of alerts. */
async function measurePush(pg: string, options: BenchOptions): Promise<void> {
  const { benchPush, pushBenchLine } = await import("./push.ts");
  const result = await benchPush({ pg, alerts: options.alerts, deals: PUSH_BENCH_DEALS });
  console.log(`\n### Push alerts (PostgreSQL)\n\n${pushBenchLine(result, options.alerts)}`);
}

/** bench/hosts.ts on the database at `pg`, with the run's duration and connections. */
async function measureHosts(pg: string, options: BenchOptions): Promise<void> {
  const { benchHosts } = await import("./hosts.ts");
  await benchHosts({ pg, duration: options.duration, connections: options.connections });
}

await main();
