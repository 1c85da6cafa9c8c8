-- migrate: no-transaction
-- Freshness (docs/decisions/0038-freshness-and-link-check.md): when a deal was last
-- seen to work, members' answers on coupons, and the background link check's last result.

-- When someone last saw the deal work: set at posting (the row's created_at, whatever clock the
-- writer used), then by a member's "still works", a coupon that worked, or a link check that
-- succeeded. Cards read it with the rest of the row: no join, no subquery.
ALTER TABLE posts ADD COLUMN last_verified_at timestamptz;
-- Who verified it last: 'posted', 'member' (still works), 'coupon' (worked), 'link_check'.
ALTER TABLE posts ADD COLUMN last_verified_by text NOT NULL DEFAULT 'posted'
  CHECK (last_verified_by IN ('posted', 'member', 'coupon', 'link_check'));

-- Every writer of posts (submissions, the demo data, tests' factories) gets the posting time
-- without naming the column.
CREATE FUNCTION posts_last_verified_default() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.last_verified_at := coalesce(NEW.last_verified_at, NEW.created_at, now());
  RETURN NEW;
END
$$;
CREATE TRIGGER posts_last_verified_default_trg BEFORE INSERT ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_last_verified_default();

-- The posts there were, in batches of 10,000 ids, each committed, so posts take writes meanwhile
-- (docs/decisions/0097-safe-upgrades.md); run again, it finds what is left. New ones get theirs
-- from the trigger above.
DO $$
DECLARE
  batch_start bigint := 0;
  last_id     bigint := (SELECT coalesce(max(id), 0) FROM posts);
BEGIN
  WHILE batch_start <= last_id LOOP
    UPDATE posts SET last_verified_at = created_at
     WHERE id >= batch_start AND id < batch_start + 10000 AND last_verified_at IS NULL;
    COMMIT;
    batch_start := batch_start + 10000;
  END LOOP;
END
$$;

-- NOT NULL without a scan under the table's strongest lock: a CHECK added NOT VALID, validated
-- in a step of its own (which lets writes through), then trusted by SET NOT NULL.
ALTER TABLE posts ADD CONSTRAINT posts_last_verified_at_present
  CHECK (last_verified_at IS NOT NULL) NOT VALID;
ALTER TABLE posts VALIDATE CONSTRAINT posts_last_verified_at_present;
ALTER TABLE posts ALTER COLUMN last_verified_at SET NOT NULL;
ALTER TABLE posts DROP CONSTRAINT posts_last_verified_at_present;

-- Worked / Didn't work on coupon deals: one answer per member and deal (a later one replaces the
-- earlier, with its time). The deal page counts the last 30 days by post: one index range.
CREATE TABLE coupon_feedback (
  post_id     bigint      NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id     bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  worked      boolean     NOT NULL,
  answered_at timestamptz NOT NULL,
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX coupon_feedback_recent_idx ON coupon_feedback (post_id, answered_at DESC)
  INCLUDE (worked);
CREATE INDEX coupon_feedback_user_idx ON coupon_feedback (user_id);

-- The link check's last result per deal (one row, replaced at each check).
CREATE TABLE link_checks (
  post_id     bigint      PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
  checked_at  timestamptz NOT NULL,
  -- The final answer's HTTP status; null when none came (timeout, refused, blocked address).
  http_status int,
  outcome     text        NOT NULL
              CHECK (outcome IN ('ok', 'not_found', 'redirected_home', 'blocked', 'failed')),
  -- The last address reached (after redirects), and a short explanation for moderators.
  final_url   text        NOT NULL DEFAULT '',
  detail      text        NOT NULL DEFAULT ''
);

-- The site itself reports (a link check that finds a dead deal): no reporter. At most one open
-- report of the site's per item, as members have one each.
ALTER TABLE reports ALTER COLUMN reporter_id DROP NOT NULL;
CREATE UNIQUE INDEX reports_one_open_system_idx ON reports (item_type, item_id)
  WHERE status = 'open' AND reporter_id IS NULL;
