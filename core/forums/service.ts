import { TtlCache } from "../cache/ttl-cache.ts";
import { createDealPager } from "../cards/paging.ts";
import type { Deps } from "../deps.ts";
import { presentForum } from "./presenter.ts";
import * as repo from "./repository.ts";

/**
 * The forum list. A forum's post count is the number of live posts of its type, the posts its
 * VISIT FORUM page lists (/educator for g, /newdeals for d). Counting every deal is a full scan
 * on a large site, so the count is the listings' own cached one (core/cards/paging.ts), which a
 * change of posts drops.
 */
export function createForumsService({ db, changes }: Deps) {
  const forums = new TtlCache<repo.ForumRow[]>(60_000, 1);
  changes.on("forums", () => forums.clear());
  const pager = createDealPager(db);

  function postCount(postType: "d" | "g") {
    return pager.scopeCount({ kind: "type", postType });
  }

  return {
    async list() {
      const rows = await forums.get("forums", () => repo.findForums(db));
      return Promise.all(rows.map(async (row) => presentForum(row, await postCount(row.type))));
    },
  };
}

export type ForumsService = ReturnType<typeof createForumsService>;
