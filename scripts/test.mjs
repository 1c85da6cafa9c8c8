// `npm test`: every check CI runs, in order, stopping at the first failure.
// Lint and types, the production build, unit and integration tests (PGlite, or PostgreSQL when
// DATABASE_URL is set), then the browser tests in Chromium.
//
// The steps of one stage run at the same time: lint, format and types each use one core, so on a
// 2-core machine they take as long as the slowest of them (decision 0055). Their output is printed
// whole as each finishes. The test steps use every core themselves and run alone.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** Says which test files never finished because their process died (docs/decisions/0102). */
const SUMMARY_REPORTER = "tests/setup/unfinished-files-reporter.ts";
const summaryFile = path.join(os.tmpdir(), `chalkboard-vitest-summary-${process.pid}.json`);
process.env.VITEST_RUN_SUMMARY = summaryFile;
process.on("exit", () => fs.rmSync(summaryFile, { force: true }));

const stages = [
  [
    ["lint", [["eslint", ["."]]]],
    ["format", [["prettier", ["--check", "."]]]],
    [
      "types",
      [
        ["react-router", ["typegen"]],
        ["tsc", ["--noEmit"]],
      ],
    ],
  ],
  [["build", [["react-router", ["build"]]]]],
  [
    [
      "unit and integration tests",
      [["vitest", ["run", "--reporter=default", `--reporter=./${SUMMARY_REPORTER}`]]],
    ],
  ],
  [["browser tests", [["playwright", ["test"]]]]],
];

const only = process.argv.slice(2);
const wanted = ([name]) => !only.length || only.some((o) => name.startsWith(o));

const began = Date.now();
/** Each step's wall time, printed together at the end (docs/decisions/0077 keeps the figures). */
const times = [];
const seconds = (since) => Math.round((Date.now() - since) / 1000);

function printTimes() {
  if (times.length > 1) {
    console.log(
      `\ntimes: ${times.map(([name, s]) => `${name} ${s} s`).join(", ")}; in all ${seconds(began)} s`,
    );
  }
}

/** Runs one command; alone it inherits the terminal, beside others its output is collected. */
function run(command, args, alone) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    let output = "";
    child.stdout?.on("data", (chunk) => (output += chunk));
    child.stderr?.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve({ status: 1, signal: null, output: `${error}\n` }));
    child.on("close", (status, signal) => resolve({ status, signal, output }));
  });
}

/**
 * Vitest's pool sometimes loses the process running a test file, at its end, with nothing failed
 * ("Worker exited unexpectedly", docs/decisions/0102). When that is all that went wrong, the files
 * that never finished run once more, alone, and decide the step; any other failure stands.
 */
async function runUnfinishedAgain(result) {
  let summary;
  try {
    summary = JSON.parse(fs.readFileSync(summaryFile, "utf8"));
  } catch {
    return result;
  } finally {
    fs.rmSync(summaryFile, { force: true });
  }
  if (summary.otherFailures || !summary.unfinished.length) return result;
  const files = summary.unfinished.map((file) => path.relative(process.cwd(), file));
  console.error(
    `\n⚠ A test process died before these files finished, with no test failed: ${files.join(", ")}. Running them again, once.`,
  );
  const again = await run("vitest", ["run", ...files], true);
  if (again.status === 0) console.error(`⚠ They passed on their second run: ${files.join(", ")}.`);
  return again;
}

async function runStep([name, commands], alone) {
  const started = Date.now();
  let output = "";
  for (const [command, args] of commands) {
    if (alone) console.log(`\n▶ ${name}: ${command} ${args.join(" ")}`);
    else output += `▶ ${name}: ${command} ${args.join(" ")}\n`;
    let result = await run(command, args, alone);
    output += result.output;
    if (result.status !== 0 && command === "vitest") result = await runUnfinishedAgain(result);
    if (result.status !== 0) {
      if (!alone) process.stdout.write(`\n${output}`);
      console.error(`\n✖ ${name} failed (${command} exited ${result.status ?? result.signal}).`);
      return result.status || 1;
    }
  }
  if (!alone) process.stdout.write(`\n${output}`);
  times.push([name, seconds(started)]);
  console.log(`✔ ${name} (${seconds(started)} s)`);
  return 0;
}

for (const stage of stages) {
  const steps = stage.filter(wanted);
  if (!steps.length) continue;
  if (steps.length > 1) console.log(`\n▶ at once: ${steps.map(([name]) => name).join(", ")}`);
  const statuses = await Promise.all(steps.map((step) => runStep(step, steps.length === 1)));
  const failed = statuses.find((status) => status !== 0);
  if (failed !== undefined) {
    printTimes();
    process.exit(failed);
  }
}
printTimes();
console.log("\n✔ all checks passed");
