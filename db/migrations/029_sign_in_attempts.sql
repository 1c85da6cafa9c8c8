-- Failed sign-ins per account, whatever the client's address, so that guessing one member's
-- password is slowed and then refused for a while (docs/decisions/0073-sign-in-guessing-limits.md).
-- A row is keyed by the SHA-256 of the normalised address (trimmed, lower-case), known or not:
-- unknown addresses are counted like known ones, so the answers never tell them apart, and the
-- table holds no address in clear. Every server process and host shares it.
CREATE TABLE sign_in_attempts (
  address_hash    text        PRIMARY KEY,
  -- Failures since the count last started again (a success, a reset, a lock that ended, or an
  -- hour without failures starts it again).
  failures        integer     NOT NULL CHECK (failures >= 0),
  last_failure_at timestamptz NOT NULL,
  -- No attempt is checked before this: a growing delay after a few failures, then the lock.
  retry_at        timestamptz,
  -- When the member was told of this lock by mail (once per lock).
  lock_mailed_at  timestamptz
);
-- The nightly sweep deletes rows nobody has failed on for a while.
CREATE INDEX sign_in_attempts_last_failure_idx ON sign_in_attempts (last_failure_at);
