import { describe, expect, it } from "vitest";
import {
  CRASH_LOOP_LIMIT,
  RESTART_BACKOFF,
  WorkerRestartPolicy,
  decideAfterExit,
  youngExitsInARow,
  type WorkerExit,
} from "./restart-policy.ts";

const young = (livedMs = 1200): WorkerExit => ({ livedMs, code: 1, signal: null });
const old = (livedMs = RESTART_BACKOFF.stableAfterMs): WorkerExit => ({
  livedMs,
  code: null,
  signal: "SIGKILL",
});

describe("youngExitsInARow", () => {
  it("counts back from the last exit until a worker that lived long", () => {
    expect(youngExitsInARow([])).toBe(0);
    expect(youngExitsInARow([young()])).toBe(1);
    expect(youngExitsInARow([young(), young(), old(), young(), young()])).toBe(2);
    expect(youngExitsInARow([young(), young(), old()])).toBe(0);
  });

  it("takes exactly stableAfterMs of life as long enough", () => {
    expect(youngExitsInARow([old(RESTART_BACKOFF.stableAfterMs)])).toBe(0);
    expect(youngExitsInARow([young(RESTART_BACKOFF.stableAfterMs - 1)])).toBe(1);
  });
});

describe("decideAfterExit", () => {
  it("restarts after the first pause, doubling with each young death in a row", () => {
    const delays: number[] = [];
    const history: WorkerExit[] = [];
    for (let i = 0; i < CRASH_LOOP_LIMIT - 1; i++) {
      history.push(young());
      const decision = decideAfterExit(history);
      expect(decision.action).toBe("restart");
      if (decision.action === "restart") delays.push(decision.delayMs);
    }
    expect(delays).toEqual([500, 1000, 2000, 4000]);
  });

  it(`gives up at the ${CRASH_LOOP_LIMIT}th young death in a row, naming the last exit`, () => {
    const history = [old(), ...Array.from({ length: CRASH_LOOP_LIMIT - 1 }, () => young())];
    const last: WorkerExit = { livedMs: 800, code: null, signal: "SIGSEGV" };
    expect(decideAfterExit([...history, last])).toEqual({
      action: "give-up",
      youngInARow: CRASH_LOOP_LIMIT,
      last,
    });
  });

  it("starts again from the first pause after a worker that had lived long", () => {
    const loop = Array.from({ length: CRASH_LOOP_LIMIT - 1 }, () => young());
    expect(decideAfterExit([...loop, old()])).toEqual({
      action: "restart",
      delayMs: RESTART_BACKOFF.firstMs,
      youngInARow: 0,
    });
    // The young deaths before it no longer count towards giving up.
    expect(decideAfterExit([...loop, old(), young()])).toMatchObject({
      action: "restart",
      youngInARow: 1,
    });
  });

  it("caps the pause at maxMs", () => {
    const limits = { firstMs: 500, maxMs: 3000, stableAfterMs: 30_000, crashLoopLimit: 100 };
    const history = Array.from({ length: 10 }, () => young());
    expect(decideAfterExit(history, limits)).toEqual({
      action: "restart",
      delayMs: 3000,
      youngInARow: 10,
    });
  });

  it("refuses an empty history", () => {
    expect(() => decideAfterExit([])).toThrow(/at least one exit/);
  });
});

describe("WorkerRestartPolicy", () => {
  it("gives up after a crash loop, whichever workers died", () => {
    const policy = new WorkerRestartPolicy();
    const actions = Array.from(
      { length: CRASH_LOOP_LIMIT },
      (_, i) => policy.workerExited({ livedMs: 100 * i, code: 1, signal: null }).action,
    );
    expect(actions).toEqual([...Array(CRASH_LOOP_LIMIT - 1).fill("restart"), "give-up"]);
  });

  it("never gives up on workers that each lived long, however many", () => {
    const policy = new WorkerRestartPolicy();
    for (let i = 0; i < 1000; i++)
      expect(policy.workerExited(old(RESTART_BACKOFF.stableAfterMs + i))).toEqual({
        action: "restart",
        delayMs: RESTART_BACKOFF.firstMs,
        youngInARow: 0,
      });
  });

  it("keeps counting young deaths across a long history (it keeps only what a decision reads)", () => {
    const policy = new WorkerRestartPolicy();
    for (let i = 0; i < 50; i++) policy.workerExited(old());
    for (let i = 0; i < CRASH_LOOP_LIMIT - 1; i++)
      expect(policy.workerExited(young()).action).toBe("restart");
    expect(policy.workerExited(young())).toMatchObject({
      action: "give-up",
      youngInARow: CRASH_LOOP_LIMIT,
    });
  });

  it("uses the limits it is given", () => {
    const policy = new WorkerRestartPolicy({
      firstMs: 10,
      maxMs: 40,
      stableAfterMs: 1000,
      crashLoopLimit: 2,
    });
    expect(policy.workerExited(young(999))).toEqual({
      action: "restart",
      delayMs: 10,
      youngInARow: 1,
    });
    expect(policy.workerExited(young(5)).action).toBe("give-up");
  });
});
