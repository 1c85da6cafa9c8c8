import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createSession } from "../../core/auth/sessions.ts";
import { openEmbeddedDatabase } from "../../core/backup/embedded.ts";
import { databaseObjects } from "../../core/backup/move.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { sendMailJob } from "../../core/mail/queue.ts";
import { createDb } from "../../db/index.ts";
import { runDbMove } from "../../scripts/db-move.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { withPgClient } from "../helpers/pg-client.ts";
import { startServerProcess, tempDataDir, type ServerProcess } from "../helpers/server-process.ts";
import { createTestUser, establishMember } from "../helpers/users.ts";

/**
 * `npm run db:move -- --to URL` (scripts/db-move.ts, docs/decisions/0099): an embedded site with
 * members, a session, a deal with an uploaded image, a comment with a like (a counter kept by a
 * trigger) and a mail not sent yet is moved into an empty PostgreSQL database, and a server on
 * DATABASE_URL with the same DATA_DIR serves the same content to the same signed-in member.
 *
 * The target is always PostgreSQL: DATABASE_URL's server on the PostgreSQL pass, and on the PGlite
 * pass CI's own (127.0.0.1:5432, .ci/run starts it before any test); each database is made here
 * with a name of its own and dropped at the end. Off CI, without a reachable server, it is skipped.
 */
const SERVER_URL = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const reachable = await withPgClient(SERVER_URL, async () => true).catch(() => false);
const tag = randomBytes(4).toString("hex");

function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.href;
}
const admin = (sql: string) => withPgClient(SERVER_URL, (client) => client.query(sql));
const databases: string[] = [];
async function createDatabase(name: string): Promise<string> {
  await admin(`CREATE DATABASE "${name}"`);
  databases.push(name);
  return databaseUrl(name);
}

const site = tempDataDir("cbd-move-site-");
const bare = tempDataDir("cbd-move-bare-");
const siteEnv = { DATA_DIR: site.dir, LOG_LEVEL: "silent" };

let target: string;
let server: ServerProcess | undefined;
let member: { id: number; token: string };
let deal: { unique_id: string; title: string; image_url: string };
let places: { forumCategory: number; store: number; category: number };
let emptyObjects: string[];

/** Runs the command's function in this process: its exit code and what it wrote to stderr. */
async function command(
  argv: string[],
  env: Record<string, string> = siteEnv,
  hooks: Parameters<typeof runDbMove>[2] = {},
): Promise<{ code: number; errors: string }> {
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  try {
    const code = await runDbMove(argv, env as NodeJS.ProcessEnv, hooks);
    return { code, errors: error.mock.calls.map((call) => call.join(" ")).join("\n") };
  } finally {
    error.mockRestore();
  }
}

/** The command as the shell runs it, in a child process: exit code, stdout and stderr. */
function npmDbMove(to: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { ...process.env, DATA_DIR: site.dir, LOG_LEVEL: "info" } as Record<string, string>;
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "db:move", "--", "--to", to], {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Every file below `dir`, relative, sorted: what a refused move must leave as it was. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

const cookie = (token: string) => ({ cookie: `${SESSION_COOKIE}=${token}` });

async function productDetails(url: string, uniqueId: string) {
  const response = await fetch(`${url}/api/product_details`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user_id: 0, unique_id: uniqueId }),
  });
  expect(response.status).toBe(200);
  const json = (await response.json()) as {
    response: { product_details: { title: string; image_url: string; comments_count?: number } };
  };
  return json.response.product_details;
}

async function postDeal(url: string, title: string, image: Buffer): Promise<string> {
  const body = await multipartBody(
    {
      user_id: member.id,
      deal_category: places.forumCategory,
      store_id: places.store,
      category_id: places.category,
      title,
      deal_description: "Forty sheets of green paper for the classroom wall.",
      link: `https://www.example-shop.com/p/${encodeURIComponent(title)}`,
      price: 12.5,
    },
    { name: "paper.jpg", type: "image/jpeg", bytes: image },
  );
  const posted = await fetch(`${url}/api/save_deal`, {
    method: "POST",
    headers: { ...body.headers, authorization: `Bearer ${member.token}` },
    body: new Uint8Array(body.payload),
  });
  const answer = (await posted.json()) as { response: { unique_id: string } };
  expect(posted.status, JSON.stringify(answer)).toBe(200);
  return answer.response.unique_id;
}

/** Runs SQL on the embedded site as it is (no migration), for the schema refusals. */
async function onSite(sql: string): Promise<void> {
  const database = await openEmbeddedDatabase(path.join(site.dir, "pglite"));
  try {
    await database.pool.query(sql);
  } finally {
    await database.close();
  }
}

/** The site's indexes, as PostgreSQL would make them again. */
const INDEXES = `SELECT indexname, indexdef FROM pg_indexes
                  WHERE schemaname = current_schema() ORDER BY indexname`;

/** Each table's rows as text, in one digest per table, on one connection. */
async function digests(query: (sql: string) => Promise<pg.QueryResult>, tables: string[]) {
  await query("SET TimeZone = 'UTC'");
  const out: Record<string, string> = {};
  for (const table of tables) {
    const { rows } = await query(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS d FROM ${table} t`,
    );
    out[table] = rows[0].d as string;
  }
  return out;
}

beforeAll(async () => {
  if (!reachable && process.env.CI) {
    throw new Error(`No PostgreSQL at ${SERVER_URL}: CI starts one (.ci/run) for this test.`);
  }
  if (!reachable) return;
  target = await createDatabase(`move_dst_${tag}`);
  emptyObjects = await withPgClient(target, databaseObjects);

  const handle = await createDb({ dataDir: site.dir });
  try {
    const db = handle.db;
    const id = await createTestUser(db, { name: "Moving Member" });
    await establishMember(db, id);
    const forum = await db
      .insertInto("forums")
      .values({ title: "Deals", slug: `deals-${tag}`, type: "d", position: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const inserted = async (row: Promise<{ id: number }>) => (await row).id;
    places = {
      forumCategory: await inserted(
        db
          .insertInto("forum_categories")
          .values({ forum_id: forum.id, kind: "deal", title: "Classroom", position: 1 })
          .returning("id")
          .executeTakeFirstOrThrow(),
      ),
      store: await inserted(
        db
          .insertInto("stores")
          .values({ title: "Chalk Shop", slug: `chalk-${tag}` })
          .returning("id")
          .executeTakeFirstOrThrow(),
      ),
      category: await inserted(
        db
          .insertInto("categories")
          .values({ title: "Paper", slug: `paper-${tag}` })
          .returning("id")
          .executeTakeFirstOrThrow(),
      ),
    };
    member = { id, token: (await createSession(db, id, "before the move")).token };
  } finally {
    await handle.close();
  }
  server = await startServerProcess({ DATA_DIR: site.dir });
  const image = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 140, b: 60 } },
  })
    .jpeg()
    .toBuffer();
  const uniqueId = await postDeal(server.url, `Green chalkboard paper ${tag}`, image);
  const details = await productDetails(server.url, uniqueId);
  deal = {
    unique_id: uniqueId,
    title: details.title,
    image_url: new URL(details.image_url, server.url).pathname,
  };
  expect(deal.image_url).toMatch(/^\/media\//);
}, 240_000);

afterAll(async () => {
  await server?.kill();
  site.remove();
  bare.remove();
  for (const name of databases) await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}, 60_000);

describe.skipIf(!reachable && !process.env.CI)("npm run db:move", () => {
  it("refuses while a server runs on DATA_DIR, writing nothing", async () => {
    const before = tree(site.dir);
    const result = await command(["--to", target]);
    expect(result.code).toBe(1);
    expect(result.errors.split("\n")).toHaveLength(1);
    expect(result.errors).toMatch(/server is running on DATA_DIR/);
    expect(tree(site.dir)).toEqual(before);
    expect(await withPgClient(target, databaseObjects)).toEqual(emptyObjects);

    // Stopped as an operator stops it (SIGTERM): it leaves no lock behind.
    server!.child.kill("SIGTERM");
    await server!.exited;
    server = undefined;
  }, 60_000);

  it("adds a comment, a like on it and a mail not sent yet, while the site is stopped", async () => {
    const handle = await createDb({ dataDir: site.dir });
    try {
      const db = handle.db;
      const post = await db
        .selectFrom("posts")
        .select("id")
        .where("unique_id", "=", deal.unique_id)
        .executeTakeFirstOrThrow();
      const comment = await db
        .insertInto("comments")
        .values({
          post_id: post.id,
          user_id: member.id,
          body: "Ordered two packs.",
          created_at: new Date(),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("comment_likes")
        .values({ comment_id: comment.id, user_id: member.id })
        .execute();
      const liked = await db
        .selectFrom("comments")
        .select("likes_count")
        .where("id", "=", comment.id)
        .executeTakeFirstOrThrow();
      expect(liked.likes_count).toBe(1); // kept by migration 039's trigger
      const queue = createSiteJobQueue(handle, { work: false });
      await queue.start({ warn: () => undefined, error: () => undefined });
      try {
        await queue.send(
          sendMailJob,
          {
            to: "member@example.com",
            subject: `Not sent yet ${tag}`,
            text: "Hello",
            html: "<p>Hello</p>",
          },
          undefined,
          { startAfterSeconds: 3600 },
        );
      } finally {
        await queue.stop();
      }
    } finally {
      await handle.close();
    }
  }, 120_000);

  it("refuses a missing or wrong --to, an unreachable or non-empty target, and a DATA_DIR without a site", async () => {
    const busy = await createDatabase(`move_busy_${tag}`);
    await withPgClient(busy, (client) => client.query("CREATE TABLE kept (id int)"));
    const before = tree(site.dir);
    for (const [argv, env, message] of [
      [[], siteEnv, /--to is required/],
      [["--to", "not a url"], siteEnv, /--to is not a URL/],
      [["--to", "mysql://root@127.0.0.1/site"], siteEnv, /PostgreSQL database's URL/],
      [["--to", "postgres://postgres@127.0.0.1:5432"], siteEnv, /PostgreSQL database's URL/],
      [["--to", target, "--force"], siteEnv, /Unknown option/],
      [
        ["--to", "postgres://postgres@127.0.0.1:9/none"],
        siteEnv,
        /Could not connect to the database none/,
      ],
      [["--to", busy], siteEnv, /is not empty \(it holds public\.kept\)/],
      [
        ["--to", target],
        { DATA_DIR: bare.dir, LOG_LEVEL: "silent" },
        /no embedded database in DATA_DIR/,
      ],
    ] as const) {
      const result = await command([...argv], env);
      expect(result.code, String(message)).toBe(1);
      expect(result.errors.split("\n")).toHaveLength(1);
      expect(result.errors).toMatch(message);
    }
    expect(tree(site.dir)).toEqual(before);
    expect(tree(bare.dir)).toEqual([]);
    expect(await withPgClient(target, databaseObjects)).toEqual(emptyObjects);
    expect(await withPgClient(busy, (client) => client.query("SELECT 1 FROM kept"))).toBeTruthy();
  }, 120_000);

  it("refuses an embedded schema newer or older than this code", async () => {
    await onSite("INSERT INTO schema_migrations (name) VALUES ('999_from_a_newer_build.sql')");
    let result = await command(["--to", target]);
    await onSite("DELETE FROM schema_migrations WHERE name = '999_from_a_newer_build.sql'");
    expect(result.code).toBe(1);
    expect(result.errors).toMatch(/migrated by a newer version .* 999_from_a_newer_build\.sql/);

    await onSite("DELETE FROM schema_migrations WHERE name = '039_comment_likes.sql'");
    result = await command(["--to", target]);
    await onSite("INSERT INTO schema_migrations (name) VALUES ('039_comment_likes.sql')");
    expect(result.code).toBe(1);
    expect(result.errors).toMatch(/older than this code .*039_comment_likes\.sql.*npm run migrate/);
    expect(await withPgClient(target, databaseObjects)).toEqual(emptyObjects);
  }, 120_000);

  it("leaves the target as empty as it was when the copy fails or miscounts", async () => {
    let result = await command(["--to", target], siteEnv, {
      afterCopy: async (client) => {
        await client.query("DELETE FROM comments");
      },
    });
    expect(result.code).toBe(1);
    expect(result.errors.split("\n")).toHaveLength(1);
    expect(result.errors).toMatch(
      /counts differ \(comments: 1 in the embedded site, 0 in the target\)/,
    );
    expect(await withPgClient(target, databaseObjects)).toEqual(emptyObjects);

    result = await command(["--to", target], siteEnv, {
      afterCopy: async () => {
        throw new Error("the disk is full");
      },
    });
    expect(result.code).toBe(1);
    expect(result.errors).toBe("Could not move the site: the disk is full");
    expect(await withPgClient(target, databaseObjects)).toEqual(emptyObjects);
    // The embedded site is untouched, and unlocked.
    expect(fs.existsSync(path.join(site.dir, "server.lock"))).toBe(false);
  }, 180_000);

  it("needs, beyond owning the database, only the right to set session_replication_role", async () => {
    const role = `move_role_${tag}`;
    await admin(`CREATE ROLE "${role}" LOGIN`);
    try {
      const name = `move_owned_${tag}`;
      await admin(`CREATE DATABASE "${name}" OWNER "${role}"`);
      const url = new URL(databaseUrl(name));
      url.username = role;
      const owned = url.href;
      const refused = await command(["--to", owned]);
      expect(refused.code).toBe(1);
      expect(refused.errors).toMatch(
        /may not turn the site's triggers off.*GRANT SET ON PARAMETER/,
      );
      expect(await withPgClient(owned, databaseObjects)).toEqual(emptyObjects);

      await admin(`GRANT SET ON PARAMETER session_replication_role TO "${role}"`);
      const moved = await command(["--to", owned]);
      expect(moved.errors).toBe("");
      expect(moved.code).toBe(0);
      const { rows } = await withPgClient(owned, (client) =>
        client.query(
          "SELECT DISTINCT tableowner FROM pg_tables WHERE schemaname IN ('public', 'pgboss')",
        ),
      );
      expect(rows).toEqual([{ tableowner: role }]);
    } finally {
      await admin(`DROP DATABASE IF EXISTS "move_owned_${tag}" WITH (FORCE)`);
      await admin(`REVOKE SET ON PARAMETER session_replication_role FROM "${role}"`).catch(
        () => undefined,
      );
      await admin(`DROP ROLE IF EXISTS "${role}"`);
    }
  }, 180_000);

  it("moves every row, counted on both sides, and the site serves on from PostgreSQL", async () => {
    const moved = await npmDbMove(target);
    expect(moved.stderr).toBe("");
    expect(moved.code).toBe(0);
    const lines = moved.stdout
      .trim()
      .split("\n")
      .map(
        (line) =>
          JSON.parse(line) as { msg: string; table?: string; source?: number; target?: number },
      );
    const counts = lines.filter((line) => line.table !== undefined);
    const byTable = Object.fromEntries(counts.map((line) => [line.table, line]));
    expect(byTable).toMatchObject({
      users: { source: 1, target: 1 },
      sessions: { source: 1, target: 1 },
      posts: { source: 1, target: 1 },
      comments: { source: 1, target: 1 },
      comment_likes: { source: 1, target: 1 },
      "pgboss.job": { target: expect.any(Number) },
    });
    expect(byTable.media!.target).toBeGreaterThan(0);
    for (const line of counts) expect(line.target, line.table).toBe(line.source);
    expect(lines.at(-1)!.msg).toMatch(/^moved: /);

    // Every row equal, counters included (not counted again by the triggers).
    const tables = counts
      .map((line) => line.table!)
      .filter((table) => table !== "schema_migrations");
    const embedded = await openEmbeddedDatabase(path.join(site.dir, "pglite"));
    let before: Record<string, string>;
    let lastPostId: number;
    let indexes: unknown[];
    try {
      const client = await embedded.pool.connect();
      try {
        before = await digests((sql) => client.query(sql), tables);
        indexes = (await client.query(INDEXES)).rows;
        lastPostId = Number((await client.query("SELECT max(id) AS id FROM posts")).rows[0].id);
      } finally {
        client.release();
      }
    } finally {
      await embedded.close();
    }
    await withPgClient(target, async (client) => {
      expect(await digests((sql) => client.query(sql), tables)).toEqual(before);
      // The indexes dropped for the copy are all built again, as the migrations made them.
      expect((await client.query(INDEXES)).rows).toEqual(indexes);
      const { rows } = await client.query(
        "SELECT state::text AS state FROM pgboss.job WHERE name = 'mail.send' AND data->>'subject' = $1",
        [`Not sent yet ${tag}`],
      );
      expect(rows).toEqual([{ state: "created" }]);
    });

    // A second move into the filled database is refused.
    const again = await command(["--to", target]);
    expect(again.code).toBe(1);
    expect(again.errors).toMatch(/is not empty/);

    server = await startServerProcess({ DATA_DIR: site.dir, DATABASE_URL: target });
    const details = await productDetails(server.url, deal.unique_id);
    expect(details.title).toBe(deal.title);
    const image = await fetch(`${server.url}${deal.image_url}`);
    expect(image.status).toBe(200);
    expect((await image.arrayBuffer()).byteLength).toBeGreaterThan(0);

    // The cookie set before the move still signs the member in.
    const myData = await fetch(`${server.url}/api/my_data`, { headers: cookie(member.token) });
    expect(myData.status).toBe(200);
    expect(await myData.text()).toContain("Moving Member");

    // New rows continue after the copied ones.
    const next = await postDeal(
      server.url,
      `Yellow chalkboard paper ${tag}`,
      await sharp({ create: { width: 64, height: 48, channels: 3, background: "#ee0" } })
        .jpeg()
        .toBuffer(),
    );
    await withPgClient(target, async (client) => {
      const { rows } = await client.query("SELECT id FROM posts WHERE unique_id = $1", [next]);
      expect(Number(rows[0].id)).toBeGreaterThan(lastPostId);
    });
  }, 300_000);
});
