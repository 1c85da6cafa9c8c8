-- The installed app's colours (docs/decisions/0108-installable-app.md): the browser's bar and the
-- manifest's `theme_color` (also behind the maskable icons' logo), and the splash screen's
-- `background_color`. Lower-case #rrggbb; the defaults are the site's header navy and page
-- background, the values used before these settings existed (SITE_COLORS in
-- core/settings/defaults.ts). One row, so the CHECKs scan nothing worth validating apart.
ALTER TABLE general_settings
  ADD COLUMN app_theme_color      text NOT NULL DEFAULT '#353f66'
    CHECK (app_theme_color ~ '^#[0-9a-f]{6}$'),
  ADD COLUMN app_background_color text NOT NULL DEFAULT '#f4f5f8'
    CHECK (app_background_color ~ '^#[0-9a-f]{6}$');
