import type { SiteSettings } from "./service.ts";

/** The site's name until the settings give one: the only place it is written. */
export const DEFAULT_SITE_NAME = "Chalkboard Deals";

export const DEFAULT_DESCRIPTION = `${DEFAULT_SITE_NAME}: deals, coupons and classroom bargains shared by shoppers and teachers.`;

/**
 * The site's colours outside its pages: the browser's bar (`theme-color`), the installed app's
 * splash screen and the background of its maskable icons. The navy of the site's header and its
 * page background (app/styles/app.css, `--navy` and `--background` in light mode). The owner
 * changes them in the settings (`app_theme_color`, `app_background_color`, migration 041); these
 * are their defaults, and what pages use when the settings cannot be read.
 */
export const SITE_COLORS = { theme: "#353f66", background: "#f4f5f8" } as const;

/**
 * What pages show when the settings cannot be read (the spec: footer and social failures are
 * ignored). Free of server code, so the browser bundle may import it.
 */
export const DEFAULT_SETTINGS: SiteSettings = {
  websiteName: DEFAULT_SITE_NAME,
  logo: "",
  keywords: "",
  description: DEFAULT_DESCRIPTION,
  educatorLink: "/educator",
  footer: [],
  social: [],
  colors: { ...SITE_COLORS },
};
