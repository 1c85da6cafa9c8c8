-- migrate: no-transaction
-- Saved deals, followed stores and categories, and the personal feed (see
-- docs/decisions/0043-saved-deals-and-feed.md).
--
-- A member's saves and follows go when the member, the deal, the store or the category goes.
CREATE TABLE saved_deals (
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  post_id    bigint      NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, post_id)
);
-- /user/saved: newest saved first, paged.
CREATE INDEX saved_deals_user_recent_idx ON saved_deals (user_id, created_at DESC, post_id DESC);
CREATE INDEX saved_deals_post_idx ON saved_deals (post_id);

CREATE TABLE store_follows (
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  store_id   bigint      NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, store_id)
);
CREATE INDEX store_follows_store_idx ON store_follows (store_id);

CREATE TABLE category_follows (
  user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  category_id bigint      NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, category_id)
);
CREATE INDEX category_follows_category_idx ON category_follows (category_id);

-- The feed walks each followed scope newest first and merges the walks (core/following).
-- Stores and categories have posts_store_idx and posts_category_idx (migration 001: only deals
-- carry a store or a category). A followed member's deals need their own index: posts_user_idx
-- holds every status and forum posts too.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_feed_user_idx ON posts (user_id, created_at DESC, id DESC)
  WHERE status = 'active' AND post_type = 'd';
