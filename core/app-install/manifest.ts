/**
 * The installed app (docs/decisions/0108-installable-app.md): its web app manifest and icons.
 * Free of server code: the pages' <head> names the icons' addresses too.
 */

/** Where the icons are served: /app-icons/<file>. */
export const APP_ICON_PREFIX = "/app-icons/";

/** What each icon is for: the manifest's "any" and "maskable" icons, and Apple's home-screen one. */
export type AppIconPurpose = "any" | "maskable" | "apple-touch";

export interface AppIconSpec {
  file: string;
  size: number;
  purpose: AppIconPurpose;
}

/** Every icon made from the logo; Chrome's installability asks for 192 and 512 px. */
export const APP_ICONS: readonly AppIconSpec[] = [
  { file: "icon-192.png", size: 192, purpose: "any" },
  { file: "icon-512.png", size: 512, purpose: "any" },
  { file: "maskable-192.png", size: 192, purpose: "maskable" },
  { file: "maskable-512.png", size: 512, purpose: "maskable" },
  { file: "apple-touch-icon.png", size: 180, purpose: "apple-touch" },
];

/** The icon shown on notifications and in the offline page. */
export const NOTIFICATION_ICON = `${APP_ICON_PREFIX}icon-192.png`;
export const APPLE_TOUCH_ICON = `${APP_ICON_PREFIX}apple-touch-icon.png`;

export interface WebAppManifest {
  id: string;
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: "standalone";
  orientation: "any";
  theme_color: string;
  background_color: string;
  lang: string;
  categories: string[];
  icons: { src: string; sizes: string; type: "image/png"; purpose: "any" | "maskable" }[];
}

/** A home screen shows about twelve characters under an icon; a longer name is cut at a word. */
const SHORT_NAME_LENGTH = 12;

export function shortNameOf(name: string): string {
  if (name.length <= SHORT_NAME_LENGTH) return name;
  const words = name.split(/\s+/);
  let short = words[0] ?? name;
  for (const word of words.slice(1)) {
    if (`${short} ${word}`.length > SHORT_NAME_LENGTH) break;
    short = `${short} ${word}`;
  }
  return short.slice(0, SHORT_NAME_LENGTH);
}

/**
 * The manifest for a site at `publicUrl` (PUBLIC_URL: an origin, perhaps with a path), named from
 * its settings, in its colours (settings `app_theme_color`, `app_background_color`). Start URL and scope are the site's root path, so every page of the site opens in
 * the installed app and nothing of another site does. `iconVersion` changes with the logo and the
 * theme colour (the maskable icons' background), so a browser fetches the new icons.
 */
export function webAppManifest(
  site: {
    name: string;
    description: string;
    publicUrl: string;
    colors: { theme: string; background: string };
  },
  iconVersion: string,
): WebAppManifest {
  const root = new URL(`${site.publicUrl.replace(/\/$/, "")}/`).pathname;
  return {
    id: root,
    name: site.name,
    short_name: shortNameOf(site.name),
    description: site.description,
    start_url: root,
    scope: root,
    display: "standalone",
    orientation: "any",
    theme_color: site.colors.theme,
    background_color: site.colors.background,
    lang: "en",
    categories: ["shopping"],
    icons: APP_ICONS.filter((icon) => icon.purpose !== "apple-touch").map((icon) => ({
      src: `${root.replace(/\/$/, "")}${APP_ICON_PREFIX}${icon.file}?v=${iconVersion}`,
      sizes: `${icon.size}x${icon.size}`,
      type: "image/png",
      purpose: icon.purpose === "maskable" ? "maskable" : "any",
    })),
  };
}
