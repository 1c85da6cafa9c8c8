-- A member changes their own email address (docs/decisions/0083-mail-delivery.md,
-- amended 2026-11-29): the new address is mailed a single-use link, kept here as a mailed code
-- like the confirmation and reset links (only its hash, 24 hours), with the address it confirms.
-- users.email changes only when the link is used.
ALTER TABLE email_tokens DROP CONSTRAINT email_tokens_purpose_check;
ALTER TABLE email_tokens
  ADD CONSTRAINT email_tokens_purpose_check
  CHECK (purpose IN ('confirm', 'reset', 'email_change'));
ALTER TABLE email_tokens ADD COLUMN new_email text;
-- The pending address goes with an address change, and only with one.
ALTER TABLE email_tokens
  ADD CONSTRAINT email_tokens_new_email_check
  CHECK ((purpose = 'email_change') = (new_email IS NOT NULL));
