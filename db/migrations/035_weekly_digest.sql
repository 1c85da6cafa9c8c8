-- The weekly digest (docs/decisions/0087-weekly-digest.md).
--
-- When it goes out: a day of the week (0 Sunday … 6 Saturday) and an hour, UTC (the site has no
-- time zone setting), set by an administrator on the console's Settings page.
ALTER TABLE general_settings
  ADD COLUMN digest_weekday smallint NOT NULL DEFAULT 5 CHECK (digest_weekday BETWEEN 0 AND 6),
  ADD COLUMN digest_hour    smallint NOT NULL DEFAULT 9 CHECK (digest_hour BETWEEN 0 AND 23);

-- One row per member per scheduled send (`week`: the UTC date it was due), written in the
-- transaction that queues the mail, so that a second run, in this process or another, finds it
-- and sends nothing. `post_ids`: the deals the mail listed, so that next week's digest goes only
-- if it has a deal this one did not; `mailed` false: nothing new (or the mail was not queued),
-- no mail went.
CREATE TABLE weekly_digests (
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  week       date        NOT NULL,
  post_ids   bigint[]    NOT NULL DEFAULT '{}',
  mailed     boolean     NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, week)
);

-- The members who opted in, for the job's batches without reading every member's preferences.
CREATE INDEX email_preferences_weekly_digest_idx ON email_preferences (user_id)
  WHERE kind = 'weekly_digest' AND enabled;
