-- migrate: no-transaction
-- Expiry (docs/decisions/0037-deal-expiry.md).
--
-- posts.expired is whether a deal has ended, kept by the minute sweep (job "deals.expiry",
-- core/expiry/sweep.ts) from expires_at, and set at once when members or a moderator expire a deal.
-- Lists put live deals first in every sort: each sort index leads, after its scope, with
-- (NOT expired) DESC, so one row comparison ((NOT expired), key, id) <= (L, K, I) still seeks
-- to any place in one index walk (docs/decisions/0011-deep-pagination.md), and "Hide expired"
-- is the index's live prefix. The expressions are written as core/deals/deal-sort.ts writes them.
ALTER TABLE posts ADD COLUMN expired boolean NOT NULL DEFAULT false;
-- Deals already ended, in batches of 10,000 ids, each committed, so posts take writes meanwhile
-- (docs/decisions/0097-safe-upgrades.md); run again, it finds what is left. A deal that ends
-- meanwhile is the minute sweep's.
DO $$
DECLARE
  batch_start bigint := 0;
  last_id     bigint := (SELECT coalesce(max(id), 0) FROM posts);
BEGIN
  WHILE batch_start <= last_id LOOP
    UPDATE posts SET expired = true
     WHERE id >= batch_start AND id < batch_start + 10000
       AND NOT expired AND expires_at IS NOT NULL AND expires_at <= now();
    COMMIT;
    batch_start := batch_start + 10000;
  END LOOP;
END
$$;

-- The sweep: deals whose end has come but are not marked yet, and marked ones given a new end.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_expiring_idx ON posts (expires_at) WHERE NOT expired AND expires_at IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_expired_idx ON posts (expires_at) WHERE expired;

-- Newest first, live first (the feeds, sitemaps and console keep walking posts_recent_idx,
-- posts_store_idx and posts_category_idx of migration 001).
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_live_recent_idx ON posts (post_type, (NOT expired) DESC, created_at DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_live_store_idx ON posts (store_id, (NOT expired) DESC, created_at DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_live_category_idx ON posts (category_id, (NOT expired) DESC, created_at DESC, id DESC) WHERE status = 'active';

-- Hot, top discount and lowest price: the indexes of migrations 001 and 015 with the live lead.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_hot_idx_next ON posts (post_type, (NOT expired) DESC, hot_score DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_hot_idx;
ALTER INDEX IF EXISTS posts_hot_idx_next RENAME TO posts_hot_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_hot_idx_next ON posts (store_id, (NOT expired) DESC, hot_score DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_store_hot_idx;
ALTER INDEX IF EXISTS posts_store_hot_idx_next RENAME TO posts_store_hot_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_hot_idx_next ON posts (category_id, (NOT expired) DESC, hot_score DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_category_hot_idx;
ALTER INDEX IF EXISTS posts_category_hot_idx_next RENAME TO posts_category_hot_idx;

CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_discount_sort_idx_next ON posts (post_type, (NOT expired) DESC, (coalesce(discount, -1)) DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_discount_sort_idx;
ALTER INDEX IF EXISTS posts_discount_sort_idx_next RENAME TO posts_discount_sort_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_discount_sort_idx_next ON posts (store_id, (NOT expired) DESC, (coalesce(discount, -1)) DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_store_discount_sort_idx;
ALTER INDEX IF EXISTS posts_store_discount_sort_idx_next RENAME TO posts_store_discount_sort_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_discount_sort_idx_next ON posts (category_id, (NOT expired) DESC, (coalesce(discount, -1)) DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_category_discount_sort_idx;
ALTER INDEX IF EXISTS posts_category_discount_sort_idx_next RENAME TO posts_category_discount_sort_idx;

CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_price_sort_idx_next ON posts (post_type, (NOT expired) DESC, (coalesce(- price, -1000000000000)) DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_price_sort_idx;
ALTER INDEX IF EXISTS posts_price_sort_idx_next RENAME TO posts_price_sort_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_price_sort_idx_next ON posts (store_id, (NOT expired) DESC, (coalesce(- price, -1000000000000)) DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_store_price_sort_idx;
ALTER INDEX IF EXISTS posts_store_price_sort_idx_next RENAME TO posts_store_price_sort_idx;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_price_sort_idx_next ON posts (category_id, (NOT expired) DESC, (coalesce(- price, -1000000000000)) DESC, id DESC) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_category_price_sort_idx;
ALTER INDEX IF EXISTS posts_category_price_sort_idx_next RENAME TO posts_category_price_sort_idx;

-- "Expired?" marks: one per member and deal. Enough distinct members (the setting below) expire it;
-- reopening a deal clears its marks.
CREATE TABLE expiry_marks (
  post_id    integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX expiry_marks_user_idx ON expiry_marks (user_id);

ALTER TABLE general_settings
  ADD COLUMN expiry_mark_threshold integer NOT NULL DEFAULT 3;
