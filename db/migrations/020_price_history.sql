-- migrate: no-transaction
-- Price history (docs/decisions/0040-price-history.md).
--
-- A product groups the deals that sell the same thing: the deals of one normalised link
-- (posts.link_key), or deals a moderator merged into it. A deal whose product_id is null is a
-- product of its own (no link, or not grouped yet: posting adopts such deals of the same link).
CREATE TABLE products (
  id          bigserial PRIMARY KEY,
  -- The link this product was made for; null for one made to receive a merge of linkless deals.
  link_key    text UNIQUE,
  -- A product merged into another: its link's new deals go to that one (always a root product).
  merged_into bigint REFERENCES products (id),
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX products_merged_into_idx ON products (merged_into) WHERE merged_into IS NOT NULL;

ALTER TABLE posts
  ADD COLUMN product_id    bigint REFERENCES products (id) ON DELETE SET NULL,
  -- Precomputed at write time (the trigger below), so a card reads one column.
  ADD COLUMN lowest_in_90d boolean NOT NULL DEFAULT false;
CREATE INDEX CONCURRENTLY IF NOT EXISTS posts_product_idx ON posts (product_id, created_at, id) WHERE product_id IS NOT NULL;

-- "Lowest price in 90 days" holds for deal D of product P when
--   * D counts as a price of P: a deal with a price that is not held, hidden or removed;
--   * at least one other counted price of P, in D's currency, was posted in the 90 days before D;
--   * none of those is lower than D's price (an equal one keeps the badge);
--   * no counted deal of P posted after D is cheaper than D.
-- "Before" and "after" order deals by (created_at, id). Everything here follows from stored
-- columns, never from the clock, so the flag only changes when a deal of P is written.
CREATE FUNCTION refresh_lowest_in_90d(product bigint) RETURNS void LANGUAGE sql AS $$
  WITH counted AS (
    SELECT id, price, currency, created_at FROM posts
    WHERE product_id = product AND post_type = 'd' AND price IS NOT NULL
      AND status NOT IN ('pending', 'hidden', 'removed')
  ),
  verdict AS (
    SELECT d.id,
      EXISTS (
        SELECT 1 FROM counted e
        WHERE e.currency = d.currency AND e.created_at >= d.created_at - interval '90 days'
          AND (e.created_at, e.id) < (d.created_at, d.id))
      AND NOT EXISTS (
        SELECT 1 FROM counted e
        WHERE e.currency = d.currency AND e.created_at >= d.created_at - interval '90 days'
          AND (e.created_at, e.id) < (d.created_at, d.id) AND e.price < d.price)
      AND NOT EXISTS (
        SELECT 1 FROM counted e
        WHERE e.currency = d.currency
          AND (e.created_at, e.id) > (d.created_at, d.id) AND e.price < d.price) AS holds
    FROM counted d
  )
  UPDATE posts p
  SET lowest_in_90d = coalesce(v.holds, false)
  FROM posts q LEFT JOIN verdict v ON v.id = q.id
  WHERE q.product_id = product AND p.id = q.id
    AND p.lowest_in_90d IS DISTINCT FROM coalesce(v.holds, false);
$$;

-- Any write that changes a product's prices refreshes its deals' flags: posting, an edit of the
-- price, currency or status (moderation), a merge or link change (product_id), a deletion. The
-- refresh writes only lowest_in_90d, which fires none of these triggers again.
CREATE FUNCTION posts_product_prices() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.product_id IS NOT NULL THEN
    PERFORM refresh_lowest_in_90d(OLD.product_id);
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.product_id IS NOT NULL
     AND (TG_OP = 'INSERT' OR NEW.product_id IS DISTINCT FROM OLD.product_id) THEN
    PERFORM refresh_lowest_in_90d(NEW.product_id);
  END IF;
  -- A deal that left every product is a product of its own: nothing to compare it with.
  IF TG_OP = 'UPDATE' AND NEW.product_id IS NULL AND NEW.lowest_in_90d THEN
    UPDATE posts SET lowest_in_90d = false WHERE id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;

-- Grouping what is already stored: one product per link key that two or more deals share (a deal
-- alone with its link stays ungrouped until a second one comes; posting adopts it then).
INSERT INTO products (link_key, created_at)
SELECT link_key, min(created_at) FROM posts
WHERE post_type = 'd' AND link_key <> ''
GROUP BY link_key HAVING count(*) > 1;

-- Their deals joined to them, in batches of 10,000 ids, then the flags of 1,000 products at a
-- time, each batch committed, so posts take writes meanwhile
-- (docs/decisions/0097-safe-upgrades.md); run again, each finds what is left or does it again.
DO $$
DECLARE
  batch_start bigint := 0;
  last_id     bigint := (SELECT coalesce(max(id), 0) FROM posts);
BEGIN
  WHILE batch_start <= last_id LOOP
    UPDATE posts p SET product_id = pr.id
      FROM products pr
     WHERE p.id >= batch_start AND p.id < batch_start + 10000 AND p.product_id IS NULL
       AND pr.link_key = p.link_key AND p.post_type = 'd' AND p.link_key <> '';
    COMMIT;
    batch_start := batch_start + 10000;
  END LOOP;
END
$$;

DO $$
DECLARE
  batch_start bigint := 0;
  last_id     bigint := (SELECT coalesce(max(id), 0) FROM products);
BEGIN
  WHILE batch_start <= last_id LOOP
    PERFORM refresh_lowest_in_90d(id) FROM products
      WHERE id >= batch_start AND id < batch_start + 1000;
    COMMIT;
    batch_start := batch_start + 1000;
  END LOOP;
END
$$;

-- Created after the backfill, which refreshed each product once above.
CREATE TRIGGER posts_product_prices_insert AFTER INSERT ON posts
  FOR EACH ROW WHEN (NEW.product_id IS NOT NULL) EXECUTE FUNCTION posts_product_prices();
CREATE TRIGGER posts_product_prices_update
  AFTER UPDATE OF price, currency, status, product_id, post_type ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_product_prices();
CREATE TRIGGER posts_product_prices_delete AFTER DELETE ON posts
  FOR EACH ROW WHEN (OLD.product_id IS NOT NULL) EXECUTE FUNCTION posts_product_prices();
