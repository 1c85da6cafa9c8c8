-- migrate: no-transaction
-- Listing pages (docs/decisions/0011-deep-pagination.md): the Filter panel of a store's or a
-- category's deals reads its slider bounds (min/max price and discount) and narrows by price or
-- discount from these indexes instead of the whole list; a category's store checklist (deals per
-- store) is an index-only scan. Only deals (post_type 'd') carry a store and a category.

CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_price_idx       ON posts (store_id, price)       WHERE status = 'active' AND post_type = 'd';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_discount_idx    ON posts (store_id, discount)    WHERE status = 'active' AND post_type = 'd';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_price_idx    ON posts (category_id, price)    WHERE status = 'active' AND post_type = 'd';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_discount_idx ON posts (category_id, discount) WHERE status = 'active' AND post_type = 'd';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_store_idx    ON posts (category_id, store_id) WHERE status = 'active' AND post_type = 'd';
