/**
 * `npm run lighthouse`: Lighthouse (mobile preset: a mid-range phone on a slow 4G link, simulated)
 * on the home page and a deal page of the production build, in Debian's Chromium (`/usr/bin/chromium`
 * or CHROMIUM_PATH; nothing is downloaded). It starts the production server itself, as `npm start`
 * does, on a temporary data folder filled with the demo content, and prints performance,
 * accessibility, best practices and SEO against the site's goals (≥ 95, 100, 100, 100) with the
 * audits that would save the most, and whether Chrome would offer to install the site
 * (bench/installability.ts).
 *
 *   npm run lighthouse
 *   npm run lighthouse -- --json out.json     # also writes the full reports
 *
 * `npm run bench -- --lighthouse` runs the same on the bench's own server (lighthouseFigures).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { installabilityErrors } from "./installability.ts";
import { someDealPath } from "./js-weight.ts";
import {
  LIGHTHOUSE_CATEGORIES,
  LIGHTHOUSE_GOALS,
  lighthouseReport,
  summarizeLighthouse,
  type LighthouseResultLike,
  type LighthouseSummary,
} from "./report.ts";
import { freePort, startServer, stopServer } from "./targets.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The flags the machine notes give for headless Debian Chromium, beside chrome-launcher's own. */
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-dev-shm-usage",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

export function chromiumPath(): string {
  const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (!fs.existsSync(chromium)) {
    throw new Error(
      `Chromium is not at ${chromium}: install Debian's (apt-get install chromium) or set CHROMIUM_PATH`,
    );
  }
  return chromium;
}

/** Lighthouse's full result for each URL, one Chromium for all, run one after the other. */
export async function runLighthouse(urls: readonly string[]): Promise<LighthouseResultLike[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath(),
    chromeFlags: CHROMIUM_FLAGS,
    logLevel: "error",
  });
  try {
    const results: LighthouseResultLike[] = [];
    for (const url of urls) {
      const result = await lighthouse(url, {
        port: chrome.port,
        logLevel: "error",
        output: "json",
        onlyCategories: [...LIGHTHOUSE_CATEGORIES],
      });
      if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
      if (result.lhr.runtimeError) {
        throw new Error(`Lighthouse could not load ${url}: ${result.lhr.runtimeError.message}`);
      }
      results.push(result.lhr as unknown as LighthouseResultLike);
    }
    return results;
  } finally {
    chrome.kill();
  }
}

/** The home page and a deal page of a running server, scored and summarised. */
export async function lighthouseSummaries(
  base: string,
  dealPath?: string | null,
): Promise<{ summaries: LighthouseSummary[]; results: LighthouseResultLike[] }> {
  const deal = dealPath ?? (await someDealPath(base));
  const urls = [`${base}/`, ...(deal ? [base + deal] : [])];
  const results = await runLighthouse(urls);
  return { summaries: results.map((lhr) => summarizeLighthouse(lhr)), results };
}

/**
 * Whether Chrome would offer to install the site, as a line of the report: Lighthouse 12 no longer
 * has the PWA category whose installability audit this was (docs/decisions/0108).
 */
export async function installabilityLine(base: string): Promise<string> {
  const errors = await installabilityErrors(`${base}/`, chromiumPath(), CHROMIUM_FLAGS);
  return errors.length === 0
    ? "Installable (Chrome's own check): yes"
    : `Installable (Chrome's own check): no — ${errors.join(", ")}`;
}

/** The Markdown that `npm run bench -- --lighthouse` prints. */
export async function lighthouseFigures(base: string, dealPath?: string | null): Promise<string> {
  const report = lighthouseReport((await lighthouseSummaries(base, dealPath)).summaries);
  return `${report}\n\n${await installabilityLine(base)}`;
}

async function main() {
  const args = process.argv.slice(2);
  const jsonAt = args.indexOf("--json");
  const jsonFile = jsonAt >= 0 ? args[jsonAt + 1] : undefined;
  if (
    (jsonAt >= 0 && !jsonFile) ||
    args.some((a, i) => a.startsWith("--") && a !== "--json" && i !== jsonAt)
  ) {
    console.error("usage: npm run lighthouse [-- --json FILE]");
    process.exit(2);
  }
  chromiumPath();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "chalkboard-lighthouse-"));
  try {
    console.log(`Starting the production server on the demo data (${dataDir})…`);
    const server = await startServer({
      name: "lighthouse",
      checkout: root,
      port: await freePort(),
      env: { DATA_DIR: dataDir, DEMO_DATA: "on" },
    });
    try {
      const { summaries, results } = await lighthouseSummaries(server.base);
      console.log(`\nLighthouse ${lighthouseVersion()} (mobile preset), production build\n`);
      console.log(lighthouseReport(summaries));
      const installable = await installabilityLine(server.base);
      console.log(`\n${installable}`);
      if (jsonFile) {
        fs.writeFileSync(jsonFile, JSON.stringify(results, null, 2));
        console.log(`\nfull reports: ${jsonFile}`);
      }
      const missed = summaries.flatMap((s) =>
        LIGHTHOUSE_CATEGORIES.filter((id) => (s.scores[id] ?? 0) < LIGHTHOUSE_GOALS[id]).map(
          (id) => `${new URL(s.url).pathname} ${id}`,
        ),
      );
      if (!installable.endsWith(": yes")) missed.push("installability");
      console.log(missed.length ? `\ngoals missed: ${missed.join(", ")}` : "\nevery goal met");
    } finally {
      await stopServer(server);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

function lighthouseVersion(): string {
  const pkg = JSON.parse(
    fs.readFileSync(path.join(root, "node_modules/lighthouse/package.json"), "utf8"),
  ) as { version: string };
  return pkg.version;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
