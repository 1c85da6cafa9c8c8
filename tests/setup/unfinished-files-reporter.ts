import fs from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/**
 * A Vitest reporter for `npm test` (scripts/test.mjs, docs/decisions/0102): at the end of a run it
 * writes, to the file VITEST_RUN_SUMMARY names, the test files that never finished and whether
 * anything else went wrong. A file never finishes when the process running it dies (Vitest then
 * says "Worker exited unexpectedly"): npm test runs such files once more, alone, and passes only
 * if they pass. Without VITEST_RUN_SUMMARY it writes nothing.
 */

/** What the summary file holds. */
export interface RunSummary {
  /** Test files whose process died before they finished. */
  unfinished: string[];
  /** Whether any test or file failed, or an error other than a dead worker was caught. */
  otherFailures: boolean;
}

/** The pool's error when a test file's process dies, and its cause. */
const DEAD_WORKER = /Worker (exited unexpectedly|\w+ emitted error)/;

interface CaughtError {
  message?: string;
  cause?: { message?: string };
}

export function summarise(
  modules: ReadonlyArray<Pick<TestModule, "moduleId" | "state">>,
  errors: ReadonlyArray<CaughtError>,
): RunSummary {
  const unfinished = modules
    .filter((module) => ["pending", "queued"].includes(module.state()))
    .map((module) => module.moduleId);
  const failedFiles = modules.some((module) => module.state() === "failed");
  const otherErrors = errors.some(
    (error) => !DEAD_WORKER.test(`${error.message ?? ""} ${error.cause?.message ?? ""}`),
  );
  return { unfinished, otherFailures: failedFiles || otherErrors };
}

export default class UnfinishedFilesReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>): void {
    const file = process.env.VITEST_RUN_SUMMARY;
    if (!file) return;
    fs.writeFileSync(file, JSON.stringify(summarise(modules, errors as CaughtError[])));
  }
}
