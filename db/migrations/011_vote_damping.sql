-- migrate: no-transaction
-- Repeated votes from one address across accounts are damped in the trending score
-- (docs/decisions/0008-trending-score.md). Each like or unlike keeps a keyed hash of the voter's
-- address (HMAC-SHA256 with the day's random salt; no address is stored, and once the day's salt
-- is gone the keys cannot be tested against addresses). Per post, at most 2 reactions of one kind
-- per key count in hot_score; the rest are counted in posts.damped_likes / damped_unlikes.

CREATE TABLE vote_salts (
  day  date PRIMARY KEY,
  salt text NOT NULL
);

-- NULL: a reaction from before this migration, or from the demo data; each counts on its own.
ALTER TABLE likes ADD COLUMN voter_key text;
CREATE INDEX CONCURRENTLY IF NOT EXISTS likes_voter_idx ON likes (post_id, voter_key, reaction) WHERE voter_key IS NOT NULL;

ALTER TABLE posts
  ADD COLUMN damped_likes   int NOT NULL DEFAULT 0,
  ADD COLUMN damped_unlikes int NOT NULL DEFAULT 0;

-- Keeps damped_likes / damped_unlikes exact whoever changes likes (a vote, a vote taken back, an
-- account deletion): a reaction is damped when more than 2 reactions of its kind on the post share
-- its key. The post row is locked first, so reactions on one post are counted one at a time.
CREATE FUNCTION likes_vote_damping() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_key CONSTANT int := 2;
  same int;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.reaction = NEW.reaction
     AND OLD.voter_key IS NOT DISTINCT FROM NEW.voter_key THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') AND OLD.voter_key IS NOT NULL THEN
    PERFORM 1 FROM posts WHERE id = OLD.post_id FOR UPDATE;
    SELECT count(*) INTO same FROM likes
     WHERE post_id = OLD.post_id AND voter_key = OLD.voter_key AND reaction = OLD.reaction;
    -- Before it went there were same + 1; it was damped when that was over the allowance.
    IF same >= per_key THEN
      UPDATE posts
         SET damped_likes = damped_likes - (OLD.reaction = 'like')::int,
             damped_unlikes = damped_unlikes - (OLD.reaction = 'unlike')::int
       WHERE id = OLD.post_id;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.voter_key IS NOT NULL THEN
    PERFORM 1 FROM posts WHERE id = NEW.post_id FOR UPDATE;
    SELECT count(*) INTO same FROM likes
     WHERE post_id = NEW.post_id AND voter_key = NEW.voter_key AND reaction = NEW.reaction;
    IF same > per_key THEN
      UPDATE posts
         SET damped_likes = damped_likes + (NEW.reaction = 'like')::int,
             damped_unlikes = damped_unlikes + (NEW.reaction = 'unlike')::int
       WHERE id = NEW.post_id;
    END IF;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER likes_vote_damping_trg
  AFTER INSERT OR DELETE OR UPDATE OF reaction, voter_key ON likes
  FOR EACH ROW EXECUTE FUNCTION likes_vote_damping();

-- hot_score always counts the undamped reactions, whichever statement moves a post's counters
-- (likes, comments, views, account deletion): the score's one definition, post_hot_score, gets
-- likes_count - damped_likes and unlikes_count - damped_unlikes.
CREATE FUNCTION posts_hot_score() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.hot_score := post_hot_score(NEW.likes_count - NEW.damped_likes,
                                  NEW.unlikes_count - NEW.damped_unlikes,
                                  NEW.comments_count, NEW.views, NEW.created_at);
  RETURN NEW;
END
$$;

CREATE TRIGGER posts_hot_score_trg
  BEFORE UPDATE OF likes_count, unlikes_count, comments_count, views, damped_likes,
    damped_unlikes, hot_score, created_at ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_hot_score();
