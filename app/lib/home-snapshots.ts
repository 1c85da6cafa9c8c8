/**
 * "Back keeps your place" on the home page: the lists as the reader left them — after
 * any number of LOAD MOREs — kept per history entry, so that Back shows the same deals at once,
 * with no request, and the scroll position can be restored on the same render.
 *
 * They live in this module's memory, keyed by React Router's key of the history entry: a Back or
 * Forward inside the same document finds them; a history entry of another document is loaded
 * afresh by the browser anyway. A snapshot is offered only once the reader has left the page
 * (`leave`), and only once (`take`), so a revalidation while the page is open (after signing out,
 * say) still asks the server.
 */

const LIMIT = 20;

interface Snapshot<T> {
  search: string;
  data: T;
  left: boolean;
}

const snapshots = new Map<string, Snapshot<unknown>>();

export function rememberHome<T>(key: string, search: string, data: T): void {
  snapshots.delete(key);
  snapshots.set(key, { search, data, left: false });
  // The oldest entries go first; a Map iterates in insertion order.
  while (snapshots.size > LIMIT) snapshots.delete(snapshots.keys().next().value!);
}

export function leaveHome(key: string): void {
  const snapshot = snapshots.get(key);
  if (snapshot) snapshot.left = true;
}

/** The lists of the history entry being returned to, if it was left with this query. */
export function takeHome<T>(key: string | undefined, search: string): T | null {
  if (!key) return null;
  const snapshot = snapshots.get(key);
  if (!snapshot || !snapshot.left || snapshot.search !== search) return null;
  snapshot.left = false;
  return snapshot.data as T;
}

/** React Router's key of the history entry the browser is on (set by its history). */
export function currentHistoryKey(): string | undefined {
  const state: unknown = typeof window === "undefined" ? null : window.history.state;
  if (state && typeof state === "object" && "key" in state && typeof state.key === "string") {
    return state.key;
  }
  return undefined;
}

/** For tests. */
export function forgetHomeSnapshots(): void {
  snapshots.clear();
}
