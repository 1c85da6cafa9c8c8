import { useEffect, useLayoutEffect } from "react";
import { useLoaderData, useLocation } from "react-router";

/**
 * "Back keeps the place" on every list of deals (docs/decisions/0111-back-keeps-the-place.md):
 * the list as the reader left it — after any number of LOAD MOREs, a page change or a filter
 * fetched by the page itself — kept per history entry, so that Back (or Forward) shows the same
 * cards at once, with no request, and <ScrollRestoration> puts the view back on the same render.
 *
 * A list route exports `clientLoader = (args) => keptListLoader(args)` and its page calls
 * `useKeptList()`, or `useKeptList(shown)` with the route's data as it shows it. The lists live in this module's memory, keyed by React Router's key of
 * the history entry and its address: a Back or Forward inside the same document finds them; a
 * history entry of another document is loaded afresh by the browser (or its back/forward cache)
 * anyway, and a reload starts with none. A list is offered only once the reader has left its entry
 * (`leaveList`), and only once (`takeList`), so a revalidation while the page is open (after a form
 * was posted, say) and a fresh visit to the same address still ask the server.
 *
 * Every change of who is signed in ends in a document load — Logout posts a plain form, sign-in
 * and account deletion go on with `window.location.assign` — so no list kept for one member is
 * offered to another: this memory goes with the document.
 */

/** How many history entries keep their lists: the oldest go first. */
export const KEPT_LISTS_LIMIT = 20;

interface KeptList {
  /** The entry's pathname and query: the entry must still be at that address. */
  address: string;
  data: unknown;
  left: boolean;
}

const lists = new Map<string, KeptList>();

export function keepList(key: string, address: string, data: unknown): void {
  const before = lists.get(key);
  lists.delete(key);
  // An entry's data may be kept once more just after it was left (a passive effect flushed late):
  // it stays left.
  lists.set(key, { address, data, left: before?.left ?? false });
  // A Map iterates in insertion order: the first key is the oldest.
  while (lists.size > KEPT_LISTS_LIMIT) lists.delete(lists.keys().next().value!);
}

/** The reader is on the entry again (Back to it): its list is not offered while it is shown. */
export function enterList(key: string): void {
  const kept = lists.get(key);
  if (kept) kept.left = false;
}

export function leaveList(key: string): void {
  const kept = lists.get(key);
  if (kept) kept.left = true;
}

/** The list of the history entry being returned to, if it was left at this address. */
export function takeList<T>(key: string | undefined, address: string): T | null {
  if (!key) return null;
  const kept = lists.get(key);
  if (!kept || !kept.left || kept.address !== address) return null;
  kept.left = false;
  return kept.data as T;
}

/** React Router's key of the history entry the browser is on (set by its history). */
export function currentHistoryKey(): string | undefined {
  const state: unknown = typeof window === "undefined" ? null : window.history.state;
  if (state && typeof state === "object" && "key" in state && typeof state.key === "string") {
    return state.key;
  }
  return undefined;
}

/** A location's address as kept: pathname and query. */
export function addressOf(location: { pathname: string; search: string }): string {
  return `${location.pathname}${location.search}`;
}

/**
 * A list route's `clientLoader`: on Back or Forward to an entry left with a kept list, that list;
 * every other time, the server's. The browser's history has already moved to the entry when React
 * Router loads it on Back (popstate), but not yet on a new navigation (it pushes afterwards), so
 * the current history key names the entry being returned to only on Back or Forward.
 */
export async function keptListLoader<T>({
  request,
  serverLoader,
}: {
  request: Request;
  serverLoader: () => Promise<T>;
}): Promise<T> {
  return takeList<T>(currentHistoryKey(), addressOf(new URL(request.url))) ?? serverLoader();
}

/**
 * Keeps the route's data as the page now shows it (`shown`, when the page added to its loader's
 * data: LOAD MORE, a filter it fetched; else the loader's data) for the history entry on screen,
 * and marks the entry left when the reader moves to another one.
 */
export function useKeptList(shown?: unknown): void {
  const location = useLocation();
  const loaded = useLoaderData();
  const data = shown ?? loaded;
  const address = addressOf(location);
  // Entered and left in the commit that shows or replaces the entry, not in a passive effect that
  // runs a moment later: a Back pressed at once must find the entry left.
  useLayoutEffect(() => {
    const key = location.key;
    enterList(key);
    return () => leaveList(key);
  }, [location.key]);
  useEffect(() => {
    keepList(location.key, address, data);
  }, [data, location.key, address]);
}

/** For tests. */
export function forgetKeptLists(): void {
  lists.clear();
}
