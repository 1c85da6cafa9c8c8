/**
 * The icons drawn on every page (the navigation bar, the footer, the theme switch) and on every
 * deal card: Feather's shapes, as react-icons draws them, but as plain SVG elements made once. A
 * react-icons component renders two components, a context consumer and several object copies per
 * icon; at four icons a card and 27 cards a page that was a measurable share of a listing page's
 * server render (measured on 2026-11-23; `git log -p docs/benchmarks.md`). Icons of single pages
 * still come from react-icons.
 */
function featherIcon(path: string) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="1em"
      height="1em"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={path} />
    </svg>
  );
}

export const MINUS_ICON = featherIcon("M5 12h14");

export const PLUS_ICON = featherIcon("M12 5v14M5 12h14");

export const THERMOMETER_ICON = featherIcon(
  "M14 14.76V3.5a2.5 2.5 0 0 0-5 0v11.26a4.5 4.5 0 1 0 5 0z",
);

export const COMMENT_ICON = featherIcon(
  "M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z",
);

export const SEARCH_ICON = featherIcon("M19 11a8 8 0 1 1-16 0 8 8 0 0 1 16 0zM21 21l-4.35-4.35");

export const MENU_ICON = featherIcon("M3 12h18M3 6h18M3 18h18");

export const CLOSE_ICON = featherIcon("M18 6 6 18M6 6l12 12");

export const SUN_ICON = featherIcon(
  "M17 12a5 5 0 1 1-10 0 5 5 0 0 1 10 0zM12 1v2M12 21v2M4.22 4.22l1.42 1.42M18.36 18.36l1.42 1.42M1 12h2M21 12h2M4.22 19.78l1.42-1.42M18.36 5.64l1.42-1.42",
);

export const MOON_ICON = featherIcon("M21 12.79A9 9 0 1 1 11.21 3 7 7 0 0 0 21 12.79z");

export const MONITOR_ICON = featherIcon(
  "M4 3h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zM8 21h8M12 17v4",
);

/** Save (record 0043): filled by CSS when pressed (`[aria-pressed="true"] svg { fill: … }`). */
export const BOOKMARK_ICON = featherIcon("M19 21l-7-5-7 5V5a2 2 0 0 1 2-2h10a2 2 0 0 1 2 2z");
export const BELL_ICON = featherIcon(
  "M18 8A6 6 0 0 0 6 8c0 7-3 9-3 9h18s-3-2-3-9M13.73 21a2 2 0 0 1-3.46 0",
);
