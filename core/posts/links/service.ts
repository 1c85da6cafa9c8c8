import { TtlCache } from "../../cache/ttl-cache.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { uniqueId } from "../schema.ts";
import { goTarget } from "./affiliate.ts";
import * as repo from "./repository.ts";

/** "N clicks in the last 30 days": today (UTC) and the 29 days before it. */
export const CLICK_WINDOW_DAYS = 30;
/** How long a store's click count is kept in the process: it is a rough figure, read on every page. */
const STORE_CLICKS_TTL_MS = 5 * 60_000;
const DAY_MS = 86_400_000;

const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Honest links (record 0039): where /go/{unique_id} sends a shopper, counting the click in per-day
 * counters that hold no personal data, and the store pages' clicks of the last 30 days.
 */
export function createLinksService({ db, now }: Deps) {
  const storeClicksCache = new TtlCache<number>(STORE_CLICKS_TTL_MS, 2000);

  /**
   * The address GRAB DEAL leads to for a public post, after counting the click when `count` says
   * so (people, not crawlers or prefetches). A NotFoundError for an unknown, held, hidden or
   * removed post, for one without a link, and for a link that is not an http(s) address.
   */
  async function go(id: string, options: { count: boolean }): Promise<string> {
    if (!uniqueId.safeParse(id).success) throw new NotFoundError();
    const row = await repo.findGoLink(db, id);
    if (!row || row.status !== "active") throw new NotFoundError();
    const target = goTarget(row.link, row.store_affiliate_template ?? "");
    if (!target) throw new NotFoundError();
    if (options.count) {
      const click = { postId: row.id, storeId: row.store_id, day: utcDay(now()) };
      await db.transaction().execute((tx) => repo.recordClick(tx, click));
    }
    return target;
  }

  /** Clicks through /go on a store's deals in the last 30 days, kept a few minutes per store and day. */
  function storeClicks(storeId: number): Promise<number> {
    const at = now();
    const today = utcDay(at);
    const from = utcDay(new Date(at.getTime() - (CLICK_WINDOW_DAYS - 1) * DAY_MS));
    return storeClicksCache.get(`${storeId}:${today}`, () =>
      repo.sumStoreClicks(db, storeId, from, today),
    );
  }

  return { go, storeClicks };
}

export type LinksService = ReturnType<typeof createLinksService>;
