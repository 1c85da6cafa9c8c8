-- A social sign-in whose verified address belongs to an existing account does not join that
-- account by itself: its owner is mailed a single-use code, and the provider identity is linked
-- only when the code comes back with the same identity (docs/decisions/0026-social-sign-in.md).
-- Only the code's SHA-256 is stored.
CREATE TABLE oauth_link_requests (
  id               bigserial PRIMARY KEY,
  user_id          bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider         text        NOT NULL CHECK (provider IN ('google', 'facebook')),
  provider_user_id text        NOT NULL,
  token_hash       text        NOT NULL UNIQUE,
  expires_at       timestamptz NOT NULL,
  used_at          timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX oauth_link_requests_user_idx ON oauth_link_requests (user_id, provider);
