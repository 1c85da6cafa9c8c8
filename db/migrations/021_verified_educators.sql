-- Verified educators (docs/decisions/0041-verified-educators.md): requests to be verified, by a
-- school address's confirmation link or by a moderator's review of a short note; the console's
-- list of school domains beyond .edu and k12.<state>.us; teachers' own wishlist entries.

-- Domains whose addresses count as school or district addresses, besides the built-in rules.
-- A domain covers its subdomains too (an entry "schools.nyc.gov" accepts "ps1.schools.nyc.gov").
CREATE TABLE school_domains (
  domain     text PRIMARY KEY CHECK (domain = lower(domain) AND length(domain) BETWEEN 3 AND 253),
  created_by bigint      REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX school_domains_created_by_idx ON school_domains (created_by) WHERE created_by IS NOT NULL;

-- One request a member made. "school_email" requests are pending until their mailed link is
-- opened (only the link's hash is kept) or it expires; "review" requests until a moderator acts.
CREATE TABLE educator_requests (
  id               bigserial PRIMARY KEY,
  user_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  method           text        NOT NULL CHECK (method IN ('school_email', 'review')),
  school_email     text        NOT NULL DEFAULT '',
  note             text        NOT NULL DEFAULT '',
  status           text        NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'approved', 'rejected', 'expired', 'withdrawn')),
  token_hash       text,
  token_expires_at timestamptz,
  decided_by       bigint      REFERENCES users (id) ON DELETE SET NULL,
  decided_at       timestamptz,
  reason           text        NOT NULL DEFAULT '',
  created_at       timestamptz NOT NULL DEFAULT now()
);
-- One open request per member, whatever two requests racing each other do.
CREATE UNIQUE INDEX educator_requests_open_idx ON educator_requests (user_id) WHERE status = 'pending';
CREATE UNIQUE INDEX educator_requests_token_idx ON educator_requests (token_hash)
  WHERE token_hash IS NOT NULL;
-- The moderators' queue (pending review requests, oldest first) and a member's recent requests.
CREATE INDEX educator_requests_queue_idx ON educator_requests (created_at, id)
  WHERE status = 'pending' AND method = 'review';
CREATE INDEX educator_requests_user_idx ON educator_requests (user_id, created_at DESC);
CREATE INDEX educator_requests_decided_by_idx ON educator_requests (decided_by)
  WHERE decided_by IS NOT NULL;

-- Teachers Wishlist entries a verified educator submitted wait for a moderator; the entries the
-- console wrote before are approved. Only approved entries are public, and only they are ordered.
ALTER TABLE teachers_wishlist
  ADD COLUMN status text NOT NULL DEFAULT 'approved'
    CHECK (status IN ('pending', 'approved', 'rejected')),
  ADD COLUMN user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN review_reason text NOT NULL DEFAULT '';
CREATE INDEX teachers_wishlist_status_idx ON teachers_wishlist (status, position, id);
CREATE INDEX teachers_wishlist_user_idx ON teachers_wishlist (user_id) WHERE user_id IS NOT NULL;
