import { useEffect, useLayoutEffect, useRef } from "react";
import { ScrollRestoration, useLocation, useNavigationType } from "react-router";

/**
 * Where the page scrolls on a client navigation:
 * - a new page (another pathname) opens at the top — the spec's "scrolls to the top on every route
 *   change" — and so does the same address opened again;
 * - Back and Forward put the view back where it was on that history entry (React Router's
 *   <ScrollRestoration>, keyed by the entry, kept in sessionStorage so a reload keeps it too);
 * - a change of the query alone (a filter, the sort, the page size) keeps the view where it is,
 *   whether or not the link or form that made it asked React Router to `preventScrollReset`.
 */
export function ScrollManager() {
  return (
    <>
      <ScrollRestoration />
      <KeepPlaceOnQueryChange />
    </>
  );
}

/**
 * <ScrollRestoration> scrolls to the top on every navigation that is not Back/Forward unless the
 * navigation said `preventScrollReset`. Rendered after it, this puts the view back where it was when
 * only the query changed: both run before the browser paints, so nothing jumps on screen.
 */
function KeepPlaceOnQueryChange() {
  const location = useLocation();
  const navigationType = useNavigationType();
  const previous = useRef(location);
  // The last position the reader scrolled to; scroll events arrive after a frame, so the reset to
  // the top made by <ScrollRestoration> just before is not seen here yet.
  const lastY = useRef(0);

  useEffect(() => {
    const onScroll = () => {
      lastY.current = window.scrollY;
    };
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);

  useLayoutEffect(() => {
    const before = previous.current;
    previous.current = location;
    if (before.key === location.key || navigationType === "POP") return;
    const queryOnly =
      before.pathname === location.pathname && before.search !== location.search && !location.hash;
    if (queryOnly && window.scrollY === 0 && lastY.current > 0) {
      window.scrollTo(0, lastY.current);
    }
  }, [location, navigationType]);

  return null;
}
