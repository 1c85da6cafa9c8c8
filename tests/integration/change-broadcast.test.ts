import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../config/env.ts";
import { CHANGE_TOPICS, createChangeFeed, type ChangeTopic } from "../../core/cache/changes.ts";
import { createSiteJobQueue } from "../../core/jobs/site-jobs.ts";
import { createLogger } from "../../core/log/logger.ts";
import { dealExpiryJob } from "../../core/posts/expiry/sweep.ts";
import { createDb, type DbHandle } from "../../db/index.ts";
import { workWorkerJobs } from "../../scripts/worker.ts";
import {
  changeChannel,
  startChangeBroadcast,
  type ChangeBroadcast,
} from "../../server/change-broadcast.ts";
import { createTestApp } from "../helpers/app.ts";
import { startCuttableRelay } from "../helpers/cuttable-relay.ts";
import { withPgClient } from "../helpers/pg-client.ts";
import { WORLD_JOBS_SCHEMA, WORLD_SCHEMA } from "../setup/test-world.ts";

/*
 * The change channel between processes (server/change-broadcast.ts,
 * docs/decisions/0106-change-channel-across-hosts.md): named after the database, not the URL;
 * announced by the worker's jobs; and no notice lost while the database was away.
 */

const databaseUrl = process.env.DATABASE_URL;

/** Polls `condition` until it holds; fails naming `what` after a generous `timeoutMs`. */
async function eventually(condition: () => boolean, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`waited ${timeoutMs} ms for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Process {
  handle: DbHandle;
  broadcast: ChangeBroadcast;
  changes: ReturnType<typeof createChangeFeed>;
  /** The topics this process heard from others, in order. */
  heard: ChangeTopic[];
  /** What it logged as warnings (their `msg`). */
  warnings: string[];
  close(): Promise<void>;
}

/** One process's database handle (on `schema`) and broadcast, reaching PostgreSQL at `url`. */
async function startProcess(url: string, schema: string): Promise<Process> {
  const handle = await createDb({
    databaseUrl: url,
    schema,
    migrate: false,
    poolSize: 2,
    onConnectionError: () => {}, // the fault test cuts the connections on purpose
  });
  const warnings: string[] = [];
  const log = {
    info: () => {},
    warn: (msg: string | object) =>
      warnings.push(typeof msg === "string" ? msg : String((msg as { msg?: unknown }).msg)),
    error: () => {},
  };
  const changes = createChangeFeed(log);
  const heard: ChangeTopic[] = [];
  changes.on(CHANGE_TOPICS, (topic, origin) => {
    if (origin === "remote") heard.push(topic);
  });
  const broadcast = await startChangeBroadcast({ changes, db: handle.db, databaseUrl: url, log });
  if (!broadcast) throw new Error("a PostgreSQL URL starts a broadcast");
  return {
    handle,
    broadcast,
    changes,
    heard,
    warnings,
    async close() {
      await broadcast.close();
      await handle.close();
    },
  };
}

describe.runIf(databaseUrl)("the change channel on PostgreSQL", () => {
  const schemas: string[] = [];
  const open: Process[] = [];
  const newSchema = () => {
    const schema = `broadcast_${randomBytes(5).toString("hex")}`;
    schemas.push(schema);
    return schema;
  };
  const start = async (url: string, schema: string) => {
    const started = await startProcess(url, schema);
    open.push(started);
    return started;
  };

  const closeAll = async () => {
    for (const one of open.splice(0)) await one.close();
  };

  afterAll(async () => {
    await closeAll();
    await withPgClient(databaseUrl!, async (client) => {
      for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    });
  });

  it("is named after the database: two spellings of the server hear each other, another schema does not", async () => {
    const relay = await startCuttableRelay(new URL(databaseUrl!));
    try {
      // The relay is the same server under another address and port, as a second host sees it.
      const viaRelay = Object.assign(new URL(databaseUrl!), { host: `127.0.0.1:${relay.port}` });
      const schema = newSchema();
      const elsewhere = newSchema();
      const one = await start(viaRelay.href, schema);
      const other = await start(databaseUrl!, schema);
      const apart = await start(databaseUrl!, elsewhere);
      const apartMate = await start(viaRelay.href, elsewhere);

      expect((await changeChannel(one.handle.db)).channel).toBe(
        (await changeChannel(other.handle.db)).channel,
      );
      expect((await changeChannel(apart.handle.db)).identity).toBe("system_identifier");

      one.changes.emit("settings");
      await eventually(() => other.heard.includes("settings"), "the other spelling to hear");
      other.changes.emit("catalog");
      await eventually(() => one.heard.includes("catalog"), "the first spelling to hear back");
      // The other schema's own notice arrives; the first schema's never did.
      apartMate.changes.emit("cms");
      await eventually(() => apart.heard.includes("cms"), "the other schema's own notice");
      expect(apart.heard).toEqual(["cms"]);
      expect(other.heard).toEqual(["settings"]);
    } finally {
      await closeAll(); // before the relay, whose close waits for its connections
      await relay.close();
    }
  }, 60_000);

  it("falls back to the database's oid and the server's address where pg_control_system() is refused", async () => {
    // A database of its own where PUBLIC may not call it (function rights are per database), and
    // a role that is no superuser, as on a managed service that revokes it.
    const name = `cbd_broadcast_${randomBytes(5).toString("hex")}`;
    const admin = (url: string, statements: string[]) =>
      withPgClient(url, async (client) => {
        for (const statement of statements) await client.query(statement);
      });
    const ownUrl = Object.assign(new URL(databaseUrl!), { pathname: `/${name}` });
    await admin(databaseUrl!, [
      `CREATE DATABASE "${name}"`,
      `CREATE ROLE "${name}" LOGIN`,
      `GRANT CREATE ON DATABASE "${name}" TO "${name}"`,
    ]);
    const relay = await startCuttableRelay(new URL(databaseUrl!));
    try {
      await admin(ownUrl.href, [
        "REVOKE EXECUTE ON FUNCTION pg_control_system() FROM PUBLIC",
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
      ]);
      const asRole = Object.assign(new URL(ownUrl.href), { username: name });
      const viaRelay = Object.assign(new URL(asRole.href), { host: `127.0.0.1:${relay.port}` });
      const schema = newSchema();
      const one = await start(asRole.href, schema);
      const other = await start(viaRelay.href, schema);
      expect((await changeChannel(one.handle.db)).identity).toBe("server_address");
      one.changes.emit("users");
      await eventually(() => other.heard.includes("users"), "the fallback's channel to carry");
    } finally {
      await closeAll();
      await relay.close();
      await admin(databaseUrl!, [
        `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`,
        `DROP ROLE IF EXISTS "${name}"`,
      ]);
    }
  }, 60_000);

  it("accepts the old message shape and ignores unknown ones with a warning", async () => {
    const schema = newSchema();
    const listener = await start(databaseUrl!, schema);
    const { channel } = await changeChannel(listener.handle.db);
    const notify = (payload: unknown) =>
      sql`SELECT pg_notify(${channel}, ${JSON.stringify(payload)})`.execute(listener.handle.db);
    await notify({ from: "another-version", what: "posts" });
    await notify({ from: "another-version", topic: "no-such-topic" });
    await notify({ from: "another-version", topic: "forums" });
    await eventually(() => listener.heard.includes("forums"), "the old shape to be heard");
    expect(listener.heard).toEqual(["forums"]);
    expect(
      listener.warnings.filter((w) => w === "an unreadable change message was ignored"),
    ).toHaveLength(2);
  }, 30_000);

  it("tells every process to drop everything once a notice it could not send can go", async () => {
    const relay = await startCuttableRelay(new URL(databaseUrl!));
    try {
      const viaRelay = Object.assign(new URL(databaseUrl!), { host: `127.0.0.1:${relay.port}` });
      const schema = newSchema();
      const sender = await start(viaRelay.href, schema);
      const receiver = await start(databaseUrl!, schema);
      // The channel works before the fault.
      sender.changes.emit("reactions");
      await eventually(() => receiver.heard.includes("reactions"), "a notice before the fault");
      receiver.heard.length = 0;

      await relay.cut();
      sender.changes.emit("posts"); // committed, say, just before the database went away
      await eventually(
        () => sender.warnings.includes("change broadcast: a change was not sent"),
        "the send to fail",
      );
      expect(receiver.heard).toEqual([]);
      await relay.restore();

      await eventually(
        () => CHANGE_TOPICS.every((topic) => receiver.heard.includes(topic)),
        "the receiver to drop every topic once the channel is back",
      );
      // Once: one "missed" message for the one failed send.
      expect(receiver.heard.filter((topic) => topic === "posts")).toHaveLength(1);
    } finally {
      await closeAll(); // before the relay, whose close waits for its connections
      await relay.close();
    }
  }, 60_000);

  it("announces the worker's job writes to the servers", async () => {
    const server = await createTestApp({ env: { DATABASE_URL: databaseUrl! } });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cbd-worker-changes-"));
    // The worker's side, as scripts/worker.ts builds it: its own pool, queue and broadcast.
    const handle = await createDb({
      databaseUrl: server.databaseUrl!,
      schema: WORLD_SCHEMA,
      poolSize: 3,
    });
    const jobs = createSiteJobQueue(handle, { schema: WORLD_JOBS_SCHEMA, work: true });
    const log = createLogger({ level: "silent" });
    let broadcast: ChangeBroadcast | null = null;
    try {
      const config = loadConfig({
        NODE_ENV: "test",
        DATABASE_URL: server.databaseUrl!,
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
      });
      broadcast = await workWorkerJobs(config, handle, jobs, log);
      expect(broadcast).not.toBeNull();
      await jobs.start(log);

      const heard: ChangeTopic[] = [];
      server.deps.changes.on(CHANGE_TOPICS, (topic, origin) => {
        if (origin === "remote") heard.push(topic);
      });
      // A live deal whose end has come: the worker's minute sweep marks it expired.
      const deal = await handle.db
        .selectFrom("posts")
        .select("id")
        .where("post_type", "=", "d")
        .where("expired", "=", false)
        .orderBy("id")
        .executeTakeFirstOrThrow();
      await handle.db
        .updateTable("posts")
        .set({ expires_at: new Date(Date.now() - 60_000) })
        .where("id", "=", deal.id)
        .execute();
      await jobs.send(dealExpiryJob, {});
      await eventually(() => heard.includes("posts"), "the server to hear the sweep's change");
      const swept = await handle.db
        .selectFrom("posts")
        .select("expired")
        .where("id", "=", deal.id)
        .executeTakeFirstOrThrow();
      expect(swept.expired).toBe(true);
    } finally {
      await jobs.stop();
      await broadcast?.close();
      await handle.close();
      await server.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
