import { dealExpiryJob } from "../../core/posts/expiry/sweep.ts";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineJob } from "../../core/jobs/job.ts";
import { createJobQueue, type JobQueue } from "../../core/jobs/queue.ts";
import { JOB_KINDS } from "../../core/jobs/site-jobs.ts";
import { EXPIRED_CODE_GRACE_MS, sweepExpiredJob } from "../../core/jobs/sweeps.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { waitForJobState, waitForJobs } from "../helpers/jobs.ts";
import { createTestUser } from "../helpers/users.ts";

/*
 * The queue itself, run for real on this file's own database: a PGlite folder (so it can be closed
 * and opened again, as a restarted server does), or a PostgreSQL schema when DATABASE_URL is set.
 */

const databaseUrl = process.env.DATABASE_URL;
const tag = randomBytes(5).toString("hex");
const schema = databaseUrl ? `test_jobs_${tag}` : undefined;
const jobsSchema = `jobs_${tag}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-jobs-"));
const errors: unknown[] = [];
const log = { warn: () => {}, error: (error: unknown) => void errors.push(error) };

const open: { handle: DbHandle; queues: JobQueue[] }[] = [];

/** A database connection as one server process has it; with PGlite there is only ever one. */
async function openDatabase() {
  const handle = databaseUrl
    ? await createDb({ databaseUrl, schema, poolSize: 4 })
    : await createDb({ dataDir });
  const entry = { handle, queues: [] as JobQueue[] };
  open.push(entry);
  return entry;
}

async function closeDatabase(entry: { handle: DbHandle; queues: JobQueue[] }) {
  for (const queue of entry.queues) await queue.stop();
  await entry.handle.close();
  open.splice(open.indexOf(entry), 1);
}

let pgliteEntry: { handle: DbHandle; queues: JobQueue[] } | undefined;
/** With PGlite, every "process" of a test shares the one open database (a folder has one owner). */
async function database() {
  if (databaseUrl) return openDatabase();
  pgliteEntry ??= await openDatabase();
  return pgliteEntry;
}

async function startQueue(
  entry: { handle: DbHandle; queues: JobQueue[] },
  kinds: Parameters<typeof createJobQueue>[1]["kinds"],
) {
  const queue = createJobQueue(entry.handle, { kinds, schema: jobsSchema });
  entry.queues.push(queue);
  await queue.start(log);
  return queue;
}

afterAll(async () => {
  for (const entry of [...open]) await closeDatabase(entry);
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.query(`DROP SCHEMA IF EXISTS "${jobsSchema}" CASCADE`);
    await client.end();
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  expect(errors).toEqual([]);
});

describe("the job queue", () => {
  it("keeps a job across a restart: sent before, worked after", async () => {
    const kind = defineJob<{ greeting: string }>({ name: "test.restart", pollSeconds: 0.5 });
    if (pgliteEntry) await closeDatabase(pgliteEntry);
    pgliteEntry = undefined;

    const before = await openDatabase();
    const sender = await startQueue(before, [kind]);
    await sender.send(kind, { greeting: "still here" });
    await closeDatabase(before);

    const after = await openDatabase();
    if (!databaseUrl) pgliteEntry = after;
    const worked: string[] = [];
    const worker = await startQueue(after, [kind]);
    await worker.work(kind, async (data) => void worked.push(data.greeting));
    await waitForJobs(worker, { kind });
    expect(worked).toEqual(["still here"]);
  }, 120_000);

  it("retries a failing job, waiting longer each time", async () => {
    const kind = defineJob<{ n: number }>({
      name: "test.flaky",
      retryDelaySeconds: 1,
      retryLimit: 3,
      pollSeconds: 0.5,
    });
    const queue = await startQueue(await database(), [kind]);
    const attempts: { attempt: number; at: number }[] = [];
    await queue.work(kind, async (_data, { attempt }) => {
      attempts.push({ attempt, at: Date.now() });
      if (attempt < 3) throw new Error(`attempt ${attempt} fails`);
    });
    await queue.send(kind, { n: 1 });
    await waitForJobs(queue, { kind, timeoutMs: 30_000 });
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // Backoff: the first retry waits at least retryDelaySeconds, the second at least twice that.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(1000);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(2000);
  });

  it("runs each job once when several processes work the same queue", async () => {
    const kind = defineJob<{ n: number }>({ name: "test.shared", pollSeconds: 0.5 });
    const runs = new Map<number, string[]>();
    const queues = await Promise.all(
      ["a", "b", "c"].map(async (name) => {
        const queue = await startQueue(await database(), [kind]);
        await queue.work(kind, async ({ n }) => {
          runs.set(n, [...(runs.get(n) ?? []), name]);
        });
        return queue;
      }),
    );
    for (let n = 0; n < 30; n++) await queues[n % 3]!.send(kind, { n });
    await waitForJobs(queues[0]!, { kind, timeoutMs: 60_000 });
    expect([...runs.keys()].sort((a, b) => a - b)).toEqual([...Array(30).keys()]);
    expect([...runs.values()].every((workers) => workers.length === 1)).toBe(true);
  });

  it("adds a job sent in a transaction only when the transaction commits", async () => {
    const kind = defineJob<{ n: number }>({ name: "test.transactional" });
    const entry = await database();
    const queue = await startQueue(entry, [kind]); // nobody works it: the jobs stay to be seen
    await expect(
      entry.handle.db.transaction().execute(async (tx) => {
        await queue.send(kind, { n: 1 }, tx);
        throw new Error("the write fails");
      }),
    ).rejects.toThrow("the write fails");
    expect(await queue.unfinished(kind)).toEqual([]);

    await entry.handle.db.transaction().execute((tx) => queue.send(kind, { n: 2 }, tx));
    expect(await queue.unfinished(kind)).toMatchObject([{ kind: kind.name, state: "created" }]);
  });

  it("with `work: false`, takes jobs and runs none, its handlers waiting for a working process", async () => {
    const kind = defineJob<{ n: number }>({ name: "test.not-working", pollSeconds: 0.5 });
    const entry = await database();
    const idle = createJobQueue(entry.handle, { kinds: [kind], schema: jobsSchema, work: false });
    entry.queues.push(idle);
    await idle.start(log);
    expect(idle.working).toBe(false);
    const ran: number[] = [];
    await idle.work(kind, async ({ n }) => void ran.push(n));
    await idle.send(kind, { n: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // three of its polls, were it polling
    expect(ran).toEqual([]);
    expect(await idle.unfinished(kind)).toMatchObject([{ state: "created" }]);

    const worker = await startQueue(entry, [kind]);
    const worked: number[] = [];
    await worker.work(kind, async ({ n }) => void worked.push(n));
    await waitForJobs(worker, { kind });
    expect(worked).toEqual([1]);
    expect(ran).toEqual([]);
  });

  it("finishes a running job when it stops, and hands back one that outlasts the wait", async () => {
    const kind = defineJob<{ n: number }>({ name: "test.stopping", pollSeconds: 0.5 });
    const entry = await database();
    const observer = await startQueue(entry, [kind]);

    // A job that finishes within the wait completes.
    const stopping = createJobQueue(entry.handle, { kinds: [kind], schema: jobsSchema });
    entry.queues.push(stopping);
    await stopping.start(log);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const finished: number[] = [];
    await stopping.work(kind, async ({ n }) => {
      await released;
      finished.push(n);
    });
    await stopping.send(kind, { n: 1 });
    await waitForJobState(observer, (jobs) => jobs.some((j) => j.state === "active"), { kind });
    const stopped = stopping.stop({ timeoutMs: 10_000 });
    release();
    await stopped;
    expect(finished).toEqual([1]);
    expect(await observer.unfinished(kind)).toEqual([]);

    // A job still running when the wait is over is handed back, and another process retries it.
    const slow = createJobQueue(entry.handle, { kinds: [kind], schema: jobsSchema });
    entry.queues.push(slow);
    await slow.start(log);
    await slow.work(kind, ({ n }, { signal }) => {
      void n;
      return new Promise<void>((_resolve, reject) =>
        signal.addEventListener("abort", () => reject(new Error("stopped"))),
      );
    });
    await slow.send(kind, { n: 2 });
    await waitForJobState(observer, (jobs) => jobs.some((j) => j.state === "active"), { kind });
    await slow.stop({ timeoutMs: 1000 });
    expect(await observer.unfinished(kind)).toMatchObject([{ state: "retry", attempts: 1 }]);

    const retried: number[] = [];
    await observer.work(kind, async ({ n }) => void retried.push(n));
    await waitForJobs(observer, { kind, timeoutMs: 30_000 });
    expect(retried).toEqual([2]);
  });
});

describe("the site's jobs", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: "none", jobs: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("schedules the nightly sweep, and every other kind with a cron, with the queue's own cron", async () => {
    const scheduled = JOB_KINDS.filter((kind) => kind.cron);
    expect(scheduled).toContain(sweepExpiredJob);
    // The minute sweep of deals' expiry (core/posts/expiry/sweep.ts).
    expect(scheduled).toContain(dealExpiryJob);
    const byKind = (a: { kind: string }, b: { kind: string }) => a.kind.localeCompare(b.kind);
    expect((await t.jobs.schedules()).sort(byKind)).toEqual(
      scheduled.map((kind) => ({ kind: kind.name, cron: kind.cron, timezone: "UTC" })).sort(byKind),
    );
  });

  it("sweeps expired sessions and long-expired link codes, and keeps the rest", async () => {
    const userId = await createTestUser(t.deps.db);
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    await t.deps.db
      .insertInto("sessions")
      .values([
        { user_id: userId, token_hash: `expired-${tag}`, expires_at: new Date(now - 1000) },
        { user_id: userId, token_hash: `live-${tag}`, expires_at: new Date(now + day) },
      ])
      .execute();
    await t.deps.db
      .insertInto("email_tokens")
      .values([
        {
          user_id: userId,
          purpose: "confirm",
          token_hash: `old-${tag}`,
          expires_at: new Date(now - EXPIRED_CODE_GRACE_MS - day),
        },
        {
          user_id: userId,
          purpose: "reset",
          token_hash: `recent-${tag}`,
          expires_at: new Date(now - day),
        },
      ])
      .execute();

    await t.jobs.send(sweepExpiredJob, {});
    await waitForJobs(t.jobs, { kind: sweepExpiredJob });

    const sessions = await t.deps.db.selectFrom("sessions").select("token_hash").execute();
    expect(sessions.map((s) => s.token_hash)).toEqual([`live-${tag}`]);
    const codes = await t.deps.db.selectFrom("email_tokens").select("token_hash").execute();
    expect(codes.map((c) => c.token_hash)).toEqual([`recent-${tag}`]);
  });
});
