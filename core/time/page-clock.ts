const MINUTE_MS = 60_000;

/**
 * The server's clock as a page's loader sends it (ISO), for time-ago labels that read the same
 * after hydration. It is taken to the minute: the labels step by minutes ('Just now', minutes…),
 * and a page that stays byte-for-byte the same for a minute keeps its ETag, so browsers and
 * caches can revalidate it with a 304.
 */
export function pageClock(at: number = Date.now()): string {
  return new Date(Math.floor(at / MINUTE_MS) * MINUTE_MS).toISOString();
}
