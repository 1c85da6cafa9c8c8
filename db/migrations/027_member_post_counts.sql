-- A member's deals and coupons counted as posts change, beside the listings' totals of migration
-- 022 (docs/decisions/0071-member-post-counts.md).
--
-- A profile shows how many live deals and coupons its member has posted, and its pagination's
-- last page follows from them. Counted, each is a walk of posts_user_idx with a heap visit per
-- post: nothing for a member with a dozen posts, but about 46,000 visits a profile page for a
-- generated member at a million deals, in the embedded database's one thread. Kept here, it is
-- one row read. The keys are 'user:<id>:<kind>' ('user:7:deal', 'user:7:coupon',
-- 'user:7:discussion'), active posts only, expired or not, as the profile counts them.

CREATE FUNCTION post_scope_keys(post_type text, store_id bigint, category_id bigint,
                                expired boolean, user_id bigint, kind text)
RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_remove(
    post_scope_keys(post_type, store_id, category_id, expired) || ('user:' || user_id || ':' || kind),
    NULL)
$$;

CREATE OR REPLACE FUNCTION posts_scope_counts() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  left_keys   text[] := '{}';
  joined_keys text[] := '{}';
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.status = 'active' THEN
    left_keys := post_scope_keys(OLD.post_type, OLD.store_id, OLD.category_id, OLD.expired,
                                 OLD.user_id, OLD.kind);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.status = 'active' THEN
    joined_keys := post_scope_keys(NEW.post_type, NEW.store_id, NEW.category_id, NEW.expired,
                                   NEW.user_id, NEW.kind);
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

-- A post moved to another member or made a coupon changes the member's counts too.
DROP TRIGGER posts_scope_counts_update_trg ON posts;
CREATE TRIGGER posts_scope_counts_update_trg
  AFTER UPDATE OF status, post_type, store_id, category_id, expired, user_id, kind ON posts
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
     OR OLD.post_type IS DISTINCT FROM NEW.post_type
     OR OLD.store_id IS DISTINCT FROM NEW.store_id
     OR OLD.category_id IS DISTINCT FROM NEW.category_id
     OR OLD.expired IS DISTINCT FROM NEW.expired
     OR OLD.user_id IS DISTINCT FROM NEW.user_id
     OR OLD.kind IS DISTINCT FROM NEW.kind)
  EXECUTE FUNCTION posts_scope_counts();

CREATE OR REPLACE FUNCTION refresh_post_scope_counts() RETURNS void LANGUAGE sql AS $$
  DELETE FROM post_scope_counts;
  INSERT INTO post_scope_counts (scope, total)
    SELECT key, count(*)
      FROM posts,
           unnest(post_scope_keys(post_type, store_id, category_id, expired, user_id, kind)) AS key
     WHERE status = 'active'
     GROUP BY key;
$$;

SELECT refresh_post_scope_counts();
