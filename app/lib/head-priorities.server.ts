import { Transform, type TransformCallback } from "node:stream";

const HEAD_END = "</head>";
/** A module preload as React writes it (`rel` first), not yet given a priority. */
const UNMARKED_MODULE_PRELOAD = /<link rel="modulepreload" (?!fetchpriority=)/g;

/**
 * Marks the page's module preloads `fetchpriority="low"` in its head, as the HTML streams out.
 *
 * React writes `<Scripts>`' 27 or so `<link rel="modulepreload">`s into the head, and the browser
 * fetches them at high priority, beside the style sheets and the main picture that the first paint
 * waits for. On a slow phone link the scripts (about 113 kB) then share the link with what makes
 * the page visible. The page works before its scripts run (links and forms), so they are asked for
 * at low priority: the browser fetches them after the style sheets and the main picture, and the
 * page is shown sooner (docs/decisions/0056). React Router writes these links with no way to set an
 * attribute on them, hence a pass over the head's bytes; the body passes through untouched.
 *
 * `done` runs when React has written the whole page (the entry's time-out is cleared there).
 */
export function lowPriorityModulePreloads(done: () => void): Transform {
  // The bytes up to the end of the head, until it has passed; then null.
  let head: Buffer[] | null = [];
  return new Transform({
    transform(chunk: Buffer | string, _encoding, callback: TransformCallback) {
      if (head === null) return callback(null, chunk);
      head.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk);
      const bytes = Buffer.concat(head);
      const end = bytes.indexOf(HEAD_END);
      if (end < 0) {
        head = [bytes];
        return callback();
      }
      head = null;
      const marked = markLowPriority(bytes.subarray(0, end).toString("utf8"));
      callback(null, Buffer.concat([Buffer.from(marked, "utf8"), bytes.subarray(end)]));
    },
    flush(callback: TransformCallback) {
      if (head?.length) this.push(Buffer.concat(head));
      head = null;
      done();
      callback();
    },
  });
}

/** The head with every module preload marked low priority (those already marked are left). */
export function markLowPriority(head: string): string {
  return head.replace(UNMARKED_MODULE_PRELOAD, '<link rel="modulepreload" fetchpriority="low" ');
}
