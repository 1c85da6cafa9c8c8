import { describe, expect, it } from "vitest";
import {
  costRatio,
  hostsTable,
  lighthouseReport,
  MB,
  meetsGoal,
  MEMORY_GOALS,
  memoryTable,
  parseBenchArgs,
  parseHostProcesses,
  parseProcStatus,
  pickSearchWords,
  processRole,
  ratio,
  ratioTable,
  searchableWords,
  summarizeLighthouse,
  throughputRatio,
  UsageError,
  type LighthouseResultLike,
  type Measurement,
} from "../../bench/report.ts";
import { generatedSearchWords, serverMemory } from "../../bench/targets.ts";

const measurement = (rps: number, cpuPerRequest: number | null): Measurement => ({
  name: "x",
  rps,
  p99: 10,
  errors: 0,
  cpuPerRequest,
});

describe("parseBenchArgs", () => {
  it("gives the defaults, the environment's BENCH_DEALS, and reads each option", () => {
    expect(parseBenchArgs([])).toMatchObject({
      deals: 1_000_000,
      smallDeals: 10_000,
      duration: 8,
      connections: 10,
      only: "",
      pg: null,
      lighthouse: false,
      compressed: false,
    });
    expect(parseBenchArgs([], { BENCH_DEALS: "5000" }).deals).toBe(5000);
    expect(
      parseBenchArgs([
        "--deals",
        "20_000",
        "--small-deals",
        "0",
        "--duration",
        "3",
        "--pg",
        "postgres://postgres@127.0.0.1:5432/bench_small",
        "--lighthouse",
        "--compressed",
        "--only",
        "search",
      ]),
    ).toMatchObject({
      deals: 20_000,
      smallDeals: 0,
      duration: 3,
      pg: "postgres://postgres@127.0.0.1:5432/bench_small",
      lighthouse: true,
      compressed: true,
      only: "search",
    });
  });

  it("refuses unknown options, missing values and bad numbers with a message naming them", () => {
    expect(() => parseBenchArgs(["--dels", "5"])).toThrow("unknown option --dels");
    expect(() => parseBenchArgs(["--deals"])).toThrow("--deals needs a value");
    expect(() => parseBenchArgs(["--deals", "--lighthouse"])).toThrow("--deals needs a value");
    expect(() => parseBenchArgs(["--duration", "0"])).toThrow(
      '--duration must be a whole number of at least 1 (got "0")',
    );
    expect(() => parseBenchArgs(["--deals", "many"])).toThrow(UsageError);
    expect(() => parseBenchArgs(["--pg", "mysql://x"])).toThrow("--pg must be a postgres:// URL");
    expect(() => parseBenchArgs(["20000"])).toThrow('unexpected argument "20000"');
  });
});

describe("search words", () => {
  it("takes words of four letters or more, lower case, without filler words", () => {
    expect(searchableWords("Crayola 64-Count Crayons with Built-in Sharpener")).toEqual([
      "crayola",
      "crayons",
      "built",
      "sharpener",
    ]);
  });

  it("picks the word in most offerings and one in the fewest, skipping store names", () => {
    const names = [
      "Crayola Crayons",
      "Crayola Crayons",
      "Crayola Markers",
      "Walmart Glue Sticks",
      "Elmer Glue",
      "Zebra Pens",
    ];
    const words = pickSearchWords(names, ["Walmart"]);
    expect(words.common).toBe("crayola");
    expect(words.commonShare).toBeCloseTo(3 / 6);
    // Ties at one offering go to the alphabetically first: elmer, markers, pens, sticks, zebra.
    expect(words.rare).toBe("elmer");
    expect(words.rareShare).toBeCloseTo(1 / 6);
  });

  it("chooses from the demo catalogue that db/demo/large.ts draws from", () => {
    const words = generatedSearchWords();
    expect(words.common).toMatch(/^[a-z]{4,}$/);
    expect(words.rare).toMatch(/^[a-z]{4,}$/);
    expect(words.common).not.toBe(words.rare);
  });
});

describe("ratios and goals", () => {
  it("divides only real, positive figures", () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNull();
    // No request completed: nothing was measured, not "infinitely fast".
    expect(ratio(0, 3)).toBeNull();
    expect(costRatio(measurement(100, null), measurement(0, null)).value).toBeNull();
    expect(ratio(null, 2)).toBeNull();
    expect(ratio(3, undefined)).toBeNull();
    expect(throughputRatio(measurement(50, 1), measurement(200, 1))).toBe(0.25);
  });

  it("compares cost by CPU per request, else by inverse throughput", () => {
    expect(costRatio(measurement(100, 6), measurement(200, 3))).toEqual({
      value: 2,
      basis: "server CPU per request",
    });
    expect(costRatio(measurement(100, null), measurement(300, 3))).toEqual({
      value: 3,
      basis: "1 ÷ req/s",
    });
    expect(costRatio(undefined, measurement(300, 3)).value).toBeNull();
  });

  it("says whether a goal is met, and prints unmeasured ones as such", () => {
    expect(meetsGoal(0.5, { op: "≥", bound: 0.5 })).toBe(true);
    expect(meetsGoal(2.1, { op: "≤", bound: 2 })).toBe(false);
    expect(meetsGoal(null, { op: "≤", bound: 2 })).toBeNull();
    const table = ratioTable([
      { measure: "warm ÷ static", value: 0.62, goal: { op: "≥", bound: 0.5 }, basis: "req/s" },
      { measure: "page 2,000 ÷ 1", value: null, goal: { op: "≤", bound: 2 }, basis: "CPU" },
      { measure: "2 ÷ 1 processes", value: 1.8, basis: "req/s" },
    ]);
    expect(table.split("\n").slice(2)).toEqual([
      "| warm ÷ static | 0.62 | ≥ 0.5 | yes | req/s |",
      "| page 2,000 ÷ 1 | – | ≤ 2 | not measured | CPU |",
      "| 2 ÷ 1 processes | 1.80 |  |  | req/s |",
    ]);
  });
});

describe("Lighthouse summary", () => {
  const lhr: LighthouseResultLike = {
    finalDisplayedUrl: "http://127.0.0.1:4000/",
    environment: { benchmarkIndex: 480 },
    categories: {
      performance: { score: 0.86 },
      accessibility: { score: 1, auditRefs: [{ id: "image-alt", weight: 10 }] },
      "best-practices": {
        score: 0.96,
        auditRefs: [
          { id: "inspector-issues", weight: 1 },
          { id: "color-contrast", weight: 0 },
        ],
      },
      seo: { score: null },
    },
    audits: {
      "largest-contentful-paint": {
        id: "largest-contentful-paint",
        title: "Largest Contentful Paint",
        score: 0.5,
        displayValue: "3.0 s",
      },
      "unused-javascript": {
        id: "unused-javascript",
        title: "Reduce unused JavaScript",
        score: 0.3,
        details: { type: "opportunity", overallSavingsMs: 450, overallSavingsBytes: 60_000 },
      },
      "uses-responsive-images": {
        id: "uses-responsive-images",
        title: "Properly size images",
        score: 0.5,
        details: { type: "opportunity", overallSavingsMs: 0, overallSavingsBytes: 210_000 },
      },
      "render-blocking-insight": {
        id: "render-blocking-insight",
        title: "Render blocking requests",
        score: 0,
        metricSavings: { FCP: 300, LCP: 320, CLS: 0.4 },
      },
      "image-alt": { id: "image-alt", title: "Images have alt", score: 1 },
      "inspector-issues": { id: "inspector-issues", title: "Issues were logged", score: 0 },
      "color-contrast": { id: "color-contrast", title: "Contrast", score: 0 },
    },
  };

  it("scores out of 100 and orders what would save the most time, then bytes", () => {
    const summary = summarizeLighthouse(lhr);
    expect(summary.scores).toEqual({
      performance: 86,
      accessibility: 100,
      "best-practices": 96,
      seo: null,
    });
    expect(summary.opportunities.map((o) => [o.id, o.savingsMs, o.savingsBytes])).toEqual([
      ["unused-javascript", 450, 60_000],
      ["render-blocking-insight", 320, 0],
      ["uses-responsive-images", 0, 210_000],
    ]);
    expect(summary.metrics).toEqual({ "largest-contentful-paint": "3.0 s" });
    // Failed audits of the other categories, those that count (weight > 0).
    expect(summary.failed).toEqual([
      { category: "best-practices", id: "inspector-issues", title: "Issues were logged" },
    ]);
    expect(summary.benchmarkIndex).toBe(480);
  });

  it("marks the scores under their goals", () => {
    const report = lighthouseReport([summarizeLighthouse(lhr)]);
    expect(report).toContain("| / | 86 ✗ | 100 | 96 ✗ | – |");
    expect(report).toContain("  - Reduce unused JavaScript (saves 450 ms, 59 KiB)");
    expect(report).toContain("  - Properly size images (saves 205 KiB)");
    expect(report).toContain("  - best-practices: Issues were logged (inspector-issues)");
    expect(report).toContain("benchmark index): 480 — a busy or slow machine");
  });
});

describe("peak resident memory", () => {
  const status = [
    "Name:\tnode",
    "VmPeak:\t 9012345 kB",
    "VmSize:\t 8912345 kB",
    "VmHWM:\t  523452 kB",
    "VmRSS:\t  401200 kB",
    "RssAnon:\t  380000 kB",
    "Threads:\t12",
  ].join("\n");

  it("reads VmHWM and VmRSS from /proc/<pid>/status, in bytes, and not their neighbours", () => {
    expect(parseProcStatus(status)).toEqual({ peak: 523452 * 1024, now: 401200 * 1024 });
    expect(parseProcStatus("Name:\tkthreadd\nThreads:\t1\n")).toEqual({ peak: null, now: null });
  });

  it("names each process of a server: the only one, the primary, its workers, another child", () => {
    const role = (isRoot: boolean, processes: number, workerId: string | null) =>
      processRole({ isRoot, processes, workerId, command: "sh" });
    expect(role(true, 1, null)).toBe("server");
    expect(role(true, 3, null)).toBe("primary");
    expect(role(false, 3, "2")).toBe("worker 2");
    expect(role(false, 3, null)).toBe("child (sh)");
  });

  it("reads this test's own process as a server of one", () => {
    const [self, ...rest] = serverMemory(process.pid);
    expect(self).toMatchObject({
      role: expect.stringMatching(/^(server|primary)$/),
      pid: process.pid,
    });
    expect(self!.peak).toBeGreaterThan(10 * MB);
    expect(rest.every((p) => p.pid !== process.pid)).toBe(true);
    expect(serverMemory(undefined)).toEqual([]);
  });

  it("prints each process in MB against its engine's goal", () => {
    const table = memoryTable([
      {
        phase: "PGlite",
        processes: [{ role: "server", pid: 10, peak: 600 * MB }],
        limit: MEMORY_GOALS.pglite,
      },
      {
        phase: "PostgreSQL, 2",
        processes: [
          { role: "primary", pid: 20, peak: 90.4 * MB },
          { role: "worker 1", pid: 21, peak: 256 * MB },
          { role: "worker 2", pid: 22, peak: null },
        ],
        limit: MEMORY_GOALS.postgres,
      },
      { phase: "gone", processes: [] },
    ]);
    expect(table.split("\n").slice(2)).toEqual([
      "| PGlite | server (pid 10) | 600 | ≤ 512 | no |",
      "| PostgreSQL, 2 | primary (pid 20) | 90 | ≤ 256 | yes |",
      "| PostgreSQL, 2 | worker 1 (pid 21) | 256 | ≤ 256 | yes |",
      "| PostgreSQL, 2 | worker 2 (pid 22) | – | ≤ 256 | not measured |",
      "| gone | – | – | | not measured |",
    ]);
  });
});

describe("--only hosts", () => {
  it("shows each route's figures with one host and two, and two ÷ one", () => {
    const load = (rps: number, serverCpu: number | null) => ({
      rps,
      p99: 40,
      errors: 0,
      serverCpu,
      haproxyCpu: 0.2,
    });
    const table = hostsTable([
      { name: "home", one: load(1000, 0.3), two: load(1500, null) },
      { name: "none", one: load(0, 0.3), two: load(10, 0.3) },
    ]);
    expect(table.split("\n").slice(2)).toEqual([
      "| home | 1000 | 1500 | 1.50 | 40 / 40 | 0.30 / – | 0.20 / 0.20 | 0 / 0 |",
      "| none | 0 | 10 | – | 40 / 40 | 0.30 / 0.30 | 0.20 / 0.20 | 0 / 0 |",
    ]);
    expect(hostsTable([]).split("\n")[2]).toContain("no route measured");
  });

  it("reads BENCH_HOST_PROCESSES: 1 unless set, a clear error for a bad value", () => {
    expect(parseHostProcesses(undefined)).toBe(1);
    expect(parseHostProcesses("")).toBe(1);
    expect(parseHostProcesses("2")).toBe(2);
    for (const bad of ["0", "1.5", "two", "65"]) {
      expect(() => parseHostProcesses(bad)).toThrow(UsageError);
      expect(() => parseHostProcesses(bad)).toThrow(
        `BENCH_HOST_PROCESSES must be a whole number from 1 to 64 (got "${bad}")`,
      );
    }
  });
});
