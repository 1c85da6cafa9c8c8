-- migrate: no-transaction
-- Likes on comments (docs/decisions/0092-comment-likes.md): one per member and comment. Each
-- like on a member's comment from another member earns them a point (record 0088, the
-- reputation job); a comment's count is kept on the comment for the threads.

CREATE TABLE comment_likes (
  comment_id bigint      NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (comment_id, user_id)
);
-- Account deletion and "Download my data" find a member's likes.
CREATE INDEX comment_likes_user_idx ON comment_likes (user_id);

ALTER TABLE comments ADD COLUMN likes_count int NOT NULL DEFAULT 0;
-- When a like on the comment was last given or taken back, by the site's clock: the reputation
-- job's runs between full ones recompute the authors of comments changed since the last run.
ALTER TABLE comments ADD COLUMN likes_changed_at timestamptz;
CREATE INDEX CONCURRENTLY IF NOT EXISTS comments_likes_changed_idx ON comments (likes_changed_at)
  WHERE likes_changed_at IS NOT NULL;

-- Keeps comments.likes_count exact whoever adds or removes a like (a press, an account
-- deletion); a like removed with its comment finds no comment row left to change.
CREATE FUNCTION comment_likes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE comments SET likes_count = likes_count + 1 WHERE id = NEW.comment_id;
  ELSE
    UPDATE comments SET likes_count = likes_count - 1 WHERE id = OLD.comment_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER comment_likes_count_trg
  AFTER INSERT OR DELETE ON comment_likes
  FOR EACH ROW EXECUTE FUNCTION comment_likes_count();
