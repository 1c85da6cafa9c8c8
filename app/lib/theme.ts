/**
 * The colour theme (record 0035, dark mode). By default the site follows the system's setting
 * (`prefers-color-scheme`, in app/styles/app.css) and sets no cookie, so anonymous pages stay
 * cookie-free and one cached copy per URL serves everyone. A visitor who picks light or dark gets
 * a `theme` cookie, and the server renders `<html data-theme="…">` from it: the first paint is
 * already in their theme, with no flash and no script before it. Picking "system" deletes it.
 */

export const THEME_COOKIE = "theme";

export const THEME_CHOICES = ["light", "dark"] as const;

export type ThemeChoice = (typeof THEME_CHOICES)[number];

/** A year: the choice is a standing preference. */
const THEME_COOKIE_SECONDS = 365 * 24 * 60 * 60;

function isThemeChoice(value: unknown): value is ThemeChoice {
  return (THEME_CHOICES as readonly unknown[]).includes(value);
}

/** The visitor's chosen theme from a Cookie header; null (follow the system) for anything else. */
export function themeFromCookieHeader(header: string | null | undefined): ThemeChoice | null {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === THEME_COOKIE) {
      const choice = value.join("=").trim();
      return isThemeChoice(choice) ? choice : null;
    }
  }
  return null;
}

/** The theme a request asks for (the `theme` cookie), for the server's render. */
export function themeOf(request: Request): ThemeChoice | null {
  return themeFromCookieHeader(request.headers.get("cookie"));
}

/**
 * The `document.cookie` assignment that remembers `choice` (light or dark), or forgets it
 * (null: follow the system). Readable by the page's script; nothing secret in it.
 */
export function themeCookie(choice: ThemeChoice | null, secure: boolean): string {
  const attributes = `; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;
  return choice
    ? `${THEME_COOKIE}=${choice}; Max-Age=${THEME_COOKIE_SECONDS}${attributes}`
    : `${THEME_COOKIE}=; Max-Age=0${attributes}`;
}
