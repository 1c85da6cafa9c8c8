import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { createFolderStorage } from "../../core/media/storage.ts";
import { seedDemoData } from "../../db/demo/seed.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { DEMO_IMAGE_CACHE } from "./demo-images.ts";

/**
 * The test world: what every test app starts from, built once per run by Vitest's global setup
 * (docs/decisions/0077) instead of once per test file. Two databases, each with the job queue's
 * tables installed: `migrated` (empty, for `seed: "none"`) and `small` (the "small" demo content,
 * dated by the clock when the run began), and the small demo content's images.
 *
 * - PGlite: each database is an image file (`dumpImage`); an app's in-memory database starts
 *   from it (`createDb({ image })`).
 * - PostgreSQL (DATABASE_URL): each is a database of the server; an app's database is made from
 *   it with CREATE DATABASE … TEMPLATE, a copy of its files, and dropped when the app closes.
 */
export interface TestWorld {
  engine: "pglite" | "postgres";
  /** The empty database: an image file (PGlite) or a database's name (PostgreSQL). */
  migrated: string;
  /** The one with the small demo content, the same way. */
  small: string;
  /** A media folder holding the small content's images (demo/). */
  media: string;
  /**
   * PostgreSQL: the name every database of this run begins with (the world's and the apps'), so
   * the run's end drops those a test left behind, and no other run's.
   */
  prefix: string;
}

/** Where test processes find the world (JSON of TestWorld), set by the global setup. */
export const TEST_WORLD_ENV = "TEST_WORLD";

/** The schemas of the site's tables and of its job queue, in every PostgreSQL test database. */
export const WORLD_SCHEMA = "site";
export const WORLD_JOBS_SCHEMA = "site_jobs";

/** The world of this run, as the global setup left it. */
export function testWorld(): TestWorld {
  const value = process.env[TEST_WORLD_ENV];
  if (!value) {
    throw new Error(
      "No test world: test apps are made from the one tests/setup/test-world.ts builds as Vitest's global setup (run the tests with vitest).",
    );
  }
  return JSON.parse(value) as TestWorld;
}

/** `url` with its database replaced by `database`. */
export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Runs SQL on a connection of its own to `url`'s database (CREATE and DROP DATABASE need one). */
export async function onServer(url: string, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Drops every database whose name begins with `prefix_`: the world's, and any an app left. */
async function dropDatabases(url: string, prefix: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      "SELECT datname FROM pg_database WHERE starts_with(datname, $1)",
      [`${prefix}_`],
    );
    for (const { datname } of rows) {
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    }
  } finally {
    await client.end();
  }
}

/**
 * A deal of the small content must not end while the run lasts: the world is seeded once, at
 * the start, and no sweep runs in apps without workers. The soonest end is more than a day after
 * the seed (db/demo/plan.ts); this keeps it so.
 */
const STEADY_FOR_MS = 3 * 3600_000;

async function assertSteady(handle: DbHandle, seededAt: Date): Promise<void> {
  const next = await handle.db
    .selectFrom("posts")
    .select((eb) => eb.fn.min("expires_at").as("at"))
    .where("expires_at", ">", seededAt)
    .executeTakeFirst();
  if (next?.at && new Date(next.at).getTime() - seededAt.getTime() < STEADY_FOR_MS) {
    throw new Error(
      `The small demo content has a deal that ends at ${new Date(next.at).toISOString()}, within ${STEADY_FOR_MS / 3600_000} hours of its seed: tests made from the world would see it end midway (db/demo/plan.ts).`,
    );
  }
}

/** Installs the job queue's tables and queues, working nothing. */
async function installJobQueue(handle: DbHandle, schema?: string): Promise<void> {
  const jobs = createSiteJobQueue(handle, { schema, work: false });
  await jobs.start(console);
  await jobs.stop();
}

async function seedSmall(handle: DbHandle, mediaDir: string): Promise<void> {
  const seededAt = new Date();
  await seedDemoData(handle.db, {
    media: createFolderStorage(mediaDir),
    scale: "small",
    now: seededAt,
    imageCache: DEMO_IMAGE_CACHE,
  });
  await assertSteady(handle, seededAt);
}

async function pgliteWorld(dir: string, prefix: string): Promise<TestWorld> {
  const media = path.join(dir, "media");
  const handle = await createDb({ databaseUrl: "memory://" });
  try {
    await installJobQueue(handle);
    const migrated = path.join(dir, "migrated.tar");
    fs.writeFileSync(migrated, Buffer.from(await (await handle.dumpImage!()).arrayBuffer()));
    await seedSmall(handle, media);
    const small = path.join(dir, "small.tar");
    fs.writeFileSync(small, Buffer.from(await (await handle.dumpImage!()).arrayBuffer()));
    return { engine: "pglite", migrated, small, media, prefix };
  } finally {
    await handle.close();
  }
}

async function postgresWorld(url: string, dir: string, prefix: string): Promise<TestWorld> {
  const media = path.join(dir, "media");
  const migrated = `${prefix}_world_migrated`;
  const small = `${prefix}_world_small`;
  await onServer(url, [`CREATE DATABASE "${migrated}"`]);
  const open = (database: string) =>
    createDb({ databaseUrl: databaseUrlFor(url, database), schema: WORLD_SCHEMA, poolSize: 2 });
  let handle = await open(migrated);
  try {
    await installJobQueue(handle, WORLD_JOBS_SCHEMA);
  } finally {
    await handle.close();
  }
  await onServer(url, [`CREATE DATABASE "${small}" TEMPLATE "${migrated}"`]);
  handle = await open(small);
  try {
    await seedSmall(handle, media);
  } finally {
    await handle.close();
  }
  return { engine: "postgres", migrated, small, media, prefix };
}

/** Both test projects list this setup (vitest.config.ts); Vitest runs each in this one process. */
const run = globalThis as { testWorld?: Promise<TestWorld> };

/**
 * Vitest global setup: builds the world (once, whichever project comes first) and hands it to the
 * test processes through the environment; removes it when the run ends. The world is made afresh
 * for every run, from the migrations and the demo plan as they are; only the images are kept
 * between runs.
 */
export default async function buildTestWorld() {
  if (run.testWorld) {
    process.env[TEST_WORLD_ENV] = JSON.stringify(await run.testWorld);
    return;
  }
  const url = process.env.DATABASE_URL;
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-test-world-"));
  const prefix = `cbd_${randomBytes(4).toString("hex")}`;
  run.testWorld = url ? postgresWorld(url, dir, prefix) : pgliteWorld(dir, prefix);
  const world = await run.testWorld;
  process.env[TEST_WORLD_ENV] = JSON.stringify(world);
  console.log(
    `test world (${world.engine}) built in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return async () => {
    if (url) await dropDatabases(url, prefix);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
