-- The console's content pages (docs/decisions/0033-console-content.md).

-- Replies to contact messages, mailed from /admin/messages and kept with the message they answer.
CREATE TABLE contact_replies (
  id          bigserial PRIMARY KEY,
  message_id  bigint      NOT NULL REFERENCES contact_messages (id) ON DELETE CASCADE,
  author_id   bigint      REFERENCES users (id) ON DELETE SET NULL,
  author_name text        NOT NULL DEFAULT '',
  body        text        NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contact_replies_message_idx ON contact_replies (message_id, created_at);
CREATE INDEX contact_replies_author_idx ON contact_replies (author_id) WHERE author_id IS NOT NULL;

-- The messages queue is filtered by category as well as by status.
CREATE INDEX contact_messages_category_idx ON contact_messages (category, status, created_at DESC);

-- A CMS page whose slug changed keeps answering at its old address too (301 to the new one).
ALTER TABLE slug_redirects DROP CONSTRAINT slug_redirects_kind_check;
ALTER TABLE slug_redirects ADD CONSTRAINT slug_redirects_kind_check
  CHECK (kind IN ('store', 'category', 'page'));
