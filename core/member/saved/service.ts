import { requireActingUser } from "../../auth/policy.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { PAGE_SIZE, lastPage } from "../../constants.ts";
import { findCardsByIds } from "../../cards/deal-card-query.ts";
import { NO_BOUNDS } from "../../cards/deal-filter-query.ts";
import { presentDealCard } from "../../cards/presenter.ts";
import type { Deps } from "../../deps.ts";
import { ConflictError, NotFoundError, ValidationError } from "../../errors.ts";
import { uniqueIdOk } from "../../posts/expiry/schema.ts";
import type { Listing } from "../../listings/presenter.ts";
import * as repo from "./repository.ts";
import {
  MAX_SAVED_DEALS,
  SAVED_MESSAGES as M,
  type SaveDealToggleInput,
  type SavedDealsInput,
} from "./schema.ts";

/**
 * Saved deals (docs/decisions/0043-saved-deals-and-feed.md): a member saves a public
 * deal and finds it on /user/saved, expired or not, until they take the save back. A deal that is
 * later held, hidden or removed drops out of the list (and comes back if it is restored); a deleted
 * deal or member takes its saves with it (foreign keys cascade).
 */
export function createSavedService({ db, now }: Deps) {
  return {
    /** `POST /api/save_deal_toggle`: saves the deal, or takes the save back. */
    async toggle(user: CurrentUser | null, input: SaveDealToggleInput) {
      const actor = requireActingUser(user, input.user_id);
      const saved = await db.transaction().execute(async (tx) => {
        const post = await repo.findPostByUniqueId(tx, input.unique_id);
        if (!post || post.status !== "active") throw new NotFoundError(M.notFound);
        if (post.post_type !== "d") throw new ValidationError({ unique_id: M.notADeal });
        if (await repo.deleteSave(tx, actor.id, post.id)) return false;
        if ((await repo.countAllSaves(tx, actor.id)) >= MAX_SAVED_DEALS) {
          throw new ConflictError(M.tooMany);
        }
        await repo.insertSave(tx, actor.id, post.id, now());
        return true;
      });
      return {
        message: saved ? M.saved : M.unsaved,
        unique_id: input.unique_id,
        saved,
      };
    },

    /** `POST /api/saved_deals`: one page of the member's public saved deals, newest saved first. */
    async list(user: CurrentUser | null, input: SavedDealsInput): Promise<Listing> {
      const actor = requireActingUser(user, input.user_id);
      const size = PAGE_SIZE.listing;
      const [total, ids] = await Promise.all([
        repo.countPublicSaves(db, actor.id),
        repo.findSavedIds(db, actor.id, (input.page - 1) * size, size),
      ]);
      const at = now();
      const rows = await findCardsByIds(db, ids);
      return {
        items: rows.map((row) => presentDealCard(row, at)),
        total,
        currentPage: input.page,
        lastPage: lastPage(total, size),
        perPage: size,
        selected: null,
        bounds: NO_BOUNDS,
        stores: [],
      };
    },

    /** Which of some posts (the cards on screen) the member has saved; none for a visitor. */
    async savedAmong(user: CurrentUser | null, postIds: number[]): Promise<number[]> {
      if (!user) return [];
      return repo.findSavedAmong(db, user.id, [...new Set(postIds)]);
    },

    /** Whether the member has saved the deal (the deal page's button); false for a visitor. */
    async isSaved(user: CurrentUser | null, uniqueId: string): Promise<boolean> {
      if (!user || !uniqueIdOk(uniqueId)) return false;
      return repo.hasSaved(db, user.id, uniqueId);
    },
  };
}

export type SavedService = ReturnType<typeof createSavedService>;
