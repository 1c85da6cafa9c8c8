import { useEffect, useState } from "react";

export interface SlidesBreakpoint {
  /** The setting applies at or below this window width (react-slick's meaning). */
  breakpoint: number;
  slidesToShow: number;
}

/** How many slides show at a window width: the narrowest breakpoint that covers it wins. */
export function slidesToShowAt(
  width: number,
  base: number,
  breakpoints: readonly SlidesBreakpoint[],
): number {
  let count = base;
  for (const { breakpoint, slidesToShow } of breakpoints) {
    if (width <= breakpoint) count = Math.min(count, slidesToShow);
  }
  return count;
}

/**
 * slidesToShow for the current window width, kept up to date on resize. react-slick 0.31 applies
 * its `responsive` settings only when the window crosses a breakpoint, never on the first render,
 * so a phone would open with the desktop's slide count: carousels pass this value instead.
 * Carousels render only in the browser (loaded lazily after hydration), so the first render already
 * has the window's count: a carousel mounted again (the home page on Back) keeps its height from the
 * start, and the restored scroll position lands where the reader left.
 */
export function useSlidesToShow(base: number, breakpoints: readonly SlidesBreakpoint[]): number {
  const [count, setCount] = useState(() =>
    typeof window === "undefined" ? base : slidesToShowAt(window.innerWidth, base, breakpoints),
  );
  useEffect(() => {
    const measure = () => setCount(slidesToShowAt(window.innerWidth, base, breakpoints));
    measure();
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, [base, breakpoints]);
  return count;
}
