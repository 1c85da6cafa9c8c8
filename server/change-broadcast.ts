import { createHash, randomUUID } from "node:crypto";
import { sql } from "kysely";
import pg from "pg";
import type { Db } from "../db/index.ts";
import { CHANGE_TOPICS, type ChangeFeed, type ChangeTopic } from "../core/cache/changes.ts";

/**
 * The cross-process half of the change feed (docs/decisions/0025, 0049): every change this
 * process makes is sent to the other processes on the same database, and what they send is
 * emitted here with origin "remote" (and never sent on again), so every process's caches — the
 * page cache, the services' TtlCaches — drop on every write, wherever it was made: servers and
 * `npm run worker` alike (scripts/worker.ts).
 *
 * With DATABASE_URL: PostgreSQL LISTEN/NOTIFY on a connection of its own, the one transport between
 * processes (docs/decisions/0076). The embedded database (PGlite) is one process: nothing to send.
 *
 * docs/decisions/0106-change-channel-across-hosts.md:
 * - The channel is named after the database itself (its cluster's system_identifier, its name and
 *   the schema), never after how a URL spells the host, so every host that reaches the database,
 *   by whatever name or address, shares it.
 * - Messages: `{from, topic}` (one topic changed) and `{from, missed: true}` (changes may have gone
 *   unannounced: drop everything). Any other shape is ignored with a warning, so processes of two
 *   versions can share the channel during a rolling upgrade (the upgrade to this naming itself
 *   changes the channel: old and new processes hear each other only once the old are gone).
 * - A notice that could not be sent (the database away) is not lost: the sender owes a "missed"
 *   message, sent once a send succeeds or the LISTEN connection is back, and retried with backoff
 *   until it goes through. A receiver whose LISTEN connection was lost drops everything itself.
 */
export interface ChangeBroadcast {
  close(): Promise<void>;
}

interface Log {
  info(msg: string | object): void;
  warn(msg: string | object): void;
  error(msg: string | object): void;
}

type Message = { from: string; topic: ChangeTopic } | { from: string; missed: true };

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

function isTopic(value: unknown): value is ChangeTopic {
  return (CHANGE_TOPICS as readonly unknown[]).includes(value);
}

function parse(raw: string): Message | null {
  try {
    const message = JSON.parse(raw) as { from?: unknown; topic?: unknown; missed?: unknown };
    if (typeof message !== "object" || message === null || typeof message.from !== "string") {
      return null;
    }
    if (message.missed === true && message.topic === undefined) {
      return { from: message.from, missed: true };
    }
    return isTopic(message.topic) ? { from: message.from, topic: message.topic } : null;
  } catch {
    return null;
  }
}

/** How the channel's name was made: from the cluster's identifier, or the fallback's. */
export type ChannelIdentity = "system_identifier" | "server_address";

/**
 * The processes that share a database share a channel, named after the database itself: the
 * cluster's system_identifier (the same from every host, whatever name or address reaches it),
 * the database and the schema (tests run many schemas side by side in one database, and must not
 * hear each other). Where pg_control_system() is refused (some managed services revoke it), the
 * database's oid and the server's own address and port, as the server reports them, stand in.
 */
export async function changeChannel(
  db: Db,
): Promise<{ channel: string; identity: ChannelIdentity }> {
  let identity: ChannelIdentity = "system_identifier";
  let where: { server: string; database: string; schema: string };
  try {
    const { rows } = await sql<{ server: string; database: string; schema: string }>`
      SELECT system_identifier::text AS server, current_database() AS database,
        current_schema() AS schema
      FROM pg_control_system()`.execute(db);
    where = rows[0]!;
  } catch (error) {
    // 42501 insufficient_privilege; anything else (the database away) is the caller's to report.
    if ((error as { code?: string }).code !== "42501") throw error;
    identity = "server_address";
    const { rows } = await sql<{ server: string; database: string; schema: string }>`
      SELECT concat_ws('/', d.oid::text, host(inet_server_addr()), inet_server_port()::text)
          AS server,
        current_database() AS database, current_schema() AS schema
      FROM pg_database d WHERE d.datname = current_database()`.execute(db);
    where = rows[0]!;
  }
  const digest = createHash("sha256")
    .update(`${identity}:${where.server}/${where.database}/${where.schema}`)
    .digest("hex")
    .slice(0, 20);
  return { channel: `chalkboard_changes_${digest}`, identity };
}

export async function startChangeBroadcast(options: {
  changes: ChangeFeed;
  db: Db;
  databaseUrl: string | undefined;
  log: Log;
}): Promise<ChangeBroadcast | null> {
  const { changes, db, databaseUrl, log } = options;
  if (!databaseUrl) return null;
  const { channel, identity } = await changeChannel(db);
  log.info({ msg: "change broadcast: the channel is named after the database", channel, identity });
  const self = randomUUID();

  /** While changes may have gone unheard, anything may have changed: every cache drops. */
  const missedSome = () => {
    for (const topic of CHANGE_TOPICS) changes.emit(topic, "remote");
  };
  const receive = (raw: string) => {
    const message = parse(raw);
    if (!message) {
      log.warn({ msg: "an unreadable change message was ignored", channel });
      return;
    }
    if (message.from === self) return;
    if ("missed" in message) missedSome();
    else changes.emit(message.topic, "remote");
  };

  // Sends that failed (counted) and how many of them a "missed" message that went through covers.
  let failed = 0;
  let covered = 0;
  let sendingMissed = false;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let delay = RECONNECT_MIN_MS;

  /** Sends the "missed" message while a failed send is not yet covered by one that went through. */
  const sendMissed = () => {
    if (closed || sendingMissed || failed === covered) return;
    clearTimeout(retry);
    retry = undefined;
    sendingMissed = true;
    const covering = failed;
    transport.notify(JSON.stringify({ from: self, missed: true } satisfies Message)).then(
      () => {
        sendingMissed = false;
        covered = covering;
        delay = RECONNECT_MIN_MS;
        log.info("change broadcast: told the other processes to drop what they may have missed");
        sendMissed(); // a send that failed meanwhile is owed one more
      },
      (error: Error) => {
        sendingMissed = false;
        log.warn({
          msg: "change broadcast: the missed-changes notice was not sent",
          err: error.message,
        });
        retryMissed();
      },
    );
  };
  const retryMissed = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      sendMissed();
    }, delay);
    retry.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  };

  const transport = await postgresTransport(databaseUrl, db, channel, receive, log, () => {
    missedSome();
    sendMissed(); // the database is back: what this process could not send is owed now
  });

  const unsubscribe = changes.on(CHANGE_TOPICS, (topic, origin) => {
    if (origin !== "local") return;
    transport.notify(JSON.stringify({ from: self, topic } satisfies Message)).then(
      () => sendMissed(),
      (error: Error) => {
        log.warn({ msg: "change broadcast: a change was not sent", topic, err: error.message });
        failed += 1;
        retryMissed();
      },
    );
  });
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      unsubscribe();
      // A "missed" message still owed gets one last try: the others may not hear of it otherwise.
      if (failed !== covered && !sendingMissed) {
        await transport
          .notify(JSON.stringify({ from: self, missed: true } satisfies Message))
          .catch((error: Error) => {
            log.warn({
              msg: "change broadcast: closed owing a missed-changes notice",
              err: error.message,
            });
          });
      }
      await transport.close();
    },
  };
}

interface Transport {
  /** NOTIFY through the app's pool; rejects when it could not be sent. */
  notify(message: string): Promise<void>;
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
  log: Log,
  /** Listening again after the connection was lost: notices may have gone unheard meanwhile. */
  listeningAgain: () => void,
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
          listeningAgain();
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
    async notify(message) {
      await sql`SELECT pg_notify(${channel}, ${message})`.execute(db);
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
