import { Suspense, useEffect, useRef, useState, type ReactNode } from "react";
import { FiChevronLeft, FiChevronRight, FiPause, FiPlay } from "react-icons/fi";
import type SlickSlider from "react-slick";
import type { Settings } from "react-slick";
import { Link } from "react-router";
import { FOLLOW_CAROUSEL } from "../../core/constants.ts";
import type { FollowEntry } from "../../core/people/profiles/presenter.ts";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";
import { commonJsDefault } from "../lib/interop.ts";
import { slidesToShowAt } from "../lib/slick.ts";
import { Avatar } from "./Avatar.tsx";
import "../styles/profile.css";

// Loaded after first paint, and only on the pages that show a carousel.
const Slider = lazyChunk("carousel", async () => ({
  default: commonJsDefault((await import("react-slick")).default as typeof SlickSlider),
}));

const SETTINGS: Settings = {
  slidesToShow: FOLLOW_CAROUSEL.slidesToShow,
  slidesToScroll: 1,
  autoplay: true,
  autoplaySpeed: FOLLOW_CAROUSEL.autoplaySpeedMs,
  infinite: true,
  arrows: false,
  dots: false,
  pauseOnHover: true,
  pauseOnFocus: true,
};

function prefersReducedMotion(): boolean {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

function FollowCard({ entry }: { entry: FollowEntry }) {
  return (
    <Link to={`/profile/${entry.user_id}`} className="follow-card">
      <Avatar name={entry.name} image={entry.user_image} size={72} />
      <span className="follow-card-name">{entry.name}</span>
    </Link>
  );
}

/**
 * Slick marks the slides out of view aria-hidden (and clones some for the endless loop); their
 * links must then leave the tab order too, or keyboard users land on invisible links.
 */
function useHiddenSlidesUnfocusable(root: HTMLElement | null) {
  useEffect(() => {
    if (!root) return;
    const sync = () => {
      for (const slide of root.querySelectorAll<HTMLElement>(".slick-slide")) {
        const hidden = slide.getAttribute("aria-hidden") === "true";
        for (const link of slide.querySelectorAll<HTMLElement>("a, button")) {
          if (hidden) link.setAttribute("tabindex", "-1");
          else link.removeAttribute("tabindex");
        }
      }
    };
    sync();
    const observer = new MutationObserver(sync);
    observer.observe(root, { subtree: true, childList: true, attributeFilter: ["aria-hidden"] });
    return () => observer.disconnect();
  }, [root]);
}

/**
 * Followers or followings as the spec's carousel: up to 7 visible (5 under 1024 px, 3 under
 * 767 px, 2 under 450 px, 1 under 320 px), moving every 2 s. The server sends a plain list of the
 * same people; the carousel replaces it in the browser. It has previous, next and pause buttons,
 * pauses while pointed at or focused, and stands still for visitors who ask for reduced motion.
 */
export function FollowCarousel({ entries, label }: { entries: FollowEntry[]; label: string }) {
  // Until the browser says how wide it is, and whenever everyone fits, a plain list is shown.
  const [visible, setVisible] = useState<number | null>(null);
  const [playing, setPlaying] = useState(true);
  const [root, setRoot] = useState<HTMLDivElement | null>(null);
  const slider = useRef<SlickSlider>(null);
  useHiddenSlidesUnfocusable(root);

  useEffect(() => {
    const measure = () =>
      setVisible(
        slidesToShowAt(window.innerWidth, FOLLOW_CAROUSEL.slidesToShow, FOLLOW_CAROUSEL.responsive),
      );
    measure();
    if (prefersReducedMotion()) setPlaying(false);
    window.addEventListener("resize", measure);
    return () => window.removeEventListener("resize", measure);
  }, []);

  if (entries.length === 0) return <p className="no-data">No Data Found</p>;

  const list: ReactNode = (
    <ul className="follow-list">
      {entries.map((entry) => (
        <li key={entry.id}>
          <FollowCard entry={entry} />
        </li>
      ))}
    </ul>
  );
  if (visible === null || entries.length <= visible) return list;

  return (
    <div className="follow-carousel" ref={setRoot}>
      <div className="follow-carousel-controls">
        <button
          type="button"
          className="carousel-control"
          onClick={() => slider.current?.slickPrev()}
          aria-label={`Previous ${label}`}
        >
          <FiChevronLeft aria-hidden="true" />
        </button>
        <button
          type="button"
          className="carousel-control"
          onClick={() => {
            // react-slick ignores `autoplay` turning true again after a pause: tell it directly.
            if (playing) slider.current?.slickPause();
            else slider.current?.slickPlay();
            setPlaying(!playing);
          }}
          aria-label={playing ? `Pause ${label}` : `Play ${label}`}
        >
          {playing ? <FiPause aria-hidden="true" /> : <FiPlay aria-hidden="true" />}
        </button>
        <button
          type="button"
          className="carousel-control"
          onClick={() => slider.current?.slickNext()}
          aria-label={`Next ${label}`}
        >
          <FiChevronRight aria-hidden="true" />
        </button>
      </div>
      <ChunkBoundary fallback={list}>
        <Suspense fallback={list}>
          <Slider ref={slider} {...SETTINGS} slidesToShow={visible} autoplay={playing}>
            {entries.map((entry) => (
              <div key={entry.id} className="follow-slide">
                <FollowCard entry={entry} />
              </div>
            ))}
          </Slider>
        </Suspense>
      </ChunkBoundary>
    </div>
  );
}
