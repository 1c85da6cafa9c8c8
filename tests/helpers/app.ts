import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { loadConfig, type Config } from "../../config/env.ts";
import type { JobQueue } from "../../core/jobs/queue.ts";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import type { Mailer } from "../../core/mail/mailer.ts";
import { createMediaStorage } from "../../core/media/storage.ts";
import { createDb } from "../../db/index.ts";
import { seedDemoData } from "../../db/demo/seed.ts";
import { buildApp, type BuiltApp } from "../../server/app.ts";
import { DATABASE_IMAGE_ENV } from "../setup/database-image.ts";

/** The migrated database the global setup left (tests/setup/database-image.ts), if any. */
function migratedImage(): Blob | undefined {
  const file = process.env[DATABASE_IMAGE_ENV];
  return file && fs.existsSync(file) ? new Blob([fs.readFileSync(file)]) : undefined;
}

export interface TestAppOptions {
  /** Demo content to load: "small" (default), "full" (what `npm start` seeds) or "none". */
  seed?: "small" | "full" | "none";
  /** Serve pages from the production build (built first when stale: see vitest.config.ts). */
  pages?: boolean;
  /** The transport the mail job uses; by default SMTP_URL's server or DATA_DIR/outbox/. */
  mailer?: Mailer;
  now?: () => Date;
  /** Extra environment, e.g. { RATE_LIMIT: "on" } or OAuth issuers. */
  env?: Record<string, string>;
  /**
   * PostgreSQL only: a second server process's app on this app's database (its schema and job
   * queue), seeded by the first; close it before the first, which drops the schemas.
   */
  sameDatabaseAs?: TestApp;
  /** Where the app's log lines go (at LOG_LEVEL, set in `env`); by default there are none. */
  logStream?: { write(line: string): void };
}

export interface TestApp extends BuiltApp {
  config: Config;
  dataDir: string;
  /** DATA_DIR/media: where the folder storage keeps media (empty while they are in a bucket). */
  mediaDir: string;
  /** The app's job queue, running: wait for its jobs with tests/helpers/jobs.ts. */
  jobs: JobQueue;
  /** The pool under the app's database, for tests of the connection itself. */
  pool: pg.Pool;
  /** PostgreSQL: the schema the app's tables are in; undefined on PGlite. */
  schema: string | undefined;
  close(): Promise<void>;
}

/**
 * The app as production builds it, on a fresh database: in-memory PGlite, or — when DATABASE_URL
 * is set — a PostgreSQL schema of its own (and one for its job queue) that are dropped afterwards.
 * Its job queue runs for real. Rate limits are off unless the test turns them on.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-test-"));
  const databaseUrl = process.env.DATABASE_URL;
  const shared = options.sameDatabaseAs;
  if (shared && !shared.schema) throw new Error("sameDatabaseAs needs DATABASE_URL (PostgreSQL)");
  const schema = shared
    ? shared.schema
    : databaseUrl
      ? `test_${randomBytes(6).toString("hex")}`
      : undefined;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    RATE_LIMIT: "off",
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://localhost:3000",
    ...options.env,
  });
  const handle = await createDb({
    databaseUrl: databaseUrl ?? "memory://",
    schema,
    poolSize: 4,
    image: databaseUrl ? undefined : migratedImage(),
  });
  const seed = options.seed ?? "small";
  if (!shared && seed !== "none") {
    // Demo images go where the app keeps media: DATA_DIR/media, or the bucket of S3_BUCKET.
    await seedDemoData(handle.db, { media: createMediaStorage(config), scale: seed });
  }
  const jobsSchema = schema ? `${schema}_jobs` : undefined;
  const jobs = createSiteJobQueue(handle, { schema: jobsSchema });
  const built = await buildApp({
    config,
    db: handle.db,
    jobs,
    mailer: options.mailer,
    now: options.now,
    pages: options.pages ? "build" : false,
    ...(options.logStream ? { logStream: options.logStream } : { logger: false }),
  });
  await jobs.start(built.app.log);
  return {
    ...built,
    config,
    dataDir,
    mediaDir: path.join(dataDir, "media"),
    jobs,
    pool: handle.pool,
    schema,
    async close() {
      await built.app.close();
      await jobs.stop();
      await handle.close();
      if (databaseUrl && schema && !shared) {
        const client = new pg.Client({ connectionString: databaseUrl });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.query(`DROP SCHEMA IF EXISTS "${jobsSchema}" CASCADE`);
        await client.end();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The page of the newest deal on the home page (`POST /api/home`'s first recent card). */
export async function newestDealPath(t: TestApp): Promise<string> {
  const home = (await t.app.inject({ method: "POST", url: "/api/home", payload: {} })).json() as {
    recent_deals: { recent_arr: { unique_id: string; slug: string }[] };
  };
  const deal = home.recent_deals.recent_arr[0]!;
  return `/post/${deal.unique_id}/${deal.slug}`;
}
