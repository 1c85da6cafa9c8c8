-- migrate: no-transaction
-- The console's list of posts in its default order, newest first over every status, read from an
-- index instead of sorting every post (docs/decisions/0071-member-post-counts.md). The lists'
-- indexes hold active posts only, and the moderation queue's (migration 013) the others; the
-- console's first view shows both, and at a million deals sorting them took about a second on
-- PostgreSQL, longer in the embedded database's one thread. "Oldest first" reads it backwards.
-- Built CONCURRENTLY, so posts take writes meanwhile (docs/decisions/0097-safe-upgrades.md).
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_console_newest_idx ON posts (created_at DESC, id DESC);
-- Discussions are few among a million deals: filtered by type, they would be looked for along the
-- whole of the index above.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_console_discussions_idx ON posts (created_at DESC, id DESC)
  WHERE post_type = 'g';
