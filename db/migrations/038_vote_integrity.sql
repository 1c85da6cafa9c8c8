-- migrate: no-transaction
-- Vote integrity in the console (docs/decisions/0091-vote-integrity.md).

-- The network a vote came from, as a label: a keyed hash (the site secret "vote-network") of the
-- address's /24 (IPv4) or /48 (IPv6), never the address or the prefix itself. Null for votes from
-- before this migration.
ALTER TABLE likes ADD COLUMN voter_network text;
-- The serial-voting job reads the last day's votes.
CREATE INDEX CONCURRENTLY IF NOT EXISTS likes_created_idx ON likes (created_at);

-- Staff's warnings and voting blocks. A warning has no end; a block ends at ends_at (or when lifted).
CREATE TABLE voting_restrictions (
  id         bigserial PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text        NOT NULL CHECK (kind IN ('warning', 'block')),
  reason     text        NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  ends_at    timestamptz,
  lifted_at  timestamptz,
  CHECK ((kind = 'block') = (ends_at IS NOT NULL)),
  CHECK (lifted_at IS NULL OR kind = 'block')
);
CREATE INDEX voting_restrictions_user_idx ON voting_restrictions (user_id, created_at DESC);

-- The site files serial voting as a report of its own (reporter_id null, as the link check).
ALTER TABLE reports DROP CONSTRAINT reports_reason_check;
ALTER TABLE reports ADD CONSTRAINT reports_reason_check CHECK (
  reason IN ('spam', 'expired', 'wrong price', 'offensive', 'duplicate', 'other', 'serial voting')
);
-- What the site found, as a key ('' for the link check): one open report of the site's per item,
-- reason and finding, so two findings about one member are two reports and one finding is never
-- filed twice while open.
ALTER TABLE reports ADD COLUMN finding text NOT NULL DEFAULT '';
DROP INDEX reports_one_open_system_idx;
CREATE UNIQUE INDEX reports_one_open_system_idx ON reports (item_type, item_id, reason, finding)
  WHERE status = 'open' AND reporter_id IS NULL;
CREATE INDEX reports_finding_idx ON reports (finding, resolved_at DESC) WHERE finding <> '';
