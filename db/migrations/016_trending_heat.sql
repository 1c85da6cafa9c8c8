-- migrate: no-transaction
-- Trending by temperature (docs/decisions/0008-trending-score.md, "Temperature"). Trending lists
-- the hottest live deals of the last few UTC days: for each day, the deals of that day by net
-- votes (likes minus unlikes, damped votes left out — the temperature's one input), then by
-- hot_score. One index walk per day reads at most a dozen entries, whatever the table's size.
-- The expressions are written as core/posts/temperature.ts writes them in queries.
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_heat_idx ON posts (
  post_type,
  ((created_at AT TIME ZONE 'UTC')::date) DESC,
  ((likes_count - damped_likes) - (unlikes_count - damped_unlikes)) DESC,
  hot_score DESC,
  id DESC
) WHERE status = 'active';
