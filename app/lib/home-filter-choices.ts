import { useEffect, useSyncExternalStore } from "react";
import { apiCall, type ApiAnswerOf } from "./api.ts";

/**
 * The home page's By Merchant and By Category options, loaded by the browser from the spec's
 * `GET /api/stores_list` and `GET /api/category_list` (public, cached for five minutes) rather
 * than sent in the page: 72 stores and 30 categories were about 9 kB of every home page's HTML,
 * as `<option>`s and again as hydration data, for selects that work only with JavaScript
 * (docs/decisions/0065-lighter-home-page.md). The server renders the chosen option alone.
 *
 * They load once the page is idle after hydration, or at once when the visitor reaches for a
 * select, and are kept for the rest of the visit, so a return to the home page has them at once.
 */

export interface FilterChoice {
  id: number;
  title: string;
}

export interface FilterChoices {
  merchants: FilterChoice[];
  categories: FilterChoice[];
}

let loaded: FilterChoices | null = null;
let loading: Promise<void> | null = null;
const listeners = new Set<() => void>();

async function fetchChoices(): Promise<FilterChoices | null> {
  const [stores, categories] = await Promise.all([
    apiCall("/stores_list"),
    apiCall("/category_list"),
  ]);
  if (!stores.ok || !categories.ok) return null;
  const pick = (list: ApiAnswerOf<"/stores_list" | "/category_list", "GET">) =>
    list.response.selected_data.map(({ id, title }) => ({ id, title }));
  return { merchants: pick(stores.data), categories: pick(categories.data) };
}

/** Starts loading the choices unless they are loaded or loading; a failed load is tried again next time. */
export function loadFilterChoices(): void {
  if (loaded || loading) return;
  loading = fetchChoices()
    .catch(() => null)
    .then((choices) => {
      loading = null;
      if (!choices) return;
      loaded = choices;
      for (const listener of listeners) listener();
    });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * The choices once loaded, else null. Null while the page hydrates too, as the server rendered
 * it, then the kept choices at once (useSyncExternalStore's server snapshot).
 */
export function useFilterChoices(): FilterChoices | null {
  const choices = useSyncExternalStore(
    subscribe,
    () => loaded,
    () => null,
  );
  useEffect(() => {
    if (loaded) return;
    // requestIdleCallback is missing in Safari: a timeout stands in for it.
    if (typeof window.requestIdleCallback === "function") {
      const handle = window.requestIdleCallback(loadFilterChoices, { timeout: 2_000 });
      return () => window.cancelIdleCallback(handle);
    }
    const handle = window.setTimeout(loadFilterChoices, 200);
    return () => window.clearTimeout(handle);
  }, []);
  return choices;
}

/** For tests: forget what was loaded. */
export function resetFilterChoices(): void {
  loaded = null;
  loading = null;
}
