/**
 * When the primary of several server processes (server/cluster.ts) starts a worker again after one
 * exits unexpectedly, and when it stops trying (docs/decisions/0053-worker-crash-loop.md).
 * Pure: it reads the history of exits and answers; the primary does the waiting and the forking.
 */

/** The first restart waits this long; each further one in a row twice as long, up to the cap. */
export const RESTART_BACKOFF = { firstMs: 500, maxMs: 30_000, stableAfterMs: 30_000 };

/**
 * This many workers in a row that died young (before RESTART_BACKOFF.stableAfterMs) is a crash
 * loop that restarting will not mend (a port taken, a broken build, a database that refuses): the
 * primary gives up and exits 1, so that its supervisor sees the failure and acts.
 */
export const CRASH_LOOP_LIMIT = 5;

export interface WorkerExit {
  /** From fork to exit. */
  livedMs: number;
  code: number | null;
  signal: string | null;
}

export type RestartDecision =
  | { action: "restart"; delayMs: number; youngInARow: number }
  | { action: "give-up"; youngInARow: number; last: WorkerExit };

export interface RestartLimits {
  firstMs: number;
  maxMs: number;
  stableAfterMs: number;
  crashLoopLimit: number;
}

const defaultLimits: RestartLimits = { ...RESTART_BACKOFF, crashLoopLimit: CRASH_LOOP_LIMIT };

/** How many of the latest exits, counted back from the last, were of workers that died young. */
export function youngExitsInARow(
  history: readonly WorkerExit[],
  stableAfterMs = RESTART_BACKOFF.stableAfterMs,
): number {
  let count = 0;
  for (let i = history.length - 1; i >= 0 && history[i]!.livedMs < stableAfterMs; i--) count++;
  return count;
}

/**
 * What to do after the last exit of `history` (oldest first): start another worker after a pause
 * that doubles with each young death in a row (a worker that had lived long resets it), or give up
 * once `crashLoopLimit` workers in a row died young.
 */
export function decideAfterExit(
  history: readonly WorkerExit[],
  limits: RestartLimits = defaultLimits,
): RestartDecision {
  const last = history.at(-1);
  if (!last) throw new Error("decideAfterExit needs at least one exit");
  const youngInARow = youngExitsInARow(history, limits.stableAfterMs);
  if (youngInARow >= limits.crashLoopLimit) return { action: "give-up", youngInARow, last };
  const doublings = Math.max(0, youngInARow - 1);
  const delayMs = Math.min(limits.maxMs, limits.firstMs * 2 ** doublings);
  return { action: "restart", delayMs, youngInARow };
}

/** The primary's record of exits: keeps only as many as a decision reads. */
export class WorkerRestartPolicy {
  private readonly history: WorkerExit[] = [];

  constructor(private readonly limits: RestartLimits = defaultLimits) {}

  workerExited(exit: WorkerExit): RestartDecision {
    this.history.push(exit);
    if (this.history.length > this.limits.crashLoopLimit) this.history.shift();
    return decideAfterExit(this.history, this.limits);
  }
}
