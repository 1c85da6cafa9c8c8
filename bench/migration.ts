/**
 * `npm run bench -- --only migration --pg URL`: posting a deal while a migration of the big-table
 * kind runs on PostgreSQL (docs/decisions/0097-safe-upgrades.md). The database is the bench's
 * (`npm run data:large` fills an empty one, a million deals by default). One server process
 * serves it; the demo administrator posts deals one after another, and each answer's time is
 * kept, first with no migration, then while the runner (db/migrate.ts) applies a migration written
 * as the rules want it (an index built CONCURRENTLY, a backfill of every post in committed
 * batches, under the runner's lock_timeout), then one written as migrations were before (the same
 * index built in one transaction). Goal: every deal posted during the first answers within 1 s.
 * Each bench migration is undone afterwards (its index dropped, its name taken out of
 * schema_migrations), and the deals it posted deleted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { DEMO_PASSWORD } from "../db/demo/people.ts";
import { NO_TRANSACTION_MARKER, migrate, migrationFiles } from "../db/migrate.ts";
import { freePort, startServer, stopServer, type Server } from "./targets.ts";

const TITLE_PREFIX = "Migration bench deal";

interface Variant {
  name: string;
  file: string;
  sql: string;
  index: string;
}

const VARIANTS: Variant[] = [
  {
    name: "as the rules write it (CONCURRENTLY, batched backfill, lock_timeout)",
    file: "990_bench_online.sql",
    index: "bench_posts_title_online_idx",
    sql: `${NO_TRANSACTION_MARKER}
CREATE INDEX CONCURRENTLY IF NOT EXISTS bench_posts_title_online_idx ON posts (lower(title), id);
DO $$
DECLARE
  batch_start bigint := 0;
  last_id     bigint := (SELECT coalesce(max(id), 0) FROM posts);
BEGIN
  WHILE batch_start <= last_id LOOP
    UPDATE posts SET views = views WHERE id >= batch_start AND id < batch_start + 10000;
    COMMIT;
    batch_start := batch_start + 10000;
  END LOOP;
END
$$;
`,
  },
  {
    name: "as before (the same index in one transaction)",
    file: "991_bench_blocking.sql",
    index: "bench_posts_title_blocking_idx",
    sql: "CREATE INDEX bench_posts_title_blocking_idx ON posts (lower(title), id);\n",
  },
];

interface Posting {
  name: string;
  posted: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  overOneSecond: number;
  migrationMs: number | null;
}

/** The demo administrator's id and bearer token, as the apps sign in (no XSRF cookie needed). */
async function signIn(server: Server): Promise<{ userId: number; authorization: string }> {
  const response = await fetch(`${server.base}/api/signin`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "admin@example.com", password: DEMO_PASSWORD }),
  });
  const body = (await response.json()) as { response?: { user_id?: number; token?: string } };
  if (!response.ok || !body.response?.token || !body.response.user_id)
    throw new Error(`signing in as the demo administrator answers ${response.status}`);
  return { userId: body.response.user_id, authorization: `Bearer ${body.response.token}` };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : 0;

/** Posts deals one after another until `until` settles (or `count` deals without it). */
async function postDeals(
  server: Server,
  authorization: string,
  fields: Record<string, number>,
  stop: { done: boolean },
  count = Infinity,
): Promise<{ times: number[]; failed: number }> {
  const times: number[] = [];
  let failed = 0;
  for (let i = 0; !stop.done && i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${server.base}/api/save_deal`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization },
      body: JSON.stringify({
        ...fields,
        title: `${TITLE_PREFIX} ${Date.now()}-${i}`,
        price: "9.99",
        deal_description: "<p>Posted while a migration runs.</p>",
      }),
    });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (!response.ok) failed++;
  }
  return { times, failed };
}

function summary(
  name: string,
  run: { times: number[]; failed: number },
  migrationMs: number | null,
): Posting {
  const sorted = [...run.times].sort((a, b) => a - b);
  return {
    name,
    posted: run.times.length,
    failed: run.failed,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? 0,
    overOneSecond: sorted.filter((t) => t > 1000).length,
    migrationMs,
  };
}

export async function benchMigration(options: { root: string; pg: string }): Promise<void> {
  const client = new pg.Client({ connectionString: options.pg });
  await client.connect();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the runner takes any schema
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.pg, max: 2 }) }),
  });
  const server = await startServer({
    name: "PostgreSQL, migration bench",
    checkout: options.root,
    port: await freePort(),
    env: { DATABASE_URL: options.pg, WEB_CONCURRENCY: "1" },
  });
  const results: Posting[] = [];
  try {
    const { rows: posts } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM posts",
    );
    const ids = await client.query<{ deal: number; store: number; category: number }>(
      `SELECT (SELECT min(id) FROM forum_categories WHERE kind = 'deal') AS deal,
              (SELECT min(id) FROM stores) AS store, (SELECT min(id) FROM categories) AS category`,
    );
    const { deal, store, category } = ids.rows[0]!;
    const { userId, authorization } = await signIn(server);
    const fields = { user_id: userId, deal_category: deal, store_id: store, category_id: category };
    console.log(`migration bench: ${posts[0]!.n.toLocaleString("en-US")} posts on PostgreSQL`);

    results.push(
      summary(
        "no migration",
        await postDeals(server, authorization, fields, { done: false }, 50),
        null,
      ),
    );
    for (const variant of VARIANTS) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-migrations-"));
      try {
        for (const file of migrationFiles()) fs.writeFileSync(path.join(dir, file.name), file.text);
        fs.writeFileSync(path.join(dir, variant.file), variant.sql);
        const stop = { done: false };
        const posting = postDeals(server, authorization, fields, stop);
        const started = performance.now();
        try {
          await migrate(db, { dir, advisoryLock: true });
        } finally {
          stop.done = true;
        }
        const migrationMs = performance.now() - started;
        const result = summary(variant.name, await posting, migrationMs);
        results.push(result);
        console.log(
          `${variant.name}: migration ${(migrationMs / 1000).toFixed(1)} s, ${result.posted} deals posted meanwhile, slowest ${result.max.toFixed(0)} ms`,
        );
      } finally {
        await client.query(`DROP INDEX IF EXISTS ${variant.index}`);
        await client.query("DELETE FROM schema_migrations WHERE name = $1", [variant.file]);
        await client.query("DELETE FROM schema_migration_steps WHERE name = $1", [variant.file]);
        fs.rmSync(dir, { recursive: true, force: true });
      }
    }
  } finally {
    await stopServer(server);
    await client.query("DELETE FROM posts WHERE title LIKE $1", [`${TITLE_PREFIX} %`]);
    await client.end();
    await db.destroy();
  }

  console.log("\n## Posting a deal while a migration runs (PostgreSQL, one server process)\n");
  console.log(
    "| while | migration s | deals posted | failed | p50 ms | p99 ms | slowest ms | over 1 s |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of results) {
    console.log(
      `| ${r.name} | ${r.migrationMs === null ? "—" : (r.migrationMs / 1000).toFixed(1)} | ${r.posted} | ${r.failed} | ${r.p50.toFixed(0)} | ${r.p99.toFixed(0)} | ${r.max.toFixed(0)} | ${r.overOneSecond} |`,
    );
  }
  const failed = results.filter((r) => r.failed > 0);
  if (failed.length) {
    console.log(`\nnot measured: deals failed to post (${failed.map((r) => r.name).join("; ")})`);
    process.exitCode = 1;
  }
  const online = results[1];
  if (online && online.overOneSecond > 0) {
    console.log(
      `\ngoal missed: ${online.overOneSecond} deals took over 1 s during the online migration`,
    );
    process.exitCode = 1;
  }
}
