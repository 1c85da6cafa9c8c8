-- Honest links (docs/decisions/0039-honest-links.md). GRAB DEAL goes through /go/{unique_id},
-- which counts the click in per-day counters and nothing else: no address, no user, no cookie.
-- A store may carry an affiliate template ('https://partner.example/?u={url}'): /go sends the
-- shopper through it, and its deals are marked as affiliate links.
ALTER TABLE stores ADD COLUMN affiliate_template text NOT NULL DEFAULT '';

-- Clicks of one post on one UTC day (upserted by /go).
CREATE TABLE post_link_clicks (
  post_id bigint NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  day     date   NOT NULL,
  clicks  integer NOT NULL DEFAULT 0,
  PRIMARY KEY (post_id, day)
);

-- Clicks on the deals of one store on one UTC day, counted at the click: "N clicks in the last 30
-- days" on a store page sums at most 30 rows, whatever the number of its deals.
CREATE TABLE store_link_clicks (
  store_id bigint NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  day      date   NOT NULL,
  clicks   integer NOT NULL DEFAULT 0,
  PRIMARY KEY (store_id, day)
);
