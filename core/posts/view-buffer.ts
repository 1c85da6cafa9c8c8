import type { DbOrTx } from "../../db/index.ts";
import * as repo from "./repository.ts";
import type { PostView } from "./repository.ts";

/**
 * How long a view waits to be written with the others, how many make a write at once, and how
 * many may wait at most (while the database is slow or away; views past that are not counted).
 */
export const VIEW_BUFFER_LIMITS = { delayMs: 1_000, maxPending: 500, maxHeld: 50_000 };

export type ViewBufferLimits = typeof VIEW_BUFFER_LIMITS;

/**
 * Views of pages served from the page cache, written together: about one statement per second
 * (or per `maxPending` views) whatever the traffic, instead of one write per request. A shared hot
 * deal can draw thousands of anonymous visits a second; each cached answer now only notes its view
 * in memory, and the same visitor's repeats are noted once. One write runs at a time; the views
 * noted meanwhile go in the next. The counts are those of one write per view (post_views still
 * decides which view of the day counts), a second later. docs/decisions/0061-cached-page-views.md
 */
export function createViewBuffer(
  db: DbOrTx,
  log: { error(msg: string | object): void },
  limits: ViewBufferLimits = VIEW_BUFFER_LIMITS,
) {
  let pending = new Map<string, PostView>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> | null = null;

  async function drain(): Promise<void> {
    while (pending.size > 0) {
      const batch = [...pending.values()];
      pending = new Map();
      try {
        await repo.recordViews(db, batch);
      } catch (error) {
        log.error({ msg: `could not record ${batch.length} page views`, err: error });
      }
    }
  }

  function write(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing ??= drain().finally(() => {
      writing = null;
    });
    return writing;
  }

  return {
    /** Notes one view; it is written within `delayMs`. */
    add(view: PostView): void {
      if (pending.size >= limits.maxHeld) return;
      pending.set(`${view.postId} ${view.day} ${view.visitorKey}`, view);
      if (pending.size >= limits.maxPending) void write();
      else if (!timer && !writing) {
        timer = setTimeout(() => void write(), limits.delayMs);
        timer.unref(); // shutdown flushes (server/app.ts); a pending write keeps no process alive
      }
    },
    /** Writes every noted view now (at shutdown, and for tests); resolves when they are written. */
    flush: write,
  };
}

export type ViewBuffer = ReturnType<typeof createViewBuffer>;
