-- Keyword alerts (docs/decisions/0045-alert-matching.md). An alert's keywords are kept
-- as a tsquery (the text as typed OR its typo correction, english stemming as in search) and as
-- the array of their lexemes: a new deal is matched against every alert by one statement that
-- finds candidates through the GIN index on `lexemes` (any lexeme of the deal's document) and
-- then tests `posts.search @@ query` and the filters on those few rows only. Alerts without
-- keywords (filters only) have no lexemes and are found through their own partial index.

CREATE TABLE alerts (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  keywords text NOT NULL DEFAULT '',
  -- What the keywords match: null when the alert has none (filters only).
  query tsquery,
  lexemes text[] NOT NULL DEFAULT '{}',
  store_ids bigint[] NOT NULL DEFAULT '{}',
  category_id bigint REFERENCES categories (id) ON DELETE SET NULL,
  max_price numeric(12, 2),
  min_discount integer,
  only_hot boolean NOT NULL DEFAULT false,
  delivery text NOT NULL CHECK (delivery IN ('instant', 'daily', 'site')),
  -- The hour (UTC) of the daily digest.
  digest_hour smallint NOT NULL DEFAULT 8 CHECK (digest_hour BETWEEN 0 AND 23),
  paused boolean NOT NULL DEFAULT false,
  -- The private feed's token, hashed (sha-256, hex): the token itself is never stored.
  rss_token_hash text NOT NULL UNIQUE,
  last_mailed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX alerts_user_idx ON alerts (user_id, id);
-- No pending list (fastupdate off): a GIN pending list is read in full by every search, and
-- alert saves are rare while matches run on every deal.
CREATE INDEX alerts_lexemes_idx ON alerts USING gin (lexemes) WITH (fastupdate = off)
  WHERE NOT paused;
CREATE INDEX alerts_filters_only_idx ON alerts (only_hot, category_id)
  WHERE NOT paused AND query IS NULL;

-- One row per alert and deal it matched: the in-site notification, the mail and the feed come
-- from here; `mailed_at` is set when a mail (instant or digest) carried it.
CREATE TABLE alert_matches (
  alert_id bigint NOT NULL REFERENCES alerts (id) ON DELETE CASCADE,
  post_id bigint NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  matched_at timestamptz NOT NULL,
  mailed_at timestamptz,
  PRIMARY KEY (alert_id, post_id)
);
CREATE INDEX alert_matches_unmailed_idx ON alert_matches (alert_id) WHERE mailed_at IS NULL;
CREATE INDEX alert_matches_post_idx ON alert_matches (post_id);
