-- Notifications for members' own activity, their mails and one-click unsubscribe
-- (docs/decisions/0044-notifications-and-unsubscribe.md).

-- Likes (and repeated follows) collapse into one unread notification per group: its key, and the
-- members who acted, newest first. mailed_at: the notification mail job has dealt with the row
-- (mailed it, or found its kind switched off); notifications written before this migration count
-- as dealt with, so nobody receives a mail about old news.
ALTER TABLE notifications
  ADD COLUMN group_key text,
  ADD COLUMN actor_ids bigint[] NOT NULL DEFAULT '{}',
  ADD COLUMN mailed_at timestamptz;
UPDATE notifications SET mailed_at = created_at;
-- One unread notification per group and member, whatever two actions racing each other do.
CREATE UNIQUE INDEX notifications_group_idx ON notifications (user_id, group_key)
  WHERE read_at IS NULL AND group_key IS NOT NULL;
-- What the mail job still has to look at: unread and not yet dealt with.
CREATE INDEX notifications_unmailed_idx ON notifications (user_id, kind)
  WHERE mailed_at IS NULL AND read_at IS NULL;

-- A member's choices of which mails they receive, one row per kind they changed; a kind without a
-- row has its default (core/notifications/email-kinds.ts).
CREATE TABLE email_preferences (
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text        NOT NULL CHECK (length(kind) BETWEEN 1 AND 40),
  enabled    boolean     NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, kind)
);

-- When each member was last mailed about each kind: at most one mail per kind per 10 minutes.
CREATE TABLE notification_mail_log (
  user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind         text        NOT NULL,
  last_sent_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, kind)
);

-- Server-side secrets made once and kept (the key that signs unsubscribe links). Never shown.
CREATE TABLE site_secrets (
  name       text PRIMARY KEY,
  value      text        NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
