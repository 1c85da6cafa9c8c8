-- migrate: no-transaction
-- A vote weighs by its voter's reputation level (docs/decisions/0090-vote-weight.md): each vote
-- keeps the weight it was cast with (core/people/reputation/privileges.ts, voteWeightOf: 1 to 3),
-- and the temperature counts a vote of weight w as w votes. The like and unlike counts shown stay
-- the plain counts; only the temperature weighs.

-- The weight a vote was cast with; a changed vote is cast again and re-weighed. Every vote so far
-- weighs 1.
ALTER TABLE likes ADD COLUMN weight smallint NOT NULL DEFAULT 1
  CONSTRAINT likes_weight_check CHECK (weight BETWEEN 1 AND 3);

-- What the weights add to the temperature beyond one vote each, in half votes (the unit of
-- migration 034's index): a counted vote of weight w adds 2·(w − 1) for a like, −2·(w − 1) for an
-- unlike with a reason and −(w − 1) for one without (it weighs half, record 0086). Damped votes
-- (migration 011: at most 2 of one kind per voter key and post) add nothing. Of a key's votes of
-- one kind, those that count carry their weight: for unlikes, the reasoned ones first (as migration
-- 034 counts them), then the heaviest; for likes, the heaviest. So a damped ring of accounts cannot
-- weigh more than its two heaviest counted votes.
ALTER TABLE posts ADD COLUMN weight_bonus int NOT NULL DEFAULT 0;

-- The bonus of one vote, in half votes, were it counted.
CREATE FUNCTION vote_weight_bonus(reaction text, weight int, reason text) RETURNS int
  LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN reaction = 'like' THEN 2 * (weight - 1)
    WHEN reason IS NOT NULL THEN -2 * (weight - 1)
    ELSE -(weight - 1)
  END
$$;

-- The bonus of a voter key's votes of one kind on a post: the likes rows of the group, leaving out
-- the row of `skip_user` (if any) and adding a row (`add_weight`, `add_reason`; none when
-- `add_weight` is null), so that a trigger can reckon the group as it was before a change. The two
-- that count (migration 011's allowance) are the reasoned ones first, then the heaviest.
CREATE FUNCTION vote_group_weight_bonus(
  p_post bigint, p_key text, p_reaction text, skip_user bigint, add_weight int, add_reason text
) RETURNS int LANGUAGE sql STABLE AS $$
  SELECT coalesce(sum(vote_weight_bonus(p_reaction, g.weight, g.reason)), 0)::int FROM (
    SELECT votes.weight, votes.reason FROM (
      SELECT l.weight::int AS weight, l.reason FROM likes l
       WHERE l.post_id = p_post AND l.voter_key = p_key AND l.reaction = p_reaction
         AND l.user_id IS DISTINCT FROM skip_user
      UNION ALL
      SELECT add_weight, add_reason WHERE add_weight IS NOT NULL
    ) votes
    ORDER BY (votes.reason IS NOT NULL) DESC, votes.weight DESC
    LIMIT 2
  ) g
$$;

-- Keeps posts.weight_bonus exact whoever changes likes (a vote, a changed, re-weighed or
-- taken-back vote, an account deletion), as migration 034's trigger keeps unreasoned_unlikes: for
-- the voter key group of the old row and of the new one, its bonus now minus its bonus before.
CREATE FUNCTION likes_weight_bonus() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  same_group boolean := false;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.reaction = NEW.reaction
     AND OLD.voter_key IS NOT DISTINCT FROM NEW.voter_key
     AND OLD.reason IS NOT DISTINCT FROM NEW.reason
     AND OLD.weight = NEW.weight THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    PERFORM 1 FROM posts WHERE id = OLD.post_id FOR UPDATE;
    IF OLD.voter_key IS NULL THEN
      UPDATE posts
         SET weight_bonus = weight_bonus - vote_weight_bonus(OLD.reaction, OLD.weight, OLD.reason)
       WHERE id = OLD.post_id;
    ELSE
      same_group := TG_OP = 'UPDATE' AND NEW.post_id = OLD.post_id
        AND NEW.voter_key IS NOT DISTINCT FROM OLD.voter_key AND NEW.reaction = OLD.reaction;
      -- Before: the old row in the group, and the new one (when in it) not.
      UPDATE posts
         SET weight_bonus = weight_bonus
           + vote_group_weight_bonus(OLD.post_id, OLD.voter_key, OLD.reaction, NULL, NULL, NULL)
           - vote_group_weight_bonus(OLD.post_id, OLD.voter_key, OLD.reaction,
               CASE WHEN same_group THEN NEW.user_id END, OLD.weight, OLD.reason)
       WHERE id = OLD.post_id;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NOT same_group THEN
    PERFORM 1 FROM posts WHERE id = NEW.post_id FOR UPDATE;
    IF NEW.voter_key IS NULL THEN
      UPDATE posts
         SET weight_bonus = weight_bonus + vote_weight_bonus(NEW.reaction, NEW.weight, NEW.reason)
       WHERE id = NEW.post_id;
    ELSE
      UPDATE posts
         SET weight_bonus = weight_bonus
           + vote_group_weight_bonus(NEW.post_id, NEW.voter_key, NEW.reaction, NULL, NULL, NULL)
           - vote_group_weight_bonus(NEW.post_id, NEW.voter_key, NEW.reaction,
               NEW.user_id, NULL, NULL)
       WHERE id = NEW.post_id;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER likes_weight_bonus_trg
  AFTER INSERT OR DELETE OR UPDATE OF reaction, voter_key, reason, weight ON likes
  FOR EACH ROW EXECUTE FUNCTION likes_weight_bonus();

-- Every vote so far weighs 1, so every post's bonus is 0, the column's default: nothing to
-- backfill.

-- Trending orders by the temperature (migrations 016, 034): the index's key is the temperature in
-- half votes with the weights' bonus, as core/posts/temperature-sql.ts writes it in queries.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_heat_idx_next ON posts (
  post_type,
  ((created_at AT TIME ZONE 'UTC')::date) DESC,
  (2 * ((likes_count - damped_likes) - (unlikes_count - damped_unlikes)) + unreasoned_unlikes
    + weight_bonus) DESC,
  hot_score DESC,
  id DESC
) WHERE status = 'active';
DROP INDEX CONCURRENTLY IF EXISTS posts_heat_idx;
ALTER INDEX IF EXISTS posts_heat_idx_next RENAME TO posts_heat_idx;
