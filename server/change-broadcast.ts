import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import type { Db } from "../db/index.ts";
import { CHANGE_TOPICS, type ChangeFeed, type ChangeTopic } from "../core/cache/changes.ts";

/**
 * The cross-process half of the change feed (docs/decisions/0025, 0049): every change this
 * process makes is sent to the other processes on the same database, and what they send is
 * emitted here with origin "remote" (and never sent on again), so every process's caches — the
 * page cache, the services' TtlCaches — drop on every write, wherever it was made.
 *
 * With DATABASE_URL: PostgreSQL LISTEN/NOTIFY on a connection of its own, the one transport between
 * processes (docs/decisions/0076). The embedded database (PGlite) is one process: nothing to send.
 */
export interface ChangeBroadcast {
  close(): Promise<void>;
}

interface Log {
  info(msg: string): void;
  warn(msg: string | object): void;
  error(msg: string | object): void;
}

interface Message {
  from: string;
  topic: ChangeTopic;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

function isTopic(value: unknown): value is ChangeTopic {
  return (CHANGE_TOPICS as readonly unknown[]).includes(value);
}

function parse(raw: string): Message | null {
  try {
    const message = JSON.parse(raw) as Partial<Message>;
    return typeof message.from === "string" && isTopic(message.topic)
      ? { from: message.from, topic: message.topic }
      : null;
  } catch {
    return null;
  }
}

/**
 * The processes that share a database share a channel: named after the server, database and
 * schema (tests run many schemas side by side in one database, and must not hear each other).
 */
async function channelName(db: Db, databaseUrl: string): Promise<string> {
  const { rows } = await sql<{
    database: string;
    schema: string;
  }>`SELECT current_database() AS database, current_schema() AS schema`.execute(db);
  const where = rows[0]!;
  const host = new URL(databaseUrl).host;
  const digest = createHash("sha256")
    .update(`${host}/${where.database}/${where.schema}`)
    .digest("hex")
    .slice(0, 20);
  return `chalkboard_changes_${digest}`;
}

export async function startChangeBroadcast(options: {
  changes: ChangeFeed;
  db: Db;
  databaseUrl: string | undefined;
  log: Log;
}): Promise<ChangeBroadcast | null> {
  const { changes, db, databaseUrl, log } = options;
  if (!databaseUrl) return null;
  const channel = await channelName(db, databaseUrl);
  const self = randomUUID();

  const receive = (raw: string) => {
    const message = parse(raw);
    if (!message) {
      log.warn({ msg: "an unreadable change message was ignored", channel });
      return;
    }
    if (message.from !== self) changes.emit(message.topic, "remote");
  };
  /** While the receiving side was away, anything may have changed: every cache drops. */
  const missedSome = () => {
    for (const topic of CHANGE_TOPICS) changes.emit(topic, "remote");
  };

  const transport = await postgresTransport(databaseUrl, db, channel, receive, missedSome, log);

  const unsubscribe = changes.on(CHANGE_TOPICS, (topic, origin) => {
    if (origin !== "local") return;
    transport.send(JSON.stringify({ from: self, topic } satisfies Message));
  });
  return {
    async close() {
      unsubscribe();
      await transport.close();
    },
  };
}

interface Transport {
  send(message: string): void;
  close(): Promise<void>;
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to queries), reconnected with
 * backoff when it is lost; NOTIFY through the app's pool, after the writer's commit.
 */
async function postgresTransport(
  url: string,
  db: Db,
  channel: string,
  receive: (raw: string) => void,
  missedSome: () => void,
  log: Log,
): Promise<Transport> {
  let client: pg.Client | null = null;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = RECONNECT_MIN_MS;

  const listen = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", (notice) => {
      if (notice.channel === channel && notice.payload) receive(notice.payload);
    });
    next.on("error", (error) => {
      log.warn({ msg: "change broadcast: the LISTEN connection failed", err: error.message });
      lost(next);
    });
    next.on("end", () => lost(next));
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
    } catch (error) {
      next.removeAllListeners("end");
      await next.end().catch(() => {});
      throw error;
    }
    client = next;
  };

  const lost = (which: pg.Client) => {
    if (client !== which || closed) return;
    client = null;
    which.removeAllListeners("end");
    which.end().catch(() => {});
    reconnect();
  };

  const reconnect = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      listen().then(
        () => {
          delay = RECONNECT_MIN_MS;
          log.info("change broadcast: listening again");
          missedSome();
        },
        (error: Error) => {
          log.warn({ msg: "change broadcast: LISTEN reconnection failed", err: error.message });
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
          reconnect();
        },
      );
    }, delay);
    retry.unref();
  };

  await listen();
  return {
    send(message) {
      sql`SELECT pg_notify(${channel}, ${message})`.execute(db).catch((error: Error) => {
        log.warn({ msg: "change broadcast: a change was not sent", err: error.message });
      });
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = null;
      if (last) {
        last.removeAllListeners("end");
        await last.end().catch(() => {});
      }
    },
  };
}
