-- migrate: no-transaction
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

-- Counted while the site takes posts (docs/decisions/0097-safe-upgrades.md): the posts there are
-- when the triggers below appear are counted in batches of ids, from the lowest up, by the DO block
-- at the end; until its batch is counted, a post's changes are not counted either (its batch will
-- count the row as it is then). A post added since (a higher id) is counted by the triggers. Each
-- batch holds its rows FOR SHARE while it counts them, so a change of one of them waits for the
-- batch to commit and is then counted as a change of a counted post. One row says how far the
-- counting has come; with no row, every post is counted.
CREATE TABLE post_scope_counts_backfill (
  id            int    PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  counted_below bigint NOT NULL,
  started_above bigint NOT NULL
);

CREATE FUNCTION post_scope_counted(post_id bigint) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT post_id < counted_below OR post_id > started_above
                     FROM post_scope_counts_backfill), true)
$$;

-- A row leaves the scopes it was counted in and joins those it is counted in now. Keys are
-- upserted in one order, so two writers of posts never wait on each other's count rows in a cycle.
CREATE FUNCTION posts_scope_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  left_keys   text[] := '{}';
  joined_keys text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status = 'active' AND post_scope_counted(OLD.id) THEN
    left_keys := post_scope_keys(OLD.post_type, OLD.store_id, OLD.category_id, OLD.expired);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'active' AND post_scope_counted(NEW.id) THEN
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

-- Every count from scratch, after a bulk load that turns the row triggers off (db/demo/large.ts).
-- Not for a site taking posts meanwhile: it would miss their changes.
CREATE FUNCTION refresh_post_scope_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_scope_counts;
  INSERT INTO post_scope_counts (scope, total)
    SELECT key, count(*)
      FROM posts, unnest(post_scope_keys(post_type, store_id, category_id, expired)) AS key
     WHERE status = 'active'
     GROUP BY key;
$$;

-- The posts there are now: the triggers count every later one, and their changes.
INSERT INTO post_scope_counts_backfill (counted_below, started_above)
  SELECT 0, coalesce(max(id), 0) FROM posts;

-- In batches of 10,000 ids, each committed: a run stopped halfway goes on from counted_below.
DO $$
DECLARE
  batch_start bigint;
  last_id     bigint;
BEGIN
  LOOP
    SELECT counted_below, started_above INTO batch_start, last_id FROM post_scope_counts_backfill;
    EXIT WHEN batch_start IS NULL OR batch_start > last_id;
    -- Up to last_id only: a post added since is the triggers' to count.
    PERFORM 1 FROM posts
     WHERE id >= batch_start AND id < batch_start + 10000 AND id <= last_id FOR SHARE;
    INSERT INTO post_scope_counts AS counts (scope, total)
      SELECT key, count(*)
        FROM posts, unnest(post_scope_keys(post_type, store_id, category_id, expired)) AS key
       WHERE id >= batch_start AND id < batch_start + 10000 AND id <= last_id AND status = 'active'
       GROUP BY key
       ORDER BY key
    ON CONFLICT (scope) DO UPDATE SET total = counts.total + EXCLUDED.total;
    UPDATE post_scope_counts_backfill SET counted_below = batch_start + 10000;
    COMMIT;
  END LOOP;
END
$$;

-- Every post is counted: the check answers true without a read. The table stays, empty: a write
-- that began before this step may still run the check's former body, which reads it.
DELETE FROM post_scope_counts_backfill;
CREATE OR REPLACE FUNCTION post_scope_counted(post_id bigint) RETURNS boolean
  LANGUAGE sql IMMUTABLE AS $$ SELECT true $$;
