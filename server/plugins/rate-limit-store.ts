import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from "@fastify/rate-limit";
import { sql } from "kysely";
import type { Db } from "../../db/index.ts";

type Callback = Parameters<FastifyRateLimitStore["incr"]>[1];
/** What the plugin hands `child`: the route's options, with the route itself as routeInfo. */
type ChildParams = Parameters<FastifyRateLimitStore["child"]>[0];

/** Expired windows are deleted at most this often per process (and only when hits come). */
const PURGE_EVERY_MS = 60_000;

/**
 * A store of @fastify/rate-limit in PostgreSQL (migration 026), for every server process on the
 * database (docs/decisions/0076): one atomic upsert per hit counts the key's window across them. A
 * window that has ended starts again at 1. The plugin's `continueExceeding` and `exponentialBackoff`
 * are not used by this site and not supported here.
 */
export function postgresRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  let nextPurge = 0;
  const purge = () => {
    const now = Date.now();
    if (now < nextPurge) return;
    nextPurge = now + PURGE_EVERY_MS;
    sql`DELETE FROM rate_limit_counters WHERE expires_at < now()`.execute(db).catch(() => {
      /* the next purge tries again; stale rows only take space */
    });
  };

  return class PostgresRateLimitStore implements FastifyRateLimitStore {
    readonly prefix: string;

    constructor(_options: FastifyRateLimitOptions, prefix = "") {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      purge();
      sql<{ hits: number; ttl: number }>`
        INSERT INTO rate_limit_counters AS c (key, hits, expires_at)
        VALUES (${this.prefix + key}, 1, clock_timestamp() + ${timeWindow} * interval '1 millisecond')
        ON CONFLICT (key) DO UPDATE SET
          hits = CASE WHEN c.expires_at <= clock_timestamp() THEN 1 ELSE c.hits + 1 END,
          expires_at = CASE WHEN c.expires_at <= clock_timestamp() THEN excluded.expires_at
                            ELSE c.expires_at END
        RETURNING hits,
          greatest(0, ceil(extract(epoch FROM c.expires_at - clock_timestamp()) * 1000))::int AS ttl`
        .execute(db)
        .then(({ rows: [row] }) => callback(null, { current: row!.hits, ttl: row!.ttl }))
        .catch((error: Error) => callback(error));
    }

    read(key: string, callback: Callback): void {
      sql<{ hits: number; ttl: number }>`
        SELECT hits,
          greatest(0, ceil(extract(epoch FROM expires_at - clock_timestamp()) * 1000))::int AS ttl
        FROM rate_limit_counters WHERE key = ${this.prefix + key} AND expires_at > clock_timestamp()`
        .execute(db)
        .then(({ rows: [row] }) =>
          callback(null, row ? { current: row.hits, ttl: row.ttl } : { current: 0, ttl: 0 }),
        )
        .catch((error: Error) => callback(error));
    }

    /** Each route counts in a key space of its own, as the plugin's Redis store does. */
    child(params: ChildParams): PostgresRateLimitStore {
      // createRateLimit() limiters come with an empty routeInfo; their keys name the route anyway.
      const route = (params as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new PostgresRateLimitStore(
        params,
        `${this.prefix}${route.method ?? ""}${route.url ?? ""}-`,
      );
    }
  };
}
