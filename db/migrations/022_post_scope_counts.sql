-- Listing totals kept as posts change, instead of counted (docs/decisions/0042-listing-counts.md).
--
-- A listing's page count needs how many posts its scope holds: every post of a type, one store's,
-- one category's, each in whole or its live part ("Hide expired", the home lists). Counted, that
-- is a scan of the scope: 0.5–1.8 s for all deals at a million, in the server's own thread on the
-- embedded database, every time the list caches were dropped (each minute a deal ends). Kept here
-- by triggers, it is one row read, exact at once, and costs a writer of posts a few row upserts.
--
-- The keys are those of core/deals/deal-scope.ts scopeKey: 'type:d', 'store:12', 'category:3',
-- each also with ':live' (not posts.expired). Only active posts count, as in the lists.
CREATE TABLE post_scope_counts (
  scope text   PRIMARY KEY,
  total bigint NOT NULL
);

CREATE FUNCTION post_scope_keys(post_type text, store_id bigint, category_id bigint, expired boolean)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    'type:' || post_type,
    'store:' || store_id,
    'category:' || category_id,
    CASE WHEN NOT expired THEN 'type:' || post_type || ':live' END,
    CASE WHEN NOT expired THEN 'store:' || store_id || ':live' END,
    CASE WHEN NOT expired THEN 'category:' || category_id || ':live' END
  ], NULL)
$$;

-- A row leaves the scopes it was counted in and joins those it is counted in now. Keys are
-- upserted in one order, so two writers of posts never wait on each other's count rows in a cycle.
CREATE FUNCTION posts_scope_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  left_keys   text[] := '{}';
  joined_keys text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status = 'active' THEN
    left_keys := post_scope_keys(OLD.post_type, OLD.store_id, OLD.category_id, OLD.expired);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'active' THEN
    joined_keys := post_scope_keys(NEW.post_type, NEW.store_id, NEW.category_id, NEW.expired);
  END IF;
  INSERT INTO post_scope_counts AS counts (scope, total)
    SELECT key, sum(delta)
      FROM (SELECT unnest(left_keys) AS key, -1 AS delta
            UNION ALL
            SELECT unnest(joined_keys), 1) AS changes
     GROUP BY key
    HAVING sum(delta) <> 0
     ORDER BY key
  ON CONFLICT (scope) DO UPDATE SET total = counts.total + EXCLUDED.total;
  RETURN NULL;
END
$$;

CREATE TRIGGER posts_scope_counts_trg AFTER INSERT OR DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_scope_counts();
CREATE TRIGGER posts_scope_counts_update_trg
  AFTER UPDATE OF status, post_type, store_id, category_id, expired ON posts
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD.post_type IS DISTINCT FROM NEW.post_type
     OR OLD.store_id IS DISTINCT FROM NEW.store_id
     OR OLD.category_id IS DISTINCT FROM NEW.category_id
     OR OLD.expired IS DISTINCT FROM NEW.expired)
  EXECUTE FUNCTION posts_scope_counts();

CREATE FUNCTION posts_scope_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM post_scope_counts;
  RETURN NULL;
END
$$;
CREATE TRIGGER posts_scope_counts_truncate_trg AFTER TRUNCATE ON posts
  FOR EACH STATEMENT EXECUTE FUNCTION posts_scope_counts_truncated();

-- Every count from scratch: here, and after a bulk load that turns the row triggers off
-- (db/demo/large.ts). Not for a site taking posts meanwhile: it would miss their changes.
CREATE FUNCTION refresh_post_scope_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_scope_counts;
  INSERT INTO post_scope_counts (scope, total)
    SELECT key, count(*)
      FROM posts, unnest(post_scope_keys(post_type, store_id, category_id, expired)) AS key
     WHERE status = 'active'
     GROUP BY key;
$$;

SELECT refresh_post_scope_counts();
