import { useEffect, useSyncExternalStore } from "react";

/**
 * Deal lists as a grid of tiles or a list of rows, as the visitor chose. The choice is
 * kept in this browser's localStorage only: no cookie, so anonymous pages stay the same for
 * everyone and cacheable. Until a visitor chooses, phones (< 576 px) show rows and wider screens
 * tiles. The choice is applied as `data-card-layout` on <html>, which app/styles/deal-card.css
 * reads.
 */
export type CardLayout = "grid" | "list";

const STORAGE_KEY = "chalkboard.cardLayout";
const CHANGE_EVENT = "chalkboard:card-layout";
const PHONE_QUERY = "(max-width: 575.98px)";

/** The choice of this page when storage is refused (private mode, quota). */
let unsaved: CardLayout | null = null;

function storedLayout(): CardLayout | null {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === "grid" || value === "list" ? value : unsaved;
  } catch {
    return unsaved;
  }
}

function currentLayout(): CardLayout {
  return storedLayout() ?? (window.matchMedia?.(PHONE_QUERY).matches ? "list" : "grid");
}

function apply(layout: CardLayout | null) {
  if (layout) document.documentElement.dataset.cardLayout = layout;
  else delete document.documentElement.dataset.cardLayout;
}

function subscribe(listener: () => void) {
  // Without matchMedia (old engines, test DOMs) the layout follows only the stored choice.
  const media = window.matchMedia?.(PHONE_QUERY);
  window.addEventListener(CHANGE_EVENT, listener);
  window.addEventListener("storage", listener);
  media?.addEventListener("change", listener);
  return () => {
    window.removeEventListener(CHANGE_EVENT, listener);
    window.removeEventListener("storage", listener);
    media?.removeEventListener("change", listener);
  };
}

/** The layout shown (null while rendering on the server), and a way to choose one. */
export function useCardLayout(): [CardLayout | null, (layout: CardLayout) => void] {
  const layout = useSyncExternalStore(subscribe, currentLayout, () => null);
  useEffect(() => {
    apply(storedLayout());
  }, [layout]);
  function choose(next: CardLayout) {
    unsaved = next;
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Storage refused: the choice holds for this page.
    }
    apply(next);
    window.dispatchEvent(new Event(CHANGE_EVENT));
  }
  return [layout, choose];
}
