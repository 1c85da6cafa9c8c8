-- Reputation with stated rules (docs/decisions/0088-reputation.md). The rules are in
-- core/people/reputation/rules.ts; the job of core/people/reputation/job.ts recomputes every table
-- here from the posts, votes and coupon reports, so each can be rebuilt at any time.

-- The highest temperature each post has been seen at by the job, and when it was first seen at
-- the hot threshold: a deal keeps the heat it reached when votes later cool it (an expired deal).
CREATE TABLE reputation_post_peaks (
  post_id       integer     PRIMARY KEY REFERENCES posts (id) ON DELETE CASCADE,
  peak_degrees  integer     NOT NULL,
  peak_at       timestamptz NOT NULL,
  hot_at        timestamptz
);

-- A member's points and level, and the numbers their badges are judged on.
CREATE TABLE member_reputation (
  user_id         integer     PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  points          integer     NOT NULL DEFAULT 0,
  level           text        NOT NULL DEFAULT 'Newcomer',
  hot_deals       integer     NOT NULL DEFAULT 0,
  scorching_deals integer     NOT NULL DEFAULT 0,
  working_coupon_reports integer NOT NULL DEFAULT 0,
  computed_at     timestamptz NOT NULL
);

-- What earned or cost a member points: one line per rule applied.
CREATE TABLE reputation_ledger (
  id          bigserial   PRIMARY KEY,
  user_id     integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        text        NOT NULL
    CHECK (kind IN ('heat', 'hot', 'comment_likes', 'working_coupon', 'removed')),
  post_id     integer     REFERENCES posts (id) ON DELETE CASCADE,
  points      integer     NOT NULL,
  detail      text        NOT NULL DEFAULT '',
  occurred_at timestamptz NOT NULL
);
CREATE INDEX reputation_ledger_user_idx ON reputation_ledger (user_id, occurred_at DESC, id DESC);
-- The month's top contributors sum the lines of one month.
CREATE INDEX reputation_ledger_month_idx ON reputation_ledger (occurred_at, user_id);
CREATE INDEX reputation_ledger_post_idx ON reputation_ledger (post_id);

-- The badges a member has earned, and when.
CREATE TABLE member_badges (
  user_id    integer     NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  badge_key  text        NOT NULL,
  earned_at  timestamptz NOT NULL,
  PRIMARY KEY (user_id, badge_key)
);

-- The points at which each level begins: one row, changed by administrators in Settings.
CREATE TABLE reputation_settings (
  id              integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  member_points   integer NOT NULL DEFAULT 10,
  regular_points  integer NOT NULL DEFAULT 50,
  trusted_points  integer NOT NULL DEFAULT 200,
  updated_at      timestamptz NOT NULL DEFAULT now(),
  CHECK (member_points >= 1 AND regular_points > member_points AND trusted_points > regular_points)
);
INSERT INTO reputation_settings (id) VALUES (1);

-- When the job last ran, and last looked at every member (core/people/reputation/job.ts): the
-- quarter-hourly runs in between recompute only the members whose deals reached a new peak (votes
-- record peaks as they come, core/posts/reactions) or whose coupons were answered since, so a run
-- does not read every post of a large site; once a day a run looks at everyone.
CREATE TABLE reputation_runs (
  id           integer     PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  run_at       timestamptz,
  full_run_at  timestamptz
);
INSERT INTO reputation_runs (id) VALUES (1);
CREATE INDEX reputation_post_peaks_at_idx ON reputation_post_peaks (peak_at);
CREATE INDEX coupon_feedback_answered_idx ON coupon_feedback (answered_at);
