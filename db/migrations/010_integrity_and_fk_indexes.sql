-- migrate: no-transaction
-- Indexes behind foreign keys that are deleted through (ON DELETE CASCADE / SET NULL would
-- otherwise scan the whole table per deleted row), a renamed store or category refreshing the
-- search document of its posts, and the subscription statuses the product knows.

CREATE INDEX CONCURRENTLY IF NOT EXISTS comments_parent_idx           ON comments (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_store_all_idx           ON posts (store_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_category_all_idx        ON posts (category_id);
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_forum_category_idx      ON posts (forum_category_id);
CREATE INDEX contact_messages_user_idx     ON contact_messages (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX media_user_idx                ON media (user_id) WHERE user_id IS NOT NULL;

-- posts.search holds the store and category names; a rename rewrites it through the posts trigger
-- (which fires on an UPDATE that names store_id / category_id).
CREATE FUNCTION refresh_post_search_for_store() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE posts SET store_id = store_id WHERE store_id = NEW.id;
  RETURN NULL;
END
$$;

CREATE FUNCTION refresh_post_search_for_category() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE posts SET category_id = category_id WHERE category_id = NEW.id;
  RETURN NULL;
END
$$;

CREATE TRIGGER stores_rename_refreshes_search AFTER UPDATE OF title ON stores
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION refresh_post_search_for_store();
CREATE TRIGGER categories_rename_refreshes_search AFTER UPDATE OF title ON categories
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION refresh_post_search_for_category();

ALTER TABLE subscriptions
  ADD CONSTRAINT subscriptions_status_check CHECK (status IN ('Active', 'Pending', 'Cancelled'));
