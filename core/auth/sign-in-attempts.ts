import { createHash } from "node:crypto";
import type { DbOrTx } from "../../db/index.ts";

/**
 * Guessing limits per account (docs/decisions/0073-sign-in-guessing-limits.md): failed sign-ins
 * are counted per normalised address in the database (migration 029), whatever the client's
 * address, so every process and host sees the same count. After a few failures each further
 * attempt waits a growing delay, then the address is locked for a while. Limits per client address
 * are @fastify/rate-limit's (server/plugins/rate-limit.ts).
 */
export const SIGN_IN_LIMITS = {
  /** Failures after which each further attempt waits (the fifth failure's delay is the first). */
  slowAfter: 5,
  /** The first delay; it doubles with every further failure (15 s, 30 s, 1, 2 and 4 minutes). */
  firstDelayMs: 15_000,
  /** Failures that lock the address... */
  lockAfter: 10,
  /** ...for this long; then the count starts again. */
  lockMs: 15 * 60_000,
  /** Failures this old (with no lock in force) are forgotten. */
  forgetAfterMs: 60 * 60_000,
} as const;

/** One address's failures as stored. */
export interface AttemptState {
  failures: number;
  last_failure_at: Date;
  retry_at: Date | null;
  lock_mailed_at: Date | null;
}

/** The key of an address: SHA-256 of it trimmed and lower-cased (users.email matches lower()). */
export function signInKey(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

/** Whole seconds until an attempt is checked again, or 0 when one may be made now. */
export function secondsToWait(state: AttemptState | undefined, now: Date): number {
  const wait = (state?.retry_at?.getTime() ?? 0) - now.getTime();
  return wait > 0 ? Math.ceil(wait / 1000) : 0;
}

/** Whether the stored failures no longer count: a lock that has ended, or old failures. */
function isSpent(state: AttemptState, now: Date): boolean {
  const { lockAfter, forgetAfterMs } = SIGN_IN_LIMITS;
  return (
    state.failures >= lockAfter || now.getTime() - state.last_failure_at.getTime() > forgetAfterMs
  );
}

/** The state after one more failure at `now` (when no wait is in force). */
export function afterFailure(state: AttemptState | undefined, now: Date): AttemptState {
  const { slowAfter, firstDelayMs, lockAfter, lockMs } = SIGN_IN_LIMITS;
  const fresh = !state || isSpent(state, now);
  const failures = (fresh ? 0 : state.failures) + 1;
  const delayMs =
    failures >= lockAfter
      ? lockMs
      : failures >= slowAfter
        ? firstDelayMs * 2 ** (failures - slowAfter)
        : 0;
  return {
    failures,
    last_failure_at: now,
    retry_at: delayMs ? new Date(now.getTime() + delayMs) : null,
    lock_mailed_at: fresh ? null : state.lock_mailed_at,
  };
}

/** Whether `state` is a lock (rather than a delay); its end is `retry_at`. */
export function isLock(state: AttemptState): boolean {
  return state.failures >= SIGN_IN_LIMITS.lockAfter;
}

/** An attempt counted before its proof is checked, or the wait that refused it. */
export type Attempt =
  | { refused: true; retryAfterSeconds: number }
  | { refused: false; key: string; state: AttemptState };

/**
 * Counts one attempt on `key` as a failure before its password is checked, in `tx`, with the row
 * locked: two attempts at once cannot both pass a count that allows one more. An attempt while a
 * wait is in force is refused and not counted (so waiting is never prolonged). A right password
 * then clears the count (`clearFailures`).
 */
export async function countAttempt(tx: DbOrTx, key: string, clock: () => Date): Promise<Attempt> {
  await tx
    .insertInto("sign_in_attempts")
    .values({ address_hash: key, failures: 0, last_failure_at: clock() })
    .onConflict((oc) => oc.column("address_hash").doNothing())
    .execute();
  const current = await tx
    .selectFrom("sign_in_attempts")
    .select(["failures", "last_failure_at", "retry_at", "lock_mailed_at"])
    .where("address_hash", "=", key)
    .forUpdate()
    .executeTakeFirstOrThrow();
  // The time once the row is this attempt's: one that queued behind another's lock measures its
  // wait from the failure that set it, never from before (tests/integration/sign-in-limits.test.ts).
  const now = clock();
  const wait = secondsToWait(current, now);
  if (wait > 0) return { refused: true, retryAfterSeconds: wait };
  const state = afterFailure(current.failures === 0 ? undefined : current, now);
  await tx.updateTable("sign_in_attempts").set(state).where("address_hash", "=", key).execute();
  return { refused: false, key, state };
}

/** The wait in force on `key`, in seconds (0: none), without counting anything. */
export async function waitOn(db: DbOrTx, key: string, now: Date): Promise<number> {
  const row = await db
    .selectFrom("sign_in_attempts")
    .select(["failures", "last_failure_at", "retry_at", "lock_mailed_at"])
    .where("address_hash", "=", key)
    .executeTakeFirst();
  return secondsToWait(row, now);
}

/** A right password, or a password reset: the address's failures are forgotten. */
export async function clearFailures(db: DbOrTx, key: string): Promise<void> {
  await db.deleteFrom("sign_in_attempts").where("address_hash", "=", key).execute();
}

/**
 * Marks the lock that ends at `lockEnd` as told by mail; true only for the first caller, so the
 * member gets one mail per lock even when several processes see it start. Call it in the
 * transaction that queues the mail.
 */
export async function claimLockNotice(
  tx: DbOrTx,
  key: string,
  lockEnd: Date,
  now: Date,
): Promise<boolean> {
  const row = await tx
    .updateTable("sign_in_attempts")
    .set({ lock_mailed_at: now })
    .where("address_hash", "=", key)
    .where("retry_at", "=", lockEnd)
    .where("failures", ">=", SIGN_IN_LIMITS.lockAfter)
    .where("lock_mailed_at", "is", null)
    .returning("address_hash")
    .executeTakeFirst();
  return row !== undefined;
}

/** Deletes rows whose failures no longer count and whose wait is over (the nightly sweep). */
export async function deleteSpentAttempts(db: DbOrTx, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("sign_in_attempts")
    .where("last_failure_at", "<", new Date(now.getTime() - SIGN_IN_LIMITS.forgetAfterMs))
    .where((eb) => eb.or([eb("retry_at", "is", null), eb("retry_at", "<=", now)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
