-- migrate: no-transaction
-- A member's posts, and every post by status, store, category and forum category, counted as
-- posts change, beside the listings' totals of migration 022
-- (docs/decisions/0071-member-post-counts.md).
--
-- A profile shows how many live deals and coupons its member has posted (its pagination's last
-- page follows from them); the console's lists of members, stores, categories and forum
-- categories how many posts each has, and its list of posts how many match its status and type
-- filters. Counted, each is a walk of the member's posts or of every post: nothing on a small
-- site, but some 23,000 rows a count for a generated member at a million deals and a million for
-- the console's lists (0.03-0.6 s on PostgreSQL, and on the embedded database in its one thread,
-- which every other page waits for). Kept here, each is one row read. The keys:
--   'user:<id>:<kind>'        ('user:7:deal', 'user:7:coupon', 'user:7:discussion'): active
--                             posts, expired or not, as the profile counts them;
--   'user:<id>:all', 'store:<id>:all', 'category:<id>:all', 'forum-category:<id>:all':
--                             every post of the member, store, category or forum category
--                             whatever its status, as the console counts them;
--   'status:<status>:<type>'  ('status:pending:d') every post by status and type.
-- The ':all' and 'status:' keys are the table's only ones that are not of active posts only.

CREATE FUNCTION post_scope_keys(post_type text, store_id bigint, category_id bigint,
                                expired boolean, user_id bigint, kind text)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(
    post_scope_keys(post_type, store_id, category_id, expired) || ('user:' || user_id || ':' || kind),
    NULL)
$$;

-- The keys a post is counted in whatever its status: its member's, store's, category's and forum
-- category's 'all' (each only when it has one) and its status and type.
CREATE FUNCTION post_every_status_keys(user_id bigint, status text, post_type text,
                                       store_id bigint, category_id bigint,
                                       forum_category_id bigint)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(ARRAY[
    'user:' || user_id || ':all',
    'store:' || store_id || ':all',
    'category:' || category_id || ':all',
    'forum-category:' || forum_category_id || ':all',
    'status:' || status || ':' || post_type
  ], NULL)
$$;

-- The listings' keys of migration 022 stay exact throughout; the new keys are counted while the
-- site takes posts, as migration 022 counted its own (docs/decisions/0097-safe-upgrades.md): the
-- posts there are when the trigger changes are counted in the new keys in batches of ids, and
-- until its batch is counted a post's changes touch only the listings' keys.
CREATE TABLE IF NOT EXISTS post_scope_counts_backfill (
  id            int    PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  counted_below bigint NOT NULL,
  started_above bigint NOT NULL
);

CREATE OR REPLACE FUNCTION post_scope_counted(post_id bigint) RETURNS boolean
  LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT post_id < counted_below OR post_id > started_above
                     FROM post_scope_counts_backfill), true)
$$;

CREATE OR REPLACE FUNCTION posts_scope_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  left_keys   text[] := '{}';
  joined_keys text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' THEN
    IF post_scope_counted(OLD.id) THEN
      left_keys := post_every_status_keys(OLD.user_id, OLD.status, OLD.post_type, OLD.store_id,
                                          OLD.category_id, OLD.forum_category_id);
      IF OLD.status = 'active' THEN
        left_keys := left_keys || post_scope_keys(OLD.post_type, OLD.store_id, OLD.category_id,
                                                  OLD.expired, OLD.user_id, OLD.kind);
      END IF;
    ELSIF OLD.status = 'active' THEN
      -- Not counted in the new keys yet (below): only the listings' keys of migration 022.
      left_keys := post_scope_keys(OLD.post_type, OLD.store_id, OLD.category_id, OLD.expired);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    IF post_scope_counted(NEW.id) THEN
      joined_keys := post_every_status_keys(NEW.user_id, NEW.status, NEW.post_type, NEW.store_id,
                                            NEW.category_id, NEW.forum_category_id);
      IF NEW.status = 'active' THEN
        joined_keys := joined_keys || post_scope_keys(NEW.post_type, NEW.store_id,
                                                      NEW.category_id, NEW.expired, NEW.user_id,
                                                      NEW.kind);
      END IF;
    ELSIF NEW.status = 'active' THEN
      joined_keys := post_scope_keys(NEW.post_type, NEW.store_id, NEW.category_id, NEW.expired);
    END IF;
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

-- A post moved to another member or forum category, or made a coupon, changes counts too.
CREATE OR REPLACE TRIGGER posts_scope_counts_update_trg
  AFTER UPDATE OF status, post_type, store_id, category_id, expired, user_id, kind,
                  forum_category_id ON posts
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD.post_type IS DISTINCT FROM NEW.post_type
     OR OLD.store_id IS DISTINCT FROM NEW.store_id
     OR OLD.category_id IS DISTINCT FROM NEW.category_id
     OR OLD.expired IS DISTINCT FROM NEW.expired
     OR OLD.user_id IS DISTINCT FROM NEW.user_id
     OR OLD.kind IS DISTINCT FROM NEW.kind
     OR OLD.forum_category_id IS DISTINCT FROM NEW.forum_category_id)
  EXECUTE FUNCTION posts_scope_counts();

CREATE OR REPLACE FUNCTION refresh_post_scope_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_scope_counts;
  INSERT INTO post_scope_counts (scope, total)
    SELECT key, count(*)
      FROM posts,
           unnest(post_every_status_keys(user_id, status, post_type, store_id, category_id,
                                         forum_category_id) ||
                  CASE WHEN status = 'active'
                       THEN post_scope_keys(post_type, store_id, category_id, expired, user_id, kind)
                       ELSE '{}'::text[] END) AS key
     GROUP BY key;
$$;

-- The posts there are now: the triggers count every later one, and their changes.
INSERT INTO post_scope_counts_backfill (counted_below, started_above)
  SELECT 0, coalesce(max(id), 0) FROM posts;

-- The new keys of the posts there were, in batches of 10,000 ids, each committed: a run stopped
-- halfway goes on from counted_below.
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
        FROM posts,
             unnest(post_every_status_keys(user_id, status, post_type, store_id, category_id,
                                           forum_category_id) ||
                    CASE WHEN status = 'active'
                         THEN array_remove(ARRAY['user:' || user_id || ':' || kind], NULL)
                         ELSE '{}'::text[] END) AS key
       WHERE id >= batch_start AND id < batch_start + 10000 AND id <= last_id
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
