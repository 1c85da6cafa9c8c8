import { OFFLINE_LIST_MARK } from "./worker-script.ts";

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}

/** WCAG's relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (offset: number) => {
    const value = parseInt(hex.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * White or the page's dark text, whichever contrasts more with `background`: the owner may choose
 * a light theme colour, and the header's name and the button's label must stay readable on it.
 */
export function textColorOn(background: string): "#ffffff" | "#1f2330" {
  const onWhite = 1.05 / (luminance(background) + 0.05);
  const onDark = (luminance(background) + 0.05) / (luminance("#1f2330") + 0.05);
  return onWhite >= onDark ? "#ffffff" : "#1f2330";
}

/**
 * The page the service worker shows when a page cannot be reached (docs/decisions/0108). It is
 * kept in the worker's cache, so it is one self-contained document: its styles inline, no script
 * (the worker writes the member's saved deals in at OFFLINE_LIST_MARK), and it reads well at a
 * phone's width and a desktop's, in light and dark mode. Its header and button wear the site's
 * theme colour (settings `app_theme_color`), like the installed app's bar.
 */
export function offlinePageHtml(
  siteName: string,
  iconPath: string,
  colors: { theme: string; background: string },
): string {
  const name = escapeHtml(siteName);
  const theme = escapeHtml(colors.theme);
  const onTheme = textColorOn(colors.theme);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="${theme}">
<meta name="robots" content="noindex">
<title>You are offline · ${name}</title>
<style>
:root { color-scheme: light dark; --text: light-dark(#1f2330, #e7e9f0); --muted: light-dark(#555b6e, #a9afc0);
  --surface: light-dark(#ffffff, #1c2130); --background: light-dark(#f4f5f8, #12151d);
  --link: light-dark(#353f66, #aebcf5); --border: light-dark(#d9dce5, #394055); }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--text); background: var(--background); }
header { background: ${theme}; color: ${onTheme}; padding: 12px 16px; display: flex; gap: 12px; align-items: center; }
header img { width: 32px; height: 32px; border-radius: 6px; }
header strong { font-size: 1.1rem; }
main { max-width: 720px; margin: 0 auto; padding: 16px; }
.card { background: var(--surface); border: 1px solid var(--border); border-radius: 8px; padding: 16px 20px; margin-bottom: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
h2 { font-size: 1.2rem; margin: 0 0 4px; }
p { margin: 0 0 12px; }
.seen, .empty, .meta { color: var(--muted); }
.deals { list-style: none; margin: 0; padding: 0; }
.deals li { padding: 12px 0; border-top: 1px solid var(--border); display: flex; flex-direction: column; gap: 2px; }
a { color: var(--link); font-weight: 600; }
.retry { display: inline-block; padding: 10px 18px; border-radius: 8px; background: ${theme}; color: ${onTheme}; text-decoration: none; }
</style>
</head>
<body>
<header><img src="${escapeHtml(iconPath)}" alt=""><strong>${name}</strong></header>
<main id="main">
<section class="card">
<h1>You are offline</h1>
<p>This page could not be loaded: your device has no connection right now. It will load again once you are back online.</p>
<a class="retry" href="">Try again</a>
</section>
<section class="card" aria-label="Saved deals">
${OFFLINE_LIST_MARK}
</section>
</main>
</body>
</html>
`;
}
