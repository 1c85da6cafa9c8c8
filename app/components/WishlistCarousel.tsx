import { Suspense, useEffect, useRef, useState, useSyncExternalStore } from "react";
// The carousel's layout rules come with the page (a few hundred bytes), so that the lazily loaded
// slider never shows unstyled.
import type { WishlistEntry } from "../../core/home/presenter.ts";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";
import { WishlistCard } from "./WishlistCard.tsx";

const WishlistSlider = lazyChunk("wishlist-carousel", () => import("./WishlistSlider.tsx"));

const subscribeNever = () => () => {};

/**
 * False on the server and while the page hydrates, true on every later render in the browser: a
 * home page shown again (Back) gets the carousel at once, with the height it had, so the restored
 * scroll position lands where the reader left. A copy of app/lib/use-hydrated.ts: importing that
 * module puts one more file on the home page, over its gzip budget
 * (tests/integration/javascript-budget.test.ts).
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/** How far below (or above) the window the strip may be when its carousel starts to load. */
const NEAR_MARGIN = "600px 0px";

/**
 * True once the element is within NEAR_MARGIN of the window (at once where the browser has no
 * IntersectionObserver); `enabled` false keeps it unobserved.
 */
function useNearWindow(element: React.RefObject<HTMLElement | null>, enabled: boolean): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const target = element.current;
    if (!enabled || near || !target) return;
    if (typeof IntersectionObserver === "undefined") {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [element, enabled, near]);
  return near;
}

/**
 * The Teachers Wishlist strip. The server renders the teachers as a plain list (so the first HTML
 * has their names). The carousel replaces it once the page is interactive and the strip is near
 * the window: on a phone it is below the first deals, and a reader who never scrolls there costs
 * nothing for it (its module, react-slick's layout work and its autoplay timer,
 * docs/decisions/0063). A page rendered in the browser (Back to the home page) shows it at once,
 * with the height it had, so the restored scroll position lands where the reader left.
 */
export function WishlistCarousel({ entries }: { entries: WishlistEntry[] }) {
  const interactive = useHydrated();
  // Whether this strip was first rendered in the browser rather than hydrated.
  const renderedInBrowser = useRef(interactive).current;
  const strip = useRef<HTMLUListElement>(null);
  const near = useNearWindow(strip, interactive && !renderedInBrowser);

  if (entries.length === 0) return <p className="no-data">No Data Found</p>;
  const list = (
    <ul className="wishlist-strip" ref={strip}>
      {entries.map((entry) => (
        <li key={entry.id}>
          <WishlistCard entry={entry} />
        </li>
      ))}
    </ul>
  );
  if (!interactive || !(renderedInBrowser || near)) return list;
  return (
    <ChunkBoundary fallback={list}>
      <Suspense fallback={list}>
        <WishlistSlider entries={entries} />
      </Suspense>
    </ChunkBoundary>
  );
}
