-- migrate: no-transaction
-- The owner's console and moderation (docs/decisions/0031-console-and-moderation.md).

-- Roles, suspension and the verified-educator mark. A suspension with no end lasts until lifted.
ALTER TABLE users
  ADD COLUMN role              text NOT NULL DEFAULT 'member'
                               CHECK (role IN ('member', 'moderator', 'admin')),
  ADD COLUMN suspended_at      timestamptz,
  ADD COLUMN suspended_until   timestamptz,
  ADD COLUMN suspension_reason text NOT NULL DEFAULT '',
  ADD COLUMN verified_educator boolean NOT NULL DEFAULT false;
CREATE INDEX users_role_idx ON users (role) WHERE role <> 'member';

-- Posts: 'pending' is held for review (a new user's first post), 'hidden' is out of sight until a
-- moderator decides (reported past the threshold, or hidden by a moderator), 'removed' is a
-- moderator's removal. Only 'active' posts appear anywhere public.
ALTER TABLE posts DROP CONSTRAINT posts_status_check;
-- Added NOT VALID and validated in a step of its own, so the scan lets writes through
-- (docs/decisions/0097-safe-upgrades.md).
ALTER TABLE posts ADD CONSTRAINT posts_status_check
  CHECK (status IN ('active', 'pending', 'hidden', 'removed')) NOT VALID;
ALTER TABLE posts VALIDATE CONSTRAINT posts_status_check;
ALTER TABLE posts ADD COLUMN moderation_reason text NOT NULL DEFAULT '';
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_moderation_idx ON posts (status, created_at DESC) WHERE status <> 'active';

-- Comments get the same states as posts ('pending' unused); deleted_at stays the author's own
-- deletion.
ALTER TABLE comments
  ADD COLUMN status text NOT NULL DEFAULT 'active'
             CHECK (status IN ('active', 'hidden', 'removed'));
CREATE INDEX CONCURRENTLY IF NOT EXISTS comments_moderation_idx ON comments (status, created_at DESC) WHERE status <> 'active';

-- Reports by signed-in users. item_id is the post's unique_id, the comment's id or the user's id,
-- as text. One open report per reporter and item.
CREATE TABLE reports (
  id          bigserial PRIMARY KEY,
  item_type   text        NOT NULL CHECK (item_type IN ('d', 'g', 'comment', 'user')),
  item_id     text        NOT NULL,
  reporter_id bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason      text        NOT NULL
              CHECK (reason IN ('spam', 'expired', 'wrong price', 'offensive', 'duplicate', 'other')),
  note        text        NOT NULL DEFAULT '',
  status      text        NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  resolution  text        NOT NULL DEFAULT '',
  resolved_by bigint      REFERENCES users (id) ON DELETE SET NULL,
  resolved_at timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX reports_one_open_idx ON reports (reporter_id, item_type, item_id)
  WHERE status = 'open';
CREATE INDEX reports_item_idx ON reports (item_type, item_id, status);
CREATE INDEX reports_open_idx ON reports (created_at DESC) WHERE status = 'open';

-- Every console action: who, what, which item, when, and before/after values for edits.
-- Append-only: the trigger below refuses updates and deletes, whoever asks.
CREATE TABLE audit_log (
  id         bigserial PRIMARY KEY,
  actor_id   bigint      REFERENCES users (id) ON DELETE SET NULL,
  actor_name text        NOT NULL DEFAULT '',
  action     text        NOT NULL,
  item_type  text        NOT NULL DEFAULT '',
  item_id    text        NOT NULL DEFAULT '',
  reason     text        NOT NULL DEFAULT '',
  before     jsonb,
  after      jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_log_created_idx ON audit_log (created_at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, created_at DESC);
CREATE INDEX audit_log_item_idx ON audit_log (item_type, item_id, created_at DESC);

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A deleted actor's id is cleared by the foreign key; nothing else may change.
  IF TG_OP = 'UPDATE' AND NEW.actor_id IS NULL AND OLD.actor_id IS NOT NULL
     AND (to_jsonb(NEW) - 'actor_id') = (to_jsonb(OLD) - 'actor_id') THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();

-- Link domains admins refuse in submissions (a domain covers its subdomains).
CREATE TABLE blocked_domains (
  domain     text PRIMARY KEY,
  created_by bigint REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Old store and category slugs answer 301 to the current one.
CREATE TABLE slug_redirects (
  kind       text        NOT NULL CHECK (kind IN ('store', 'category')),
  old_slug   text        NOT NULL,
  target_id  bigint      NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, old_slug)
);

-- In-site messages to a user (moderators' decisions on their reports and posts, for now).
CREATE TABLE notifications (
  id         bigserial PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text        NOT NULL,
  message    text        NOT NULL,
  link       text        NOT NULL DEFAULT '',
  read_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_idx ON notifications (user_id, created_at DESC, id DESC);
CREATE INDEX notifications_unread_idx ON notifications (user_id) WHERE read_at IS NULL;

-- Moderation settings and the default meta description's companions.
ALTER TABLE general_settings
  ADD COLUMN report_hide_threshold int     NOT NULL DEFAULT 3 CHECK (report_hide_threshold >= 1),
  ADD COLUMN hold_new_user_posts   boolean NOT NULL DEFAULT false,
  ADD COLUMN hold_new_user_days    int     NOT NULL DEFAULT 7 CHECK (hold_new_user_days >= 0);

-- Contact messages are worked like a queue: open until resolved; replies are mailed.
ALTER TABLE contact_messages
  ADD COLUMN status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  ADD COLUMN resolved_at timestamptz,
  ADD COLUMN item_link   text NOT NULL DEFAULT '';
CREATE INDEX contact_messages_status_idx ON contact_messages (status, created_at DESC);
