/**
 * One kind of background job: the queue its jobs wait in and how a failed attempt is retried.
 * The type parameter is the job's data, which is stored as JSON.
 */
export interface JobKind<Data extends object> {
  /** The queue's name: letters, digits, `.`, `-`, `_`. */
  readonly name: string;
  /** How many times a failed job is tried again before it is given up as failed. */
  readonly retryLimit: number;
  /** The first retry waits about this long; each further one about twice as long as the last. */
  readonly retryDelaySeconds: number;
  /** No wait between retries is longer than this. */
  readonly retryDelayMaxSeconds: number;
  /** An attempt that runs longer than this counts as failed (and its process as gone). */
  readonly timeoutSeconds: number;
  /** How long a finished job stays in the table (to look into); then it is deleted. */
  readonly keepSeconds: number;
  /** How often an idle worker of this process looks for new jobs. */
  readonly pollSeconds: number;
  /** A cron expression (UTC): the queue adds one job per occurrence, across all processes. */
  readonly cron?: string;
  /** Only for the type checker: the data's type. */
  readonly data?: Data;
}

const DEFAULTS = {
  retryLimit: 10,
  retryDelaySeconds: 5,
  retryDelayMaxSeconds: 3600,
  timeoutSeconds: 15 * 60,
  keepSeconds: 24 * 3600,
  pollSeconds: 2,
};

export function defineJob<Data extends object>(
  kind: Pick<JobKind<Data>, "name"> & Partial<Omit<JobKind<Data>, "name" | "data">>,
): JobKind<Data> {
  return { ...DEFAULTS, ...kind };
}

/**
 * The shortest wait before the retry that follows a failed `attempt` (1 for the first): pg-boss's
 * backoff waits between one and two times retryDelay·2^(attempt−1), and never more than
 * retryDelayMax (core/jobs/queue.ts sets retryBackoff).
 */
export function shortestRetryDelaySeconds(kind: JobKind<object>, attempt: number): number {
  return Math.min(kind.retryDelayMaxSeconds, kind.retryDelaySeconds * 2 ** (attempt - 1));
}
