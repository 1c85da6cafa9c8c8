import { describe, expect, it } from "vitest";
import { summarise } from "../setup/unfinished-files-reporter.ts";

type State = "pending" | "queued" | "passed" | "failed" | "skipped";
const module = (moduleId: string, state: State) => ({ moduleId, state: () => state });
const deadWorker = {
  message: "[vitest-pool]: Worker forks emitted error.",
  cause: { message: "Worker exited unexpectedly" },
};

describe("the run summary npm test reads (docs/decisions/0102)", () => {
  it("names the files whose process died, when nothing else went wrong", () => {
    expect(
      summarise(
        [
          module("/a.test.ts", "pending"),
          module("/b.test.ts", "passed"),
          module("/c.test.ts", "skipped"),
        ],
        [deadWorker],
      ),
    ).toEqual({ unfinished: ["/a.test.ts"], otherFailures: false });
  });

  it("says so when a file failed or another error was caught, so that nothing runs again", () => {
    expect(
      summarise([module("/a.test.ts", "pending"), module("/b.test.ts", "failed")], [deadWorker]),
    ).toEqual({ unfinished: ["/a.test.ts"], otherFailures: true });
    expect(
      summarise(
        [module("/a.test.ts", "pending")],
        [deadWorker, { message: "Unhandled rejection" }],
      ),
    ).toEqual({ unfinished: ["/a.test.ts"], otherFailures: true });
  });
});
