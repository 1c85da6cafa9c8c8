-- migrate: no-transaction
-- Sorted listings (core/deals/deal-sort.ts, docs/decisions/0011-deep-pagination.md).
-- Every sort of every listing scope is one index walk, and its deep pages seek by a row
-- comparison on (sort key, id) from remembered anchors, as newest-first lists already did with
-- posts_recent_idx / posts_store_idx / posts_category_idx (migration 001) and trending with
-- posts_hot_idx. The key expressions are written exactly as core/deals/deal-sort.ts writes them.
--   hot:      hot_score                                 (hottest first)
--   discount: coalesce(discount, -1)                    (top discount first, none last)
--   price:    coalesce(- price, -1000000000000)         (lowest price first, none last)

CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_hot_idx ON posts (store_id, hot_score DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_hot_idx ON posts (category_id, hot_score DESC, id DESC) WHERE status = 'active';

CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_discount_sort_idx ON posts (post_type, (coalesce(discount, -1)) DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_discount_sort_idx ON posts (store_id, (coalesce(discount, -1)) DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_discount_sort_idx ON posts (category_id, (coalesce(discount, -1)) DESC, id DESC) WHERE status = 'active';

CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_price_sort_idx ON posts (post_type, (coalesce(- price, -1000000000000)) DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_price_sort_idx ON posts (store_id, (coalesce(- price, -1000000000000)) DESC, id DESC) WHERE status = 'active';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_price_sort_idx ON posts (category_id, (coalesce(- price, -1000000000000)) DESC, id DESC) WHERE status = 'active';

-- The store and category lists (/store, /category) show each tile's count of live deals: one
-- grouped, index-only count over a page's 20 stores or categories.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_live_idx ON posts (store_id, expires_at) WHERE status = 'active' AND post_type = 'd';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_live_idx ON posts (category_id, expires_at) WHERE status = 'active' AND post_type = 'd';
