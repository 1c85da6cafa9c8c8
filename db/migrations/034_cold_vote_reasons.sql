-- migrate: no-transaction
-- Cold votes say why (docs/decisions/0086-cold-vote-reasons.md). An unlike may carry a
-- reason from a short list; an unlike without one (the spec's clients send none) still counts,
-- but weighs half in the temperature (core/posts/temperature.ts, UNREASONED_UNLIKE_WEIGHT).

-- The reason of a cold vote; a like never has one.
ALTER TABLE likes ADD COLUMN reason text;
ALTER TABLE likes ADD CONSTRAINT likes_reason_check CHECK (
  reason IS NULL
  OR (reaction = 'unlike'
      AND reason IN ('expired', 'not_a_deal', 'cheaper_elsewhere', 'repost', 'spam', 'wrong_price'))
) NOT VALID;
-- Validated in a step of its own, so the scan lets votes through
-- (docs/decisions/0097-safe-upgrades.md).
ALTER TABLE likes VALIDATE CONSTRAINT likes_reason_check;

-- Of the unlikes that count in the temperature (not damped, migration 011), those without a
-- reason. Migration 011 counts at most 2 reactions of one kind per voter key and post; of a key's
-- unlikes, the reasoned ones fill that allowance first. Unlikes with no key (older ones, the demo
-- data) each count on their own.
ALTER TABLE posts ADD COLUMN unreasoned_unlikes int NOT NULL DEFAULT 0;

-- How many of a key's unlikes on a post count without a reason: n unlikes, `reasoned` of them
-- with a reason, at most 2 counting (migration 011's allowance), the reasoned ones first.
CREATE FUNCTION counted_unreasoned_unlikes(n bigint, reasoned bigint) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$ SELECT greatest(0, least(n, 2) - reasoned)::int $$;

-- Keeps posts.unreasoned_unlikes exact whoever changes likes (a vote, a changed or taken-back
-- vote, an account deletion), as migration 011's trigger keeps the damped counts: for the voter
-- key group the old and the new row belong to, the group's count now minus its count before.
CREATE FUNCTION likes_unreasoned_unlikes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  reasoned bigint;
  n_before bigint;
  reasoned_before bigint;
  same_group boolean := false;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.reaction = NEW.reaction
     AND OLD.voter_key IS NOT DISTINCT FROM NEW.voter_key
     AND OLD.reason IS NOT DISTINCT FROM NEW.reason THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.reaction = 'unlike' THEN
    PERFORM 1 FROM posts WHERE id = OLD.post_id FOR UPDATE;
    IF OLD.voter_key IS NULL THEN
      UPDATE posts SET unreasoned_unlikes = unreasoned_unlikes - (OLD.reason IS NULL)::int
       WHERE id = OLD.post_id;
    ELSE
      same_group := TG_OP = 'UPDATE' AND NEW.reaction = 'unlike'
        AND NEW.post_id = OLD.post_id AND NEW.voter_key IS NOT DISTINCT FROM OLD.voter_key;
      SELECT count(*), count(reason) INTO n, reasoned FROM likes
       WHERE post_id = OLD.post_id AND voter_key = OLD.voter_key AND reaction = 'unlike';
      -- Before: the old row in the group, and the new one not.
      n_before := n + 1;
      reasoned_before := reasoned + (OLD.reason IS NOT NULL)::int;
      IF same_group THEN
        n_before := n_before - 1;
        reasoned_before := reasoned_before - (NEW.reason IS NOT NULL)::int;
      END IF;
      UPDATE posts
         SET unreasoned_unlikes = unreasoned_unlikes
           + counted_unreasoned_unlikes(n, reasoned)
           - counted_unreasoned_unlikes(n_before, reasoned_before)
       WHERE id = OLD.post_id;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.reaction = 'unlike' AND NOT same_group THEN
    PERFORM 1 FROM posts WHERE id = NEW.post_id FOR UPDATE;
    IF NEW.voter_key IS NULL THEN
      UPDATE posts SET unreasoned_unlikes = unreasoned_unlikes + (NEW.reason IS NULL)::int
       WHERE id = NEW.post_id;
    ELSE
      SELECT count(*), count(reason) INTO n, reasoned FROM likes
       WHERE post_id = NEW.post_id AND voter_key = NEW.voter_key AND reaction = 'unlike';
      UPDATE posts
         SET unreasoned_unlikes = unreasoned_unlikes
           + counted_unreasoned_unlikes(n, reasoned)
           - counted_unreasoned_unlikes(n - 1, reasoned - (NEW.reason IS NOT NULL)::int)
       WHERE id = NEW.post_id;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER likes_unreasoned_unlikes_trg
  AFTER INSERT OR DELETE OR UPDATE OF reaction, voter_key, reason ON likes
  FOR EACH ROW EXECUTE FUNCTION likes_unreasoned_unlikes();

-- Every unlike so far has no reason. In batches of 10,000 posts, each committed, so posts and
-- likes take writes meanwhile (docs/decisions/0097-safe-upgrades.md). A batch first locks its
-- posts, as the trigger above does before it counts: a vote in flight on one of them has
-- committed (and is in the count), and a later one waits, then adds its change to the count.
-- Run again, a batch counts again from the likes: the same figure.
DO $$
DECLARE
  batch_start bigint := 0;
  last_id     bigint := (SELECT coalesce(max(id), 0) FROM posts);
BEGIN
  WHILE batch_start <= last_id LOOP
    PERFORM 1 FROM posts WHERE id >= batch_start AND id < batch_start + 10000 FOR UPDATE;
    -- Every post of the batch, those left with no unlike too (0, whatever the trigger did).
    UPDATE posts SET unreasoned_unlikes = coalesce(counted.n, 0)
      FROM posts batch
      LEFT JOIN (
        SELECT post_id, sum(n)::int AS n FROM (
          SELECT post_id,
                 CASE WHEN voter_key IS NULL THEN count(*) - count(reason)
                      ELSE counted_unreasoned_unlikes(count(*), count(reason)) END AS n
            FROM likes
           WHERE reaction = 'unlike' AND post_id >= batch_start AND post_id < batch_start + 10000
           GROUP BY post_id, voter_key, CASE WHEN voter_key IS NULL THEN user_id END
        ) per_key
        GROUP BY post_id
      ) counted ON counted.post_id = batch.id
     WHERE batch.id >= batch_start AND batch.id < batch_start + 10000 AND posts.id = batch.id
       AND posts.unreasoned_unlikes <> coalesce(counted.n, 0);
    COMMIT;
    batch_start := batch_start + 10000;
  END LOOP;
END
$$;

-- Trending orders by the temperature (migration 016), which now weighs an unreasoned unlike
-- half: the index's key is the temperature in half votes, as core/posts/temperature-sql.ts
-- writes it in queries.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_heat_idx_next ON posts (
  post_type,
  ((created_at AT TIME ZONE 'UTC')::date) DESC,
  (2 * ((likes_count - damped_likes) - (unlikes_count - damped_unlikes)) + unreasoned_unlikes) DESC,
  hot_score DESC,
  id DESC
) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_heat_idx;
ALTER INDEX IF EXISTS posts_heat_idx_next RENAME TO posts_heat_idx;
