import { useEffect, useRef, useState } from "react";
import SlickSlider, { type Settings } from "react-slick";
import { WISHLIST_CAROUSEL } from "../../core/constants.ts";
import type { WishlistEntry } from "../../core/home/presenter.ts";
import { commonJsDefault } from "../lib/interop.ts";
import { useSlidesToShow } from "../lib/slick.ts";
import { WishlistCard } from "./WishlistCard.tsx";

const Slider = commonJsDefault(SlickSlider);

const BREAKPOINTS = WISHLIST_CAROUSEL.responsive.map((r) => ({
  breakpoint: r.breakpoint,
  slidesToShow: r.settings.slidesToShow,
}));

function prefersReducedMotion(): boolean {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/**
 * The Teachers Wishlist as a react-slick carousel with the spec's settings. Loaded lazily (this
 * module and react-slick stay out of the home page's first bundle). Autoplay starts paused for
 * people who ask for reduced motion, and a Pause/Play button stops it for everyone (WCAG 2.2.2).
 */
export default function WishlistSlider({ entries }: { entries: WishlistEntry[] }) {
  const slider = useRef<SlickSlider>(null);
  const frame = useRef<HTMLDivElement>(null);
  const [playing, setPlaying] = useState(
    () => WISHLIST_CAROUSEL.autoplay && !prefersReducedMotion(),
  );

  // Slides react-slick hides (clones for the endless loop, those out of view) get aria-hidden;
  // their links must not be reachable with the keyboard either.
  useEffect(() => {
    const root = frame.current;
    if (!root) return;
    const sync = () => {
      for (const slide of root.querySelectorAll(".slick-slide")) {
        const hidden = slide.getAttribute("aria-hidden") === "true";
        for (const link of slide.querySelectorAll("a")) {
          if (hidden) link.setAttribute("tabindex", "-1");
          else link.removeAttribute("tabindex");
        }
      }
    };
    sync();
    const observer = new MutationObserver(sync);
    observer.observe(root, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ["aria-hidden"],
    });
    return () => observer.disconnect();
  }, []);

  const slidesToShow = useSlidesToShow(WISHLIST_CAROUSEL.slidesToShow, BREAKPOINTS);
  const { responsive: _applied, ...base } = WISHLIST_CAROUSEL;
  const settings: Settings = {
    ...base,
    slidesToShow,
    autoplay: playing,
    pauseOnHover: true,
    pauseOnFocus: true,
  };

  const toggle = () => {
    if (playing) slider.current?.slickPause();
    else slider.current?.slickPlay();
    setPlaying(!playing);
  };

  return (
    <div className="wishlist-carousel" ref={frame}>
      <Slider ref={slider} {...settings}>
        {entries.map((entry) => (
          <div key={entry.id} className="wishlist-slide">
            <WishlistCard entry={entry} />
          </div>
        ))}
      </Slider>
      <button type="button" className="btn btn-link wishlist-toggle" onClick={toggle}>
        {playing ? "Pause carousel" : "Play carousel"}
      </button>
    </div>
  );
}
