import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readManifest } from "../../core/backup/archive.ts";
import { BACKUP_ACCESS_FILE, type BackupAccessFile } from "../../core/backup/server-access.ts";
import { createSession } from "../../core/auth/sessions.ts";
import { SESSION_COOKIE } from "../../core/constants.ts";
import { createDb } from "../../db/index.ts";
import { runBackup } from "../../scripts/backup.ts";
import { runRestore } from "../../scripts/restore.ts";
import { multipartBody } from "../helpers/multipart.ts";
import { withPgClient } from "../helpers/pg-client.ts";
import { startServerProcess, tempDataDir, type ServerProcess } from "../helpers/server-process.ts";
import { createTestUser, establishMember } from "../helpers/users.ts";

/**
 * `npm run backup` and `npm run restore` on the engine this run uses (PGlite, or PostgreSQL with
 * DATABASE_URL, in databases of their own that the test creates): a site with a member, a session
 * and a deal with an uploaded image is backed up while its server runs, restored into an empty
 * site, and served again by a new server, where the member's same cookie still signs them in.
 */
const DATABASE_URL = process.env.DATABASE_URL;
const engine = DATABASE_URL ? "postgres" : "pglite";
const tag = randomBytes(4).toString("hex");

/** A database of its own on the test's PostgreSQL server, dropped at the end. */
function databaseUrl(name: string): string {
  const url = new URL(DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.href;
}
const sourceDb = `backup_src_${tag}`;
const targetDb = `backup_dst_${tag}`;
const admin = (sql: string) => withPgClient(DATABASE_URL!, (client) => client.query(sql));

const source = tempDataDir("cbd-backup-src-");
const work = tempDataDir("cbd-backup-files-");
/** The restored site's DATA_DIR: it does not exist until the restore makes it. */
const targetDir = path.join(work.dir, "restored-site");
const archive = path.join(work.dir, "site.tar");

const sourceEnv: Record<string, string> = {
  DATA_DIR: source.dir,
  ...(DATABASE_URL ? { DATABASE_URL: databaseUrl(sourceDb) } : {}),
};
const targetEnv: Record<string, string> = {
  DATA_DIR: targetDir,
  ...(DATABASE_URL ? { DATABASE_URL: databaseUrl(targetDb) } : {}),
};
const commandEnv = (env: Record<string, string>) => ({ LOG_LEVEL: "silent", ...env });

let server: ServerProcess | undefined;
let member: { id: number; token: string; adminToken: string; memberToken: string };
let deal: { unique_id: string; title: string; image_url: string };
let imageBytes: Buffer;
let places: { forumCategory: number; store: number; category: number };

/** Runs a command's function, answering its exit code and what it wrote to stderr. */
async function command(run: () => Promise<number>): Promise<{ code: number; errors: string }> {
  const error = vi.spyOn(console, "error").mockImplementation(() => undefined);
  const log = vi.spyOn(console, "log").mockImplementation(() => undefined);
  try {
    const code = await run();
    return { code, errors: error.mock.calls.map((call) => call.join(" ")).join("\n") };
  } finally {
    error.mockRestore();
    log.mockRestore();
  }
}

const cookie = (token: string) => ({ cookie: `${SESSION_COOKIE}=${token}` });

/** Every file below `dir`, relative, sorted: what a refused restore must leave as it was. */
function tree(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort();
}

beforeAll(async () => {
  if (DATABASE_URL) {
    await admin(`CREATE DATABASE "${sourceDb}"`);
    await admin(`CREATE DATABASE "${targetDb}"`);
  }
  // The site before its server starts: a member, an administrator, a store, a category, a forum.
  const handle = await createDb({
    databaseUrl: sourceEnv.DATABASE_URL,
    dataDir: source.dir,
  });
  try {
    const db = handle.db;
    const id = await createTestUser(db, { name: "Backup Member" });
    await establishMember(db, id);
    const adminId = await createTestUser(db, { name: "Backup Admin" });
    await db.updateTable("users").set({ role: "admin" }).where("id", "=", adminId).execute();
    const forum = await db
      .insertInto("forums")
      .values({ title: "Deals", slug: `deals-${tag}`, type: "d", position: 1 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const inserted = (row: { id: number }) => row.id;
    places = {
      forumCategory: inserted(
        await db
          .insertInto("forum_categories")
          .values({ forum_id: forum.id, kind: "deal", title: "Classroom", position: 1 })
          .returning("id")
          .executeTakeFirstOrThrow(),
      ),
      store: inserted(
        await db
          .insertInto("stores")
          .values({ title: "Chalk Shop", slug: `chalk-${tag}` })
          .returning("id")
          .executeTakeFirstOrThrow(),
      ),
      category: inserted(
        await db
          .insertInto("categories")
          .values({ title: "Paper", slug: `paper-${tag}` })
          .returning("id")
          .executeTakeFirstOrThrow(),
      ),
    };
    member = {
      id,
      token: (await createSession(db, id, "backup test")).token,
      memberToken: (await createSession(db, id, "second device")).token,
      adminToken: (await createSession(db, adminId, "admin")).token,
    };
  } finally {
    await handle.close();
  }
  server = await startServerProcess(sourceEnv);

  // A deal with an uploaded image, posted through the running site.
  imageBytes = await sharp({
    create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 90, b: 160 } },
  })
    .jpeg()
    .toBuffer();
  const body = await multipartBody(
    {
      user_id: member.id,
      deal_category: places.forumCategory,
      store_id: places.store,
      category_id: places.category,
      title: `Blue chalkboard paper ${tag}`,
      deal_description: "Forty sheets of blue paper for the classroom wall.",
      link: `https://www.example-shop.com/p/blue-paper-${tag}`,
      price: 12.5,
    },
    { name: "paper.jpg", type: "image/jpeg", bytes: imageBytes },
  );
  const posted = await fetch(`${server.url}/api/save_deal`, {
    method: "POST",
    headers: { ...body.headers, authorization: `Bearer ${member.token}` },
    body: new Uint8Array(body.payload),
  });
  const answer = (await posted.json()) as { response: { unique_id: string } };
  expect(posted.status, JSON.stringify(answer)).toBe(200);
  const details = await productDetails(server.url, answer.response.unique_id);
  deal = {
    unique_id: answer.response.unique_id,
    title: details.title,
    // The stored image's path below the site (pages may link it absolutely).
    image_url: new URL(details.image_url, server.url).pathname,
  };
  expect(deal.image_url).toMatch(/^\/media\//);
}, 180_000);

async function productDetails(url: string, uniqueId: string) {
  const response = await fetch(`${url}/api/product_details`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ user_id: 0, unique_id: uniqueId }),
  });
  expect(response.status).toBe(200);
  const json = (await response.json()) as {
    response: { product_details: { title: string; image_url: string } };
  };
  return json.response.product_details;
}

afterAll(async () => {
  await server?.kill();
  source.remove();
  work.remove();
  if (DATABASE_URL) {
    await admin(`DROP DATABASE IF EXISTS "${sourceDb}" WITH (FORCE)`);
    await admin(`DROP DATABASE IF EXISTS "${targetDb}" WITH (FORCE)`);
  }
}, 60_000);

describe(`backup and restore (${engine})`, () => {
  it("backs up the running site into one archive", async () => {
    const result = await command(() =>
      runBackup(["--out", archive], commandEnv(sourceEnv) as NodeJS.ProcessEnv),
    );
    expect(result.errors).toBe("");
    expect(result.code).toBe(0);
    const manifest = await readManifest(archive);
    expect(manifest.engine).toBe(engine);
    expect(manifest.counts).toMatchObject({ users: 2, sessions: 3, posts: 1 });
    expect(manifest.counts.media).toBeGreaterThan(0);
    expect(manifest.migrations.length).toBeGreaterThan(30);
    expect(manifest.media).toMatchObject({ storage: "folder" });
    expect(manifest.media.storage === "folder" && manifest.media.files).toBeGreaterThan(0);
    // The site kept serving throughout.
    expect(server!.child.exitCode).toBeNull();
    expect((await productDetails(server!.url, deal.unique_id)).title).toBe(deal.title);
  }, 120_000);

  it("refuses to overwrite an existing file", async () => {
    const before = fs.statSync(archive);
    const result = await command(() =>
      runBackup(["--out", archive], commandEnv(sourceEnv) as NodeJS.ProcessEnv),
    );
    expect(result.code).toBe(1);
    expect(result.errors).toMatch(/already exists/);
    expect(fs.statSync(archive).mtimeMs).toBe(before.mtimeMs);
  });

  it("takes an empty LOG_LEVEL for unset, as compose passes one (compose.yaml)", async () => {
    const again = path.join(work.dir, "empty-log-level.tar");
    const result = await command(() =>
      runBackup(["--out", again], { ...sourceEnv, LOG_LEVEL: "" } as NodeJS.ProcessEnv),
    );
    expect(result.errors).toBe("");
    expect(result.code).toBe(0);
    expect((await readManifest(again)).engine).toBe(engine);
  }, 120_000);

  it("offers the backup to administrators only, on the console's call", async () => {
    expect((await fetch(`${server!.url}/api/admin/backup`)).status).toBe(401);
    const asMember = await fetch(`${server!.url}/api/admin/backup`, {
      headers: cookie(member.memberToken),
    });
    expect(asMember.status).toBe(403);
    const asAdmin = await fetch(`${server!.url}/api/admin/backup`, {
      headers: cookie(member.adminToken),
    });
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers.get("content-disposition")).toMatch(
      /^attachment; filename="chalkboard-deals-backup-.+\.tar"$/,
    );
    const downloaded = path.join(work.dir, "download.tar");
    fs.writeFileSync(downloaded, Buffer.from(await asAdmin.arrayBuffer()));
    expect((await readManifest(downloaded)).counts.posts).toBe(1);
  }, 120_000);

  it.skipIf(engine !== "pglite")(
    "gives the command's token once: a used token opens nothing",
    async () => {
      const accessFile = path.join(source.dir, BACKUP_ACCESS_FILE);
      expect(fs.statSync(accessFile).mode & 0o077).toBe(0); // the owner's only
      const access = JSON.parse(fs.readFileSync(accessFile, "utf8")) as BackupAccessFile;
      const first = await fetch(`${server!.url}/api/admin/backup`, {
        headers: { "x-backup-token": access.token },
      });
      expect(first.status).toBe(200);
      await first.arrayBuffer();
      const again = await fetch(`${server!.url}/api/admin/backup`, {
        headers: { "x-backup-token": access.token },
      });
      expect(again.status).toBe(401);
    },
    120_000,
  );

  it("refuses a damaged or foreign archive, writing nothing", async () => {
    const truncated = path.join(work.dir, "truncated.tar");
    const whole = fs.readFileSync(archive);
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const flipped = path.join(work.dir, "flipped.tar");
    const changed = Buffer.from(whole);
    changed[changed.length - 4096] = changed[changed.length - 4096]! ^ 0xff;
    changed[2048] = changed[2048]! ^ 0xff; // inside the database file, after the manifest
    fs.writeFileSync(flipped, changed);
    const text = path.join(work.dir, "notes.tar");
    fs.writeFileSync(text, "not an archive\n");

    for (const [file, message] of [
      [truncated, /not a readable backup archive/],
      [flipped, /damaged|not a readable backup archive/],
      [text, /not a readable backup archive/],
      [path.join(work.dir, "missing.tar"), /Cannot read/],
    ] as const) {
      const result = await command(() =>
        runRestore([file], commandEnv(targetEnv) as NodeJS.ProcessEnv),
      );
      expect(result.code, file).toBe(1);
      expect(result.errors.split("\n")).toHaveLength(1);
      expect(result.errors).toMatch(message);
      expect(fs.existsSync(targetDir), file).toBe(false);
    }
    if (DATABASE_URL) {
      await withPgClient(databaseUrl(targetDb), async (client) => {
        const { rows } = await client.query(
          "SELECT 1 FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
        );
        expect(rows).toHaveLength(0);
      });
    }
  }, 120_000);

  it("refuses an archive of the other engine", async () => {
    const otherEnv: Record<string, string> = DATABASE_URL
      ? { DATA_DIR: targetDir } // no DATABASE_URL: the embedded engine
      : { DATA_DIR: targetDir, DATABASE_URL: "postgres://nobody@127.0.0.1:9/none" };
    const result = await command(() =>
      runRestore([archive], commandEnv(otherEnv) as NodeJS.ProcessEnv),
    );
    expect(result.code).toBe(1);
    expect(result.errors).toMatch(DATABASE_URL ? /DATABASE_URL is not set/ : /DATABASE_URL is set/);
    expect(fs.existsSync(targetDir)).toBe(false);
  });

  it("refuses a site that is not empty", async () => {
    const before = tree(source.dir);
    const result = await command(() =>
      runRestore([archive], commandEnv(sourceEnv) as NodeJS.ProcessEnv),
    );
    expect(result.code).toBe(1);
    expect(result.errors).toMatch(
      DATABASE_URL ? /database of DATABASE_URL is not empty/ : /server is running on DATA_DIR/,
    );
    expect(tree(source.dir)).toEqual(before);
  });

  it("restores into an empty site, where the member stays signed in and the image is served", async () => {
    const result = await command(() =>
      runRestore([archive], commandEnv(targetEnv) as NodeJS.ProcessEnv),
    );
    expect(result.errors).toBe("");
    expect(result.code).toBe(0);
    expect(fs.readdirSync(targetDir).filter((name) => name.startsWith(".restore"))).toEqual([]);

    // The old site stops; the restored one serves in its place.
    const imageUrl = `${server!.url}${deal.image_url}`;
    const originalImage = Buffer.from(await (await fetch(imageUrl)).arrayBuffer());
    await server!.kill();
    server = await startServerProcess(targetEnv);

    const details = await productDetails(server.url, deal.unique_id);
    expect(details.title).toBe(deal.title);
    const image = await fetch(`${server.url}${deal.image_url}`);
    expect(image.status).toBe(200);
    expect(Buffer.from(await image.arrayBuffer()).equals(originalImage)).toBe(true);

    // The same cookie, set before the backup, signs the member in.
    const myData = await fetch(`${server.url}/api/my_data`, { headers: cookie(member.token) });
    expect(myData.status).toBe(200);
    expect(await myData.text()).toContain("Backup Member");
  }, 240_000);

  it("refuses to restore again over the restored site", async () => {
    // Stopped as an operator stops it (SIGTERM): it leaves no lock behind.
    server!.child.kill("SIGTERM");
    await server!.exited;
    const before = tree(targetDir);
    const result = await command(() =>
      runRestore([archive], commandEnv(targetEnv) as NodeJS.ProcessEnv),
    );
    expect(result.code).toBe(1);
    expect(result.errors).toMatch(/not empty/);
    expect(tree(targetDir)).toEqual(before);
  }, 60_000);
});
