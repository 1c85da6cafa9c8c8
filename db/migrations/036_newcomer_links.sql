-- Privileges by level: newcomers' links (docs/decisions/0089-newcomer-links.md).
--
-- A member is a newcomer for these rules while below `newcomer_until_level` and with fewer than
-- `newcomer_link_posts` approved (public) posts. A newcomer's new post that carries a link waits
-- for review, and their descriptions and comments carry at most `newcomer_link_cap` links.
-- `newcomer_link_posts` 0 makes nobody a newcomer: no holds and no caps.
ALTER TABLE general_settings
  ADD COLUMN newcomer_link_posts  smallint NOT NULL DEFAULT 2
    CHECK (newcomer_link_posts BETWEEN 0 AND 100),
  ADD COLUMN newcomer_until_level text     NOT NULL DEFAULT 'Member'
    CHECK (newcomer_until_level IN ('Member', 'Regular', 'Trusted')),
  ADD COLUMN newcomer_link_cap    smallint NOT NULL DEFAULT 1
    CHECK (newcomer_link_cap BETWEEN 0 AND 100);
