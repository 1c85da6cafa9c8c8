-- Typo-tolerant search (docs/decisions/0010-search-ranking.md): the words of deal, store and
-- category titles, with a trigram index, so that a misspelt search word is corrected to the
-- nearest known word (KNN on `<->`) before the full-text search runs. Kept up to date by
-- triggers; words are never removed (a stale word only costs a correction that finds nothing).

CREATE TABLE search_terms (
  term text PRIMARY KEY
);
CREATE INDEX search_terms_trgm_idx ON search_terms USING gist (term gist_trgm_ops);

-- The words of a title: lower case, letters and digits, 3 to 40 characters, at least one letter.
CREATE FUNCTION search_terms_of(title text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT word
  FROM regexp_split_to_table(lower(coalesce(title, '')), '[^[:alnum:]]+') AS word
  WHERE length(word) BETWEEN 3 AND 40 AND word ~ '[[:alpha:]]'
$$;

-- Bulk inserts (the demo and large data generators) add their words once per statement.
CREATE FUNCTION search_terms_from_new_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term)
  SELECT DISTINCT t.term FROM new_rows, search_terms_of(new_rows.title) AS t(term)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION search_terms_from_new_title() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term) SELECT t.term FROM search_terms_of(NEW.title) AS t(term)
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE TRIGGER posts_search_terms_insert_trg AFTER INSERT ON posts
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_from_new_rows();
CREATE TRIGGER posts_search_terms_update_trg AFTER UPDATE OF title ON posts
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION search_terms_from_new_title();
CREATE TRIGGER stores_search_terms_insert_trg AFTER INSERT ON stores
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_from_new_rows();
CREATE TRIGGER stores_search_terms_update_trg AFTER UPDATE OF title ON stores
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION search_terms_from_new_title();
CREATE TRIGGER categories_search_terms_insert_trg AFTER INSERT ON categories
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_terms_from_new_rows();
CREATE TRIGGER categories_search_terms_update_trg AFTER UPDATE OF title ON categories
  FOR EACH ROW WHEN (OLD.title IS DISTINCT FROM NEW.title) EXECUTE FUNCTION search_terms_from_new_title();

-- Words of what exists already.
INSERT INTO search_terms (term)
SELECT t.term FROM posts, search_terms_of(posts.title) AS t(term)
UNION SELECT t.term FROM stores, search_terms_of(stores.title) AS t(term)
UNION SELECT t.term FROM categories, search_terms_of(categories.title) AS t(term)
ON CONFLICT DO NOTHING;
