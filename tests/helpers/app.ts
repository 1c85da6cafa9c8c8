import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import type pg from "pg";
import { loadConfig, type Config } from "../../config/env.ts";
import type { JobQueue } from "../../core/jobs/queue.ts";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import type { Mailer } from "../../core/mail/mailer.ts";
import {
  createMediaStorage,
  mediaContentType,
  type MediaStorage,
} from "../../core/media/storage.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import type { DatabaseReadiness } from "../../db/readiness.ts";
import { seedDemoData } from "../../db/demo/seed.ts";
import { buildApp, type BuiltApp } from "../../server/app.ts";
import { DEMO_IMAGE_CACHE } from "../setup/demo-images.ts";
import {
  WORLD_JOBS_SCHEMA,
  WORLD_SCHEMA,
  databaseUrlFor,
  onServer,
  testWorld,
  type TestWorld,
} from "../setup/test-world.ts";

/** Copies the world's demo images into the app's media storage (a folder, or a bucket). */
async function copyDemoImages(world: TestWorld, media: MediaStorage): Promise<void> {
  const dir = path.join(world.media, "demo");
  for (const name of await fs.promises.readdir(dir)) {
    const bytes = await fs.promises.readFile(path.join(dir, name));
    await media.put(`demo/${name}`, bytes, mediaContentType(name));
  }
}

/** An app's database, and how to drop it when the app closes. */
interface AppDatabase {
  handle: DbHandle;
  /** PostgreSQL: its URL. */
  databaseUrl?: string;
  drop(): Promise<void>;
}

/**
 * The app's database: a copy of one of the world's (tests/setup/test-world.ts), in memory or, on
 * PostgreSQL (`serverUrl`), a database of the server made from the world's as a template; or the
 * database of `shared`, which that app drops.
 */
async function openDatabase(
  world: TestWorld,
  which: "migrated" | "small",
  serverUrl: string | undefined,
  shared: TestApp | undefined,
): Promise<AppDatabase> {
  const open = (databaseUrl: string) =>
    createDb({ databaseUrl, schema: WORLD_SCHEMA, poolSize: 4 });
  if (shared) {
    if (!shared.databaseUrl) throw new Error("sameDatabaseAs needs DATABASE_URL (PostgreSQL)");
    const { databaseUrl } = shared;
    return { handle: await open(databaseUrl), databaseUrl, drop: async () => {} };
  }
  if (!serverUrl) {
    const image = new Blob([await fs.promises.readFile(world[which])]);
    const handle = await createDb({ databaseUrl: "memory://", poolSize: 4, image });
    return { handle, drop: async () => {} };
  }
  const database = `${world.prefix}_app_${randomBytes(6).toString("hex")}`;
  await onServer(serverUrl, [`CREATE DATABASE "${database}" TEMPLATE "${world[which]}"`]);
  const databaseUrl = databaseUrlFor(serverUrl, database);
  return {
    handle: await open(databaseUrl),
    databaseUrl,
    drop: () => onServer(serverUrl, [`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`]),
  };
}

export interface TestAppOptions {
  /** Demo content to load: "small" (default), "full" (what `npm start` seeds) or "none". */
  seed?: "small" | "full" | "none";
  /**
   * Work the queue's jobs, as the server does (its workers poll, cron jobs are added): for tests
   * that wait for a job, a mail or a sweep. Without it jobs are queued and never run.
   */
  jobs?: boolean;
  /** Serve pages from the production build (built first when stale: see vitest.config.ts). */
  pages?: boolean;
  /** The transport the mail job uses; by default SMTP_URL's server or DATA_DIR/outbox/. */
  mailer?: Mailer;
  now?: () => Date;
  /**
   * Extra environment, e.g. { RATE_LIMIT: "on" } or OAuth issuers. A DATABASE_URL here (the
   * PostgreSQL paths of rate limits and change notices) is made the app's own database's URL.
   */
  env?: Record<string, string>;
  /**
   * PostgreSQL only: a second server process's app on this app's database (its tables and job
   * queue); close it before the first, which drops the database.
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
  /**
   * The app's job queue, started: jobs are worked only with the `jobs` option (wait for them with
   * tests/helpers/jobs.ts).
   */
  jobs: JobQueue;
  /** The pool under the app's database, for tests of the connection itself. */
  pool: pg.Pool;
  /** What /readyz asks of the database (db/readiness.ts). */
  readiness: DatabaseReadiness;
  /** PostgreSQL: the app's own database (a copy of the world's); undefined on PGlite. */
  databaseUrl: string | undefined;
  /** PostgreSQL: the schema the app's tables are in; undefined on PGlite. */
  schema: string | undefined;
  close(): Promise<void>;
}

/**
 * The app as production builds it, on a database of its own: in-memory PGlite, or — when
 * DATABASE_URL is set — a PostgreSQL database that is dropped afterwards. Either is a copy of the
 * test world's (tests/setup/test-world.ts): migrated, the job queue installed, and for the default
 * `seed: "small"` the demo content and its images. Its job queue is real; it works jobs only with
 * `jobs: true`. Rate limits are off unless the test turns them on.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const world = testWorld();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-test-"));
  const serverUrl = process.env.DATABASE_URL;
  const shared = options.sameDatabaseAs;
  const seed = options.seed ?? "small";
  const database = await openDatabase(
    world,
    seed === "small" ? "small" : "migrated",
    serverUrl,
    shared,
  );
  const { handle } = database;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    RATE_LIMIT: "off",
    LOG_LEVEL: "silent",
    PUBLIC_URL: "http://localhost:3000",
    ...options.env,
    // The server the test named holds the app's own database: that is the one its processes share.
    ...(options.env?.DATABASE_URL && database.databaseUrl
      ? { DATABASE_URL: database.databaseUrl }
      : {}),
  });
  // Demo images go where the app keeps media: DATA_DIR/media, or the bucket of S3_BUCKET.
  const media = createMediaStorage(config);
  if (!shared && seed === "small") await copyDemoImages(world, media);
  if (!shared && seed === "full") {
    await seedDemoData(handle.db, { media, scale: "full", imageCache: DEMO_IMAGE_CACHE });
  }
  const jobs = createSiteJobQueue(handle, {
    schema: serverUrl ? WORLD_JOBS_SCHEMA : undefined,
    work: options.jobs ?? false,
  });
  const built = await buildApp({
    config,
    db: handle.db,
    readiness: handle.readiness,
    jobs,
    pool: handle.pool,
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
    readiness: handle.readiness,
    databaseUrl: database.databaseUrl,
    schema: serverUrl ? WORLD_SCHEMA : undefined,
    async close() {
      await built.app.close();
      await jobs.stop();
      await handle.close();
      await database.drop();
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
