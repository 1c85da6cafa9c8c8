import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { Link } from "react-router";
import type { FeaturedStore } from "../../core/cms/presenter.ts";
import { FEATURED_STORES_INTERVAL_MS } from "../../core/constants.ts";
import { useMediaUrl } from "../lib/media-url.tsx";

// useLayoutEffect warns during server rendering; the slide animation only matters in the browser.
const useBrowserLayoutEffect = typeof window === "undefined" ? useEffect : useLayoutEffect;

function prefersReducedMotion(): boolean {
  return (
    typeof window !== "undefined" && window.matchMedia?.("(prefers-reduced-motion: reduce)").matches
  );
}

/**
 * The featured stores strip of Contact Us: one step every second, no controls or indicators (spec
 * section 9). Rendered on the server as a plain list of links; in the browser the first store
 * moves to the end each second. Every store is in the list exactly once (no clones), so keyboard
 * and screen-reader users meet each link once; the strip pauses while pointed at or focused and
 * stands still for visitors who ask for reduced motion.
 */
export function FeaturedStoresCarousel({ stores }: { stores: FeaturedStore[] }) {
  const mediaUrl = useMediaUrl();
  const [start, setStart] = useState(0);
  const [paused, setPaused] = useState(false);
  const listRef = useRef<HTMLUListElement>(null);
  const moved = useRef(false);

  useEffect(() => {
    if (paused || stores.length < 2 || prefersReducedMotion()) return;
    const timer = setInterval(() => {
      moved.current = true;
      setStart((s) => (s + 1) % stores.length);
    }, FEATURED_STORES_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [paused, stores.length]);

  // Slide in from one slide's width to the right, so the rotation reads as a leftward step.
  useBrowserLayoutEffect(() => {
    const list = listRef.current;
    const first = list?.firstElementChild as HTMLElement | null;
    if (!moved.current || !list || !first || typeof list.animate !== "function") return;
    list.animate(
      [{ transform: `translateX(${first.offsetWidth}px)` }, { transform: "translateX(0)" }],
      {
        duration: 400,
        easing: "ease-out",
      },
    );
  }, [start]);

  if (stores.length === 0) return null;
  const ordered = [...stores.slice(start), ...stores.slice(0, start)];

  return (
    <section className="featured-stores" aria-labelledby="featured-stores-heading">
      <h2 id="featured-stores-heading">Featured Stores</h2>
      <div
        className="featured-stores-viewport"
        onMouseEnter={() => setPaused(true)}
        onMouseLeave={() => setPaused(false)}
        onFocus={() => setPaused(true)}
        onBlur={() => setPaused(false)}
      >
        <ul ref={listRef} className="featured-stores-track">
          {ordered.map((store) => (
            <li key={store.slug} className="featured-store">
              <Link to={`/store/${store.slug}`}>
                {store.image_url ? (
                  <img
                    src={mediaUrl(store.image_url)}
                    alt={store.title}
                    width={120}
                    height={120}
                    loading="lazy"
                  />
                ) : (
                  <span>{store.title}</span>
                )}
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
