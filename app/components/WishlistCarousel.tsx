import { Suspense, useSyncExternalStore } from "react";
// The carousel's layout rules come with the page (a few hundred bytes), so that the lazily loaded
// slider never shows unstyled.
import type { WishlistEntry } from "../../core/deals/presenter.ts";
import { ChunkBoundary, lazyChunk } from "../lib/chunks.tsx";
import { WishlistCard } from "./WishlistCard.tsx";

const WishlistSlider = lazyChunk("wishlist-carousel", () => import("./WishlistSlider.tsx"));

const subscribeNever = () => () => {};

/**
 * False on the server and while the page hydrates, true on every later render in the browser: a
 * home page shown again (Back) gets the carousel at once, with the height it had, so the restored
 * scroll position lands where the reader left.
 */
function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}

/**
 * The Teachers Wishlist strip. The server renders the teachers as a plain list (so the first HTML
 * has their names); once the page is interactive the carousel replaces it.
 */
export function WishlistCarousel({ entries }: { entries: WishlistEntry[] }) {
  const interactive = useHydrated();

  if (entries.length === 0) return <p className="no-data">No Data Found</p>;
  const list = (
    <ul className="wishlist-strip">
      {entries.map((entry) => (
        <li key={entry.id}>
          <WishlistCard entry={entry} />
        </li>
      ))}
    </ul>
  );
  if (!interactive) return list;
  return (
    <ChunkBoundary fallback={list}>
      <Suspense fallback={list}>
        <WishlistSlider entries={entries} />
      </Suspense>
    </ChunkBoundary>
  );
}
