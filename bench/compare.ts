/**
 * Compares this checkout's server with another checkout's (an older commit, say) on a shared,
 * noisy machine: both servers run at once, each on its own data set (`bench/.data/deals-N` of
 * each checkout, made by `npm run bench` there), and each target of `npm run bench` is measured
 * alternately, A B A B …, reporting the median server CPU per request of each and their ratio.
 * Both run with the page cache off (PAGE_CACHE=off), so pages are rendered each time.
 *
 *   npx tsx bench/compare.ts ../other-checkout [--rounds 3] [--seconds 5] [--deals 1000000]
 *     [--only TEXT]   (only the targets whose name contains TEXT, as in `npm run bench`)
 *     [--compressed]  (ask as browsers do, `Accept-Encoding: br, gzip`, so compression is counted)
 *
 * Both checkouts need their production build (`npm run bench` makes it).
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { someDealPath } from "./js-weight.ts";
import {
  benchTargets,
  DEEP_PAGE,
  generatedSearchWords,
  HOME_UNCACHED,
  measure,
  probe,
  startServer,
  stopServer,
  type Server,
} from "./targets.ts";

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
const only = arg("only", "");
const compressed = process.argv.includes("--compressed");

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

const servers: Server[] = [];
try {
  for (const [name, checkout, port] of [
    ["this", root, 4701],
    ["other", path.resolve(other), 4702],
  ] as const) {
    servers.push(
      await startServer({
        name,
        checkout,
        port,
        env: { DATA_DIR: path.join(checkout, "bench/.data", `deals-${deals}`), PAGE_CACHE: "off" },
      }),
    );
  }
  const targets = [
    HOME_UNCACHED,
    ...benchTargets(generatedSearchWords(), await someDealPath(servers[0]!.base), {
      json: DEEP_PAGE,
      ssr: DEEP_PAGE,
    }),
  ];
  console.log("| target | this CPU ms/req | other CPU ms/req | this ÷ other |");
  console.log("|---|---:|---:|---:|");
  for (const target of targets.filter((t) => t.name.includes(only))) {
    // A deal page of this checkout's data set is only on the other when both were generated alike.
    const statuses = await Promise.all(servers.map((server) => probe(server.base, target)));
    if (statuses.some((status) => status >= 400)) {
      console.log(`| ${target.name} | skipped: answers ${statuses.join(" / ")} | | |`);
      continue;
    }
    const options = (duration: number) => ({ connections: 10, duration, compressed });
    for (const server of servers) await measure(server, target, options(2)); // warm up
    const cpu = new Map<string, number[]>(servers.map((s) => [s.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const server of round % 2 ? [...servers].reverse() : servers) {
        const result = await measure(server, target, options(seconds));
        if (result.errors) console.error(`${server.name} ${target.name}: ${result.errors} failed`);
        cpu.get(server.name)!.push(result.cpuPerRequest ?? Number.NaN);
      }
    }
    const mine = median(cpu.get("this")!);
    const theirs = median(cpu.get("other")!);
    console.log(
      `| ${target.name} | ${mine.toFixed(2)} | ${theirs.toFixed(2)} | ${(mine / theirs).toFixed(2)} |`,
    );
  }
} finally {
  for (const server of servers) await stopServer(server);
}
