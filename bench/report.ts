/**
 * The pure parts of `npm run bench` and `npm run lighthouse`: reading the command line, choosing
 * the search words from the generated data, and turning measurements into ratios with their goals.
 * No I/O here, so each piece is unit-tested (tests/unit/bench-report.test.ts).
 */

export interface BenchOptions {
  deals: number;
  /** The second, small data set that search at `deals` is compared with. */
  smallDeals: number;
  duration: number;
  connections: number;
  /** Only targets whose name contains this (the trivial route always runs); "alerts": 0045's. */
  only: string;
  /** PostgreSQL database (filled by `npm run data:large`) for the engine comparison. */
  pg: string | null;
  lighthouse: boolean;
  /** `--compressed`: requests ask for brotli or gzip, as browsers do, so compressing is measured. */
  compressed: boolean;
  /** `--only alerts`: how many alerts and published deals. */
  alerts: number;
  publish: number;
}

export class UsageError extends Error {}

const VALUED = new Set([
  "deals",
  "small-deals",
  "duration",
  "connections",
  "only",
  "pg",
  "alerts",
  "publish",
]);
const FLAGS = new Set(["lighthouse", "compressed"]);

/** Reads `npm run bench -- …`; an unknown option or a bad number is a UsageError naming it. */
export function parseBenchArgs(
  argv: readonly string[],
  env: Record<string, string | undefined> = {},
): BenchOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i]!;
    if (!token.startsWith("--")) throw new UsageError(`unexpected argument "${token}"`);
    const name = token.slice(2);
    if (FLAGS.has(name)) {
      flags.add(name);
    } else if (VALUED.has(name)) {
      const value = argv[i + 1];
      if (value === undefined || value.startsWith("--")) {
        throw new UsageError(`--${name} needs a value`);
      }
      values.set(name, value);
      i++;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  const count = (name: string, fallback: string, min: number): number => {
    const text = values.get(name) ?? fallback;
    const value = Number(text.replace(/_/g, ""));
    if (!Number.isInteger(value) || value < min) {
      throw new UsageError(`--${name} must be a whole number of at least ${min} (got "${text}")`);
    }
    return value;
  };
  const pg = values.get("pg") ?? null;
  if (pg !== null && !/^postgres(ql)?:\/\//.test(pg)) {
    throw new UsageError(`--pg must be a postgres:// URL (got "${pg}")`);
  }
  return {
    deals: count("deals", env.BENCH_DEALS ?? "1000000", 0),
    smallDeals: count("small-deals", "10000", 0),
    duration: count("duration", "8", 1),
    connections: count("connections", "10", 1),
    only: values.get("only") ?? "",
    pg,
    lighthouse: flags.has("lighthouse"),
    compressed: flags.has("compressed"),
    alerts: count("alerts", "100000", 1),
    publish: count("publish", "200", 1),
  };
}

/** Words too common in English to say anything about search (PostgreSQL drops most of them). */
const STOP_WORDS = new Set([
  "with",
  "from",
  "that",
  "this",
  "your",
  "pack",
  "count",
  "inch",
  "piece",
  "pieces",
  "set",
  "and",
  "for",
  "the",
]);

/** The words of a name that a search could be made of: letters only, four or more, lower case. */
export function searchableWords(name: string): string[] {
  return (name.toLowerCase().match(/[a-z]+/g) ?? []).filter(
    (word) => word.length >= 4 && !STOP_WORDS.has(word),
  );
}

/**
 * A common and a rare search word for the generated deals. Each generated deal is one offering
 * (a product at one store) drawn uniformly, so a word's share of the deals is its share of the
 * offerings: the common word is in the most offerings' names, the rare one in the fewest (one,
 * ideally). Words that are also in `excluded` (store names, which every description names) are
 * skipped, and ties go to the alphabetically first word, so the choice is stable.
 */
export function pickSearchWords(
  offeringNames: readonly string[],
  excluded: readonly string[] = [],
): { common: string; rare: string; commonShare: number; rareShare: number } {
  const skip = new Set(excluded.flatMap((name) => searchableWords(name)));
  const counts = new Map<string, number>();
  for (const name of offeringNames) {
    for (const word of new Set(searchableWords(name))) {
      if (!skip.has(word)) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  if (counts.size === 0) throw new Error("no searchable words in the offerings");
  const ordered = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const [common, commonCount] = ordered[0]!;
  const fewest = ordered[ordered.length - 1]![1];
  const [rare, rareCount] = ordered.find(([, n]) => n === fewest)!;
  return {
    common,
    rare,
    commonShare: commonCount / offeringNames.length,
    rareShare: rareCount / offeringNames.length,
  };
}

/** One target measured by autocannon. */
export interface Measurement {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  /** Server CPU milliseconds per request (all its processes), null where /proc is missing. */
  cpuPerRequest: number | null;
}

/**
 * a ÷ b; null when either is missing or not positive: every figure of the bench (req/s, CPU per
 * request) is positive when measured, and a zero means no request completed.
 */
export function ratio(a: number | null | undefined, b: number | null | undefined): number | null {
  if (a == null || b == null || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  if (a <= 0 || b <= 0) return null;
  return a / b;
}

export interface Goal {
  /** "≥" or "≤" the bound. */
  op: "≥" | "≤";
  bound: number;
}

export interface RatioRow {
  measure: string;
  value: number | null;
  goal?: Goal;
  /** What the value was computed from, shown beside it. */
  basis: string;
}

export function meetsGoal(value: number | null, goal: Goal | undefined): boolean | null {
  if (!goal || value === null) return null;
  return goal.op === "≥" ? value >= goal.bound : value <= goal.bound;
}

/** Throughput of a against b (req/s ÷ req/s). */
export function throughputRatio(a: Measurement | undefined, b: Measurement | undefined) {
  return ratio(a?.rps, b?.rps);
}

/**
 * How many times longer a takes than b: by server CPU per request where both have it (steadier on
 * a shared machine), else by the inverse of throughput.
 */
export function costRatio(
  a: Measurement | undefined,
  b: Measurement | undefined,
): { value: number | null; basis: string } {
  const byCpu = ratio(a?.cpuPerRequest, b?.cpuPerRequest);
  if (byCpu !== null) return { value: byCpu, basis: "server CPU per request" };
  return { value: ratio(b?.rps, a?.rps), basis: "1 ÷ req/s" };
}

/** The ratio table, Markdown, each value beside its goal and whether it is met. */
export function ratioTable(rows: readonly RatioRow[]): string {
  const lines = ["| measure | ratio | goal | met | from |", "|---|---:|---|---|---|"];
  for (const row of rows) {
    const met = meetsGoal(row.value, row.goal);
    lines.push(
      `| ${row.measure} | ${row.value === null ? "–" : row.value.toFixed(2)} | ${
        row.goal ? `${row.goal.op} ${row.goal.bound}` : ""
      } | ${met === null ? (row.goal ? "not measured" : "") : met ? "yes" : "no"} | ${row.basis} |`,
    );
  }
  return lines.join("\n");
}

/** A table of measurements, each also as a ratio of the phase's trivial route. */
export function measurementTable(results: readonly Measurement[], trivial?: Measurement): string {
  const lines = [
    "| target | req/s | p99 ms | req/s ÷ trivial | server CPU ms/req | errors |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  for (const r of results) {
    const share = ratio(r.rps, trivial?.rps);
    lines.push(
      `| ${r.name} | ${r.rps.toFixed(0)} | ${r.p99} | ${share === null ? "–" : share.toFixed(3)} | ${
        r.cpuPerRequest === null ? "–" : r.cpuPerRequest.toFixed(2)
      } | ${r.errors} |`,
    );
  }
  return lines.join("\n");
}

/** Lighthouse's four category scores (0–100) and the audits that would save the most. */
export interface LighthouseSummary {
  url: string;
  scores: Record<LighthouseCategory, number | null>;
  opportunities: { id: string; title: string; savingsMs: number; savingsBytes: number }[];
  /** The failed audits that hold accessibility, best practices or SEO under 100. */
  failed: { category: LighthouseCategory; id: string; title: string }[];
  metrics: Record<string, string>;
  /** Lighthouse's measure of the machine's speed (a quiet desktop: about 1,000 or more). */
  benchmarkIndex: number | null;
}

export const LIGHTHOUSE_CATEGORIES = [
  "performance",
  "accessibility",
  "best-practices",
  "seo",
] as const;
export type LighthouseCategory = (typeof LIGHTHOUSE_CATEGORIES)[number];

/** The site's goals for the four categories (docs/benchmarks.md, "How to run"). */
export const LIGHTHOUSE_GOALS: Record<LighthouseCategory, number> = {
  performance: 95,
  accessibility: 100,
  "best-practices": 100,
  seo: 100,
};

/** The parts of a Lighthouse result (LHR) read here. */
export interface LighthouseResultLike {
  finalDisplayedUrl?: string;
  requestedUrl?: string;
  environment?: { benchmarkIndex?: number };
  categories: Record<
    string,
    { score: number | null; auditRefs?: { id: string; weight: number }[] } | undefined
  >;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      displayValue?: string;
      details?: { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number };
      metricSavings?: Record<string, number | undefined>;
    }
  >;
}

/** Under this benchmark index Lighthouse's simulated phone runs slower than it assumes. */
export const SLOW_MACHINE = 1000;

const METRICS = [
  "first-contentful-paint",
  "largest-contentful-paint",
  "total-blocking-time",
  "cumulative-layout-shift",
  "speed-index",
];

/**
 * Scores as 0–100 and the top opportunities: failing audits ordered by the time they would save
 * (their own estimate, or the largest metric saving), then by bytes.
 */
export function summarizeLighthouse(lhr: LighthouseResultLike, top = 5): LighthouseSummary {
  const scores = Object.fromEntries(
    LIGHTHOUSE_CATEGORIES.map((id) => {
      const score = lhr.categories[id]?.score;
      return [id, score == null ? null : Math.round(score * 100)];
    }),
  ) as Record<LighthouseCategory, number | null>;
  const opportunities = Object.values(lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 0.9)
    .map((audit) => ({
      id: audit.id,
      title: audit.title,
      savingsMs: Math.round(
        audit.details?.overallSavingsMs ??
          Math.max(
            0,
            ...Object.entries(audit.metricSavings ?? {})
              .filter(([metric]) => metric !== "CLS")
              .map(([, ms]) => ms ?? 0),
          ),
      ),
      savingsBytes: Math.round(audit.details?.overallSavingsBytes ?? 0),
    }))
    .filter((o) => o.savingsMs > 0 || o.savingsBytes > 0)
    .sort((a, b) => b.savingsMs - a.savingsMs || b.savingsBytes - a.savingsBytes)
    .slice(0, top);
  const failed = LIGHTHOUSE_CATEGORIES.filter((id) => id !== "performance").flatMap((category) =>
    (lhr.categories[category]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0)
      .map((ref) => lhr.audits[ref.id])
      .filter((audit) => audit !== undefined && audit.score !== null && audit.score < 1)
      .map((audit) => ({ category, id: audit!.id, title: audit!.title })),
  );
  const metrics: Record<string, string> = {};
  for (const id of METRICS) {
    const value = lhr.audits[id]?.displayValue;
    if (value) metrics[id] = value;
  }
  return {
    url: lhr.finalDisplayedUrl ?? lhr.requestedUrl ?? "",
    scores,
    opportunities,
    failed,
    metrics,
    benchmarkIndex: lhr.environment?.benchmarkIndex ?? null,
  };
}

/** The Lighthouse figures of several pages as Markdown: scores against goals, then opportunities. */
export function lighthouseReport(summaries: readonly LighthouseSummary[]): string {
  const lines = [
    "| page | performance (≥ 95) | accessibility (100) | best practices (100) | SEO (100) |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const s of summaries) {
    const cell = (id: LighthouseCategory) => {
      const score = s.scores[id];
      if (score === null) return "–";
      return score >= LIGHTHOUSE_GOALS[id] ? `${score}` : `${score} ✗`;
    };
    lines.push(
      `| ${new URL(s.url).pathname} | ${cell("performance")} | ${cell("accessibility")} | ${cell(
        "best-practices",
      )} | ${cell("seo")} |`,
    );
  }
  for (const s of summaries) {
    lines.push(
      "",
      `${new URL(s.url).pathname}: ${Object.entries(s.metrics)
        .map(([id, value]) => `${id} ${value}`)
        .join(", ")}`,
    );
    if (s.benchmarkIndex !== null) {
      const slow = s.benchmarkIndex < SLOW_MACHINE;
      lines.push(
        `  machine speed (Lighthouse's benchmark index): ${Math.round(s.benchmarkIndex)}${
          slow ? " — a busy or slow machine: performance reads low" : ""
        }`,
      );
    }
    for (const f of s.failed) lines.push(`  - ${f.category}: ${f.title} (${f.id})`);
    if (s.opportunities.length === 0) lines.push("  no opportunities left");
    for (const o of s.opportunities) {
      const saves = [
        o.savingsMs ? `${o.savingsMs} ms` : "",
        o.savingsBytes ? `${Math.round(o.savingsBytes / 1024)} KiB` : "",
      ].filter(Boolean);
      lines.push(`  - ${o.title} (saves ${saves.join(", ")})`);
    }
  }
  return lines.join("\n");
}

/** What /proc/<pid>/status says of a process's resident memory, in bytes (null: not there). */
export interface ProcMemory {
  /** VmHWM: the most it has held resident since it started. */
  peak: number | null;
  /** VmRSS: what it holds now. */
  now: number | null;
}

/** Reads VmHWM and VmRSS from the text of /proc/<pid>/status (Linux gives them in kB). */
export function parseProcStatus(text: string): ProcMemory {
  const field = (name: string): number | null => {
    const match = new RegExp(`^${name}:\\s*(\\d+)\\s*kB\\s*$`, "m").exec(text);
    return match ? Number(match[1]) * 1024 : null;
  };
  return { peak: field("VmHWM"), now: field("VmRSS") };
}

/**
 * Which server process a process of a server's tree is: the only one ("server"), the primary of
 * node:cluster, a cluster worker (node:cluster gives each its id as NODE_UNIQUE_ID), or another
 * child, named by its command.
 */
export function processRole(options: {
  isRoot: boolean;
  processes: number;
  workerId: string | null;
  command: string;
}): string {
  if (options.isRoot) return options.processes > 1 ? "primary" : "server";
  if (options.workerId) return `worker ${options.workerId}`;
  return `child (${options.command})`;
}

/** One server process's peak resident memory, read just before its server was stopped. */
export interface ServerProcessMemory {
  role: string;
  pid: number;
  peak: number | null;
}

/** The server processes of one bench phase, and the most each may hold. */
export interface PhaseMemory {
  phase: string;
  processes: readonly ServerProcessMemory[];
  /** The goal for each process, in bytes (docs/decisions/0100). */
  limit?: number;
}

export const MB = 1024 * 1024;

/** The goals of docs/decisions/0100: per server process, embedded and with PostgreSQL. */
export const MEMORY_GOALS = { pglite: 512 * MB, postgres: 256 * MB } as const;

/** The peak resident memory table, Markdown: one line a server process, in MiB, against its goal. */
export function memoryTable(phases: readonly PhaseMemory[]): string {
  const lines = ["| phase | process | peak resident MB | goal | met |", "|---|---|---:|---|---|"];
  for (const { phase, processes, limit } of phases) {
    if (processes.length === 0) lines.push(`| ${phase} | – | – | | not measured |`);
    for (const p of processes) {
      const met =
        limit === undefined
          ? ""
          : p.peak === null
            ? "not measured"
            : p.peak <= limit
              ? "yes"
              : "no";
      lines.push(
        `| ${phase} | ${p.role} (pid ${p.pid}) | ${p.peak === null ? "–" : (p.peak / MB).toFixed(0)} | ${
          limit === undefined ? "" : `≤ ${limit / MB}`
        } | ${met} |`,
      );
    }
  }
  return lines.join("\n");
}

/**
 * The Node flags of `npm start` (package.json's start script, "node [flags] scripts/start.mjs"):
 * the bench starts its servers with them, as `npm start` does. Anything else is a UsageError.
 */
export function startScriptFlags(script: string): string[] {
  const words = script.trim().split(/\s+/);
  const flags = words.slice(1, -1);
  if (
    words[0] !== "node" ||
    words.at(-1) !== "scripts/start.mjs" ||
    flags.some((f) => !f.startsWith("--"))
  ) {
    throw new UsageError(
      `package.json's start script is not "node [--flags] scripts/start.mjs": "${script}"`,
    );
  }
  return flags;
}

/** One route of `--only hosts`: through HAProxy to host A alone, and to hosts A and B. */
export interface HostsRow {
  name: string;
  one: HostsLoad;
  two: HostsLoad;
}

export interface HostsLoad {
  rps: number;
  p99: number;
  errors: number;
  /** CPU milliseconds a request of both hosts' processes, and of HAProxy; null: not measured. */
  serverCpu: number | null;
  haproxyCpu: number | null;
}

/** The `--only hosts` table, Markdown: both figures of each route and the ratio two ÷ one. */
export function hostsTable(rows: readonly HostsRow[]): string {
  const lines = [
    "| route | A alone req/s | A + B req/s | A + B ÷ A (req/s) | p99 ms, A / A + B | hosts' CPU ms/req, A / A + B | HAProxy CPU ms/req, A / A + B | errors, A / A + B |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
  ];
  const ms = (value: number | null) => (value === null ? "–" : value.toFixed(2));
  for (const { name, one, two } of rows) {
    const value = ratio(two.rps, one.rps);
    lines.push(
      `| ${name} | ${one.rps.toFixed(0)} | ${two.rps.toFixed(0)} | ${
        value === null ? "–" : value.toFixed(2)
      } | ${one.p99} / ${two.p99} | ${ms(one.serverCpu)} / ${ms(two.serverCpu)} | ${ms(
        one.haproxyCpu,
      )} / ${ms(two.haproxyCpu)} | ${one.errors} / ${two.errors} |`,
    );
  }
  if (rows.length === 0) lines.push("| no route measured | | | | | | | |");
  return lines.join("\n");
}

/**
 * BENCH_HOST_PROCESSES: WEB_CONCURRENCY of each app host of `--only hosts` (default 1: on a
 * 2-core machine one process leaves host A short of the machine, so a second host can add to it).
 */
export function parseHostProcesses(text: string | undefined): number {
  if (text === undefined || text === "") return 1;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    throw new UsageError(
      `BENCH_HOST_PROCESSES must be a whole number from 1 to 64 (got "${text}")`,
    );
  }
  return value;
}
