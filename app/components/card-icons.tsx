import type { ReactNode } from "react";

/**
 * The icons every deal card draws (Feather's shapes, as react-icons draws them), as plain SVG
 * elements made once. A react-icons component renders two components, a context consumer and
 * several object copies per icon; at four icons a card and 27 cards a page, that was a
 * measurable share of a listing page's server render (docs/benchmarks.md, 2026-11-23).
 */
function featherIcon(children: ReactNode) {
  return (
    <svg
      className="card-icon"
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
      {children}
    </svg>
  );
}

export const MINUS_ICON = featherIcon(<line x1="5" y1="12" x2="19" y2="12" />);

export const PLUS_ICON = featherIcon(
  <>
    <line x1="12" y1="5" x2="12" y2="19" />
    <line x1="5" y1="12" x2="19" y2="12" />
  </>,
);

export const THERMOMETER_ICON = featherIcon(
  <path d="M14 14.76V3.5a2.5 2.5 0 0 0-5 0v11.26a4.5 4.5 0 1 0 5 0z" />,
);

export const COMMENT_ICON = featherIcon(
  <path d="M21 15a2 2 0 0 1-2 2H7l-4 4V5a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2z" />,
);
