-- Rate-limit counters that several server processes share when there is no Redis
-- (WEB_CONCURRENCY > 1 on PostgreSQL; docs/decisions/0052-compiled-start-and-processes.md).
-- One row per limiter key and window: hits so far and when the window ends. UNLOGGED: the counters
-- need neither crash safety nor replicas, and skipping the write-ahead log keeps each hit cheap; a
-- database crash empties the table, which only restarts the windows.
CREATE UNLOGGED TABLE rate_limit_counters (
  key text PRIMARY KEY,
  hits integer NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_limit_counters_expires_at_idx ON rate_limit_counters (expires_at);
