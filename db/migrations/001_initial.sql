-- Chalkboard Deals: the whole product's schema.
-- Runs unchanged on PGlite and PostgreSQL. Forward-only: later changes go in new numbered files.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- People -------------------------------------------------------------------

CREATE TABLE users (
  id                bigserial PRIMARY KEY,
  name              text        NOT NULL,
  email             text        NOT NULL,
  password_hash     text,                       -- null for social-only accounts
  user_type         text        NOT NULL DEFAULT 'Member',
  image_url         text,
  dob               date,
  gender            text CHECK (gender IN ('male', 'female')),
  biography         text        NOT NULL DEFAULT '',
  mobile            text        NOT NULL DEFAULT '',
  website           text        NOT NULL DEFAULT '',
  address           text        NOT NULL DEFAULT '',
  email_verified_at timestamptz,
  deleted_at        timestamptz,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);
-- One live account per address; a deleted account frees its address.
CREATE UNIQUE INDEX users_email_live_key ON users (lower(email)) WHERE deleted_at IS NULL;

CREATE TABLE oauth_accounts (
  id               bigserial PRIMARY KEY,
  user_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider         text        NOT NULL CHECK (provider IN ('google', 'facebook')),
  provider_user_id text        NOT NULL,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (provider, provider_user_id)
);
CREATE INDEX oauth_accounts_user_idx ON oauth_accounts (user_id);

CREATE TABLE sessions (
  id           bigserial PRIMARY KEY,
  user_id      bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash   text        NOT NULL UNIQUE,     -- sha256 of the cookie token; the token itself is never stored
  user_agent   text        NOT NULL DEFAULT '',
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz NOT NULL
);
CREATE INDEX sessions_user_idx ON sessions (user_id);
CREATE INDEX sessions_expires_idx ON sessions (expires_at);

-- Single-use mailed codes: email confirmation and password reset.
CREATE TABLE email_tokens (
  id         bigserial PRIMARY KEY,
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose    text        NOT NULL CHECK (purpose IN ('confirm', 'reset')),
  token_hash text        NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at    timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX email_tokens_user_idx ON email_tokens (user_id, purpose);

CREATE TABLE follows (
  follower_id bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  followee_id bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (follower_id, followee_id),
  CHECK (follower_id <> followee_id)
);
CREATE INDEX follows_followee_idx ON follows (followee_id, created_at DESC);

-- Catalogue ----------------------------------------------------------------

CREATE TABLE stores (
  id          bigserial PRIMARY KEY,
  title       text        NOT NULL,
  slug        text        NOT NULL UNIQUE,
  link        text        NOT NULL DEFAULT '',
  image_url   text        NOT NULL DEFAULT '',
  description text        NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX stores_title_idx ON stores (lower(title));

CREATE TABLE featured_stores (
  id       bigserial PRIMARY KEY,
  store_id bigint NOT NULL UNIQUE REFERENCES stores (id) ON DELETE CASCADE,
  position int    NOT NULL DEFAULT 0
);

CREATE TABLE categories (
  id          bigserial PRIMARY KEY,
  title       text        NOT NULL,
  slug        text        NOT NULL UNIQUE,
  image_url   text        NOT NULL DEFAULT '',
  description text        NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX categories_title_idx ON categories (lower(title));

-- Forums: type 'g' is the educators' forum (discussions), type 'd' the deals forum.
CREATE TABLE forums (
  id       bigserial PRIMARY KEY,
  title    text NOT NULL,
  slug     text NOT NULL UNIQUE,
  detail   text NOT NULL DEFAULT '',
  type     text NOT NULL CHECK (type IN ('g', 'd')),
  position int  NOT NULL DEFAULT 0
);

-- The choices of "deal category" (kind 'deal') and discussion "category" (kind 'discussion')
-- on the Submit Deals form.
CREATE TABLE forum_categories (
  id       bigserial PRIMARY KEY,
  forum_id bigint NOT NULL REFERENCES forums (id) ON DELETE CASCADE,
  kind     text   NOT NULL CHECK (kind IN ('deal', 'discussion')),
  title    text   NOT NULL,
  position int    NOT NULL DEFAULT 0
);
CREATE INDEX forum_categories_kind_idx ON forum_categories (kind, position);

-- Posts: deals and coupons (post_type 'd') and educator discussions (post_type 'g').

CREATE TABLE posts (
  id                bigserial PRIMARY KEY,
  unique_id         text        NOT NULL UNIQUE,       -- short random public id
  slug              text        NOT NULL,
  post_type         text        NOT NULL CHECK (post_type IN ('d', 'g')),
  kind              text        NOT NULL CHECK (kind IN ('deal', 'coupon', 'discussion')),
  user_id           bigint      REFERENCES users (id) ON DELETE SET NULL,
  forum_category_id bigint      REFERENCES forum_categories (id) ON DELETE SET NULL,
  store_id          bigint      REFERENCES stores (id) ON DELETE SET NULL,
  category_id       bigint      REFERENCES categories (id) ON DELETE SET NULL,
  title             text        NOT NULL,
  description       text        NOT NULL DEFAULT '',   -- sanitised HTML
  description_text  text        NOT NULL DEFAULT '',   -- plain text of description, for search and meta tags
  image_url         text        NOT NULL DEFAULT '',
  price             numeric(12, 2),
  list_price        numeric(12, 2),
  discount          int CHECK (discount IS NULL OR (discount >= 0 AND discount <= 100)),
  currency          text        NOT NULL DEFAULT 'USD',
  deal_badge        text        NOT NULL DEFAULT '',
  link              text        NOT NULL DEFAULT '',
  link_key          text        NOT NULL DEFAULT '',   -- normalised link, to find duplicates
  coupon_code       text        NOT NULL DEFAULT '',
  expires_at        timestamptz,
  is_featured       boolean     NOT NULL DEFAULT false,
  status            text        NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'pending', 'removed')),
  views             int         NOT NULL DEFAULT 0,
  likes_count       int         NOT NULL DEFAULT 0,
  unlikes_count     int         NOT NULL DEFAULT 0,
  comments_count    int         NOT NULL DEFAULT 0,
  hot_score         double precision NOT NULL DEFAULT 0,
  search            tsvector,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX posts_recent_idx    ON posts (post_type, created_at DESC, id DESC) WHERE status = 'active';
CREATE INDEX posts_hot_idx       ON posts (post_type, hot_score DESC, id DESC) WHERE status = 'active';
CREATE INDEX posts_store_idx     ON posts (store_id, created_at DESC, id DESC) WHERE status = 'active';
CREATE INDEX posts_category_idx  ON posts (category_id, created_at DESC, id DESC) WHERE status = 'active';
CREATE INDEX posts_user_idx      ON posts (user_id, created_at DESC, id DESC);
CREATE INDEX posts_price_idx     ON posts (price) WHERE status = 'active';
CREATE INDEX posts_discount_idx  ON posts (discount) WHERE status = 'active';
CREATE INDEX posts_link_key_idx  ON posts (link_key) WHERE status = 'active' AND link_key <> '';
CREATE INDEX posts_search_idx    ON posts USING gin (search);
CREATE INDEX posts_title_trgm    ON posts USING gin (title gin_trgm_ops);

-- The search document: title weighs most, then store and category names, then the description.
CREATE FUNCTION posts_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search :=
      setweight(to_tsvector('english', coalesce(NEW.title, '')), 'A')
   || setweight(to_tsvector('english',
        coalesce((SELECT title FROM stores WHERE id = NEW.store_id), '') || ' ' ||
        coalesce((SELECT title FROM categories WHERE id = NEW.category_id), '')), 'B')
   || setweight(to_tsvector('english', left(coalesce(NEW.description_text, ''), 4000)), 'C');
  RETURN NEW;
END
$$;

CREATE TRIGGER posts_search_document_trg
  BEFORE INSERT OR UPDATE OF title, description_text, store_id, category_id ON posts
  FOR EACH ROW EXECUTE FUNCTION posts_search_document();

-- One view per visitor per day (visitor_key is a hash of the session or the client address).
CREATE TABLE post_views (
  post_id     bigint NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  visitor_key text   NOT NULL,
  day         date   NOT NULL,
  PRIMARY KEY (post_id, day, visitor_key)
);

-- reaction: 'like' or 'unlike' (thumbs up / thumbs down), one per user and post.
CREATE TABLE likes (
  user_id    bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  post_id    bigint      NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  reaction   text        NOT NULL CHECK (reaction IN ('like', 'unlike')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (post_id, user_id)
);
CREATE INDEX likes_user_idx ON likes (user_id);

CREATE TABLE comments (
  id         bigserial PRIMARY KEY,
  post_id    bigint      NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id    bigint      REFERENCES users (id) ON DELETE SET NULL,
  parent_id  bigint      REFERENCES comments (id) ON DELETE CASCADE,
  body       text        NOT NULL,                  -- sanitised HTML
  created_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX comments_post_idx ON comments (post_id, created_at);
CREATE INDEX comments_user_idx ON comments (user_id);

-- Home page ----------------------------------------------------------------

CREATE TABLE teachers_wishlist (
  id              bigserial PRIMARY KEY,
  first_name      text NOT NULL,
  last_name       text NOT NULL,
  school_location text NOT NULL,
  amazon_wishlist text NOT NULL,
  position        int  NOT NULL DEFAULT 0,
  created_at      timestamptz NOT NULL DEFAULT now()
);

-- Site settings --------------------------------------------------------------

CREATE TABLE general_settings (
  id                  int PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  website_name        text NOT NULL DEFAULT 'Chalkboard Deals',
  website_logo        text NOT NULL DEFAULT '',
  website_keywords    text NOT NULL DEFAULT '',
  website_description text NOT NULL DEFAULT '',
  educator_post_unique_id text NOT NULL DEFAULT '',   -- the navigation bar's fixed Educators link
  updated_at          timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE footer_settings (
  id               bigserial PRIMARY KEY,
  playstore_url    text NOT NULL DEFAULT '',
  app_store_url    text NOT NULL DEFAULT '',
  play_store_image text NOT NULL DEFAULT '',
  app_store_image  text NOT NULL DEFAULT '',
  copyright_text   text NOT NULL DEFAULT '',
  updated_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE social_links (
  id           bigserial PRIMARY KEY,
  name         text NOT NULL,
  social_url   text NOT NULL,
  social_image text NOT NULL,     -- icon class, as the spec names it
  position     int  NOT NULL DEFAULT 0
);

CREATE TABLE cms_pages (
  id         bigserial PRIMARY KEY,
  slug       text        NOT NULL UNIQUE,
  title      text        NOT NULL,
  detail     text        NOT NULL,      -- trusted HTML written by the site owner
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Contact and payments -----------------------------------------------------

CREATE TABLE contact_messages (
  id         bigserial PRIMARY KEY,
  name       text        NOT NULL,
  category   text        NOT NULL,
  subject    text        NOT NULL,
  email      text        NOT NULL,
  mobile     text        NOT NULL,
  website    text        NOT NULL DEFAULT '',
  message    text        NOT NULL DEFAULT '',
  user_id    bigint      REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE subscription_plans (
  id          bigserial PRIMARY KEY,
  name        text NOT NULL,
  description text NOT NULL DEFAULT '',
  price_cents int  NOT NULL,
  currency    text NOT NULL DEFAULT 'usd',
  interval    text NOT NULL DEFAULT 'month'
);

CREATE TABLE subscriptions (
  id                     bigserial PRIMARY KEY,
  user_id                bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  plan_id                bigint      NOT NULL REFERENCES subscription_plans (id),
  status                 text        NOT NULL DEFAULT 'Pending',   -- 'Active', 'Pending', 'Cancelled'
  start_date             date,
  end_date               date,
  stripe_customer_id     text        NOT NULL DEFAULT '',
  stripe_subscription_id text        NOT NULL DEFAULT '',
  created_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX subscriptions_user_idx ON subscriptions (user_id, created_at DESC);

-- Uploaded images (re-encoded by sharp; path is server-generated).
CREATE TABLE media (
  id         bigserial PRIMARY KEY,
  user_id    bigint      REFERENCES users (id) ON DELETE SET NULL,
  path       text        NOT NULL UNIQUE,
  mime       text        NOT NULL,
  width      int         NOT NULL,
  height     int         NOT NULL,
  bytes      int         NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Trending ("hot") score: see docs/decisions/0008-trending-score.md. Engagement counts on a log
-- scale plus the post's age in units of 12.5 hours, so a post needs ten times the engagement of
-- one posted 12.5 hours later to rank beside it. Stored in posts.hot_score and refreshed whenever
-- likes, comments or views change; ordering by it is an index scan.
CREATE FUNCTION post_hot_score(likes int, unlikes int, comments int, views int, created timestamptz)
RETURNS double precision LANGUAGE sql IMMUTABLE AS $$
  SELECT log(greatest(1.0, 1 + 3 * likes + 4 * comments + views / 20.0 - 2 * unlikes)::numeric)::double precision
       + extract(epoch FROM created) / 45000.0
$$;
