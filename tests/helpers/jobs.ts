import type { JobKind } from "../../core/jobs/job.ts";
import type { JobQueue, UnfinishedJob } from "../../core/jobs/queue.ts";

/**
 * Waits until the queue has no unfinished job (of `kind`, or of any kind): every job sent so far
 * has run to the end, retries included. Fails after `timeoutMs`, naming what is still waiting.
 */
export async function waitForJobs(
  jobs: JobQueue,
  options: { kind?: JobKind<object>; timeoutMs?: number } = {},
): Promise<void> {
  await waitForJobState(jobs, (left) => left.length === 0, {
    ...options,
    what: "every job to finish",
  });
}

/**
 * Waits until the queue's unfinished jobs (of `kind`, or of any kind) satisfy `condition`, e.g. a
 * mail job that failed once and waits to be retried.
 */
export async function waitForJobState(
  jobs: JobQueue,
  condition: (unfinished: UnfinishedJob[]) => boolean,
  options: { kind?: JobKind<object>; timeoutMs?: number; what?: string } = {},
): Promise<UnfinishedJob[]> {
  const { kind, timeoutMs = 20_000, what = "the jobs' state" } = options;
  if (!jobs.working) {
    throw new Error(
      `waiting for ${what}, but this app works no jobs: createTestApp({ jobs: true })`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const unfinished = await jobs.unfinished(kind);
    if (condition(unfinished)) return unfinished;
    if (Date.now() > deadline) {
      const left = unfinished.map((j) => `${j.kind} ${j.state} (${j.attempts} attempts)`);
      throw new Error(
        `waited ${timeoutMs} ms for ${what}; unfinished: ${left.join(", ") || "none"}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
