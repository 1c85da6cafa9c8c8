import { recordAudit } from "../../audit/audit-trail.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import type { Deps } from "../../deps.ts";
import { ConflictError, NotFoundError, ValidationError } from "../../errors.ts";
import type { DbOrTx } from "../../../db/index.ts";
import { requireProductMerge } from "./policy.ts";
import {
  presentPriceHistory,
  presentPricePoint,
  presentProductDeals,
  type PriceHistory,
} from "./presenter.ts";
import * as repo from "./repository.ts";
import {
  HISTORY_MESSAGES,
  MERGE_MESSAGES,
  type MergeProductInput,
  type PriceHistoryInput,
} from "./schema.ts";

/**
 * A deal page's price history (core/posts/service.ts puts it beside the page's fields): the
 * product's points, the previous price and the lowest-in-90-days flag. Empty for an educator post.
 */
export async function priceHistoryOf(
  db: DbOrTx,
  post: repo.HistoryDeal & { lowest_in_90d: boolean },
): Promise<PriceHistory> {
  if (post.post_type !== "d") return presentPriceHistory(post, []);
  return presentPriceHistory(post, await repo.findPricePoints(db, post));
}

/** Price history: every price a product was posted at, and moderators' merges of products. */
export function createPricesService({ db, now, changes }: Deps) {
  return {
    /**
     * `POST /api/price_history`: every price of the deal's product, oldest first. Public, like the
     * deal page: an unknown deal, an educator post, or one held, hidden or removed is not found.
     */
    async history(input: PriceHistoryInput) {
      const deal = await repo.findDealForHistory(db, input.unique_id);
      const hidden = (repo.UNCOUNTED_STATUSES as readonly string[]).includes(deal?.status ?? "");
      if (!deal || deal.post_type !== "d" || hidden) {
        throw new NotFoundError(HISTORY_MESSAGES.notFound);
      }
      return (await repo.findPricePoints(db, deal)).map(presentPricePoint);
    },

    /**
     * The deals grouped with a deal (itself included), for the console's edit page; just the deal
     * when it has no product. Moderators only; a NotFoundError for an unknown deal.
     */
    async productDeals(user: CurrentUser | null, uniqueId: string) {
      requireProductMerge(user);
      const deal = await repo.findDealForHistory(db, uniqueId);
      if (!deal) throw new NotFoundError(MERGE_MESSAGES.notFound);
      if (deal.product_id === null) {
        const own = await repo.findDealsByIds(db, [deal.id]);
        return presentProductDeals(own);
      }
      return presentProductDeals(await repo.findProductDeals(db, deal.product_id));
    },

    /**
     * `POST /api/admin/posts/merge_product`: the deal `unique_id`, with every deal of its product,
     * joins the product of `into_unique_id`; new deals of its link join that product too. Audited;
     * the lowest-price flags of both products follow (migration 020's trigger).
     */
    async merge(user: CurrentUser | null, input: MergeProductInput) {
      const actor = requireProductMerge(user);
      if (input.unique_id === input.into_unique_id) {
        throw new ValidationError({ into_unique_id: MERGE_MESSAGES.itself });
      }
      const at = now();
      const result = await db.transaction().execute(async (tx) => {
        // Locked in a fixed order, so two merges of the same pair cannot deadlock.
        const [first, second] = [input.unique_id, input.into_unique_id].sort();
        const locked = new Map<string, repo.MergeDeal>();
        for (const id of [first!, second!]) {
          const row = await repo.lockDealForMerge(tx, id);
          if (row) locked.set(id, row);
        }
        const deal = locked.get(input.unique_id);
        const into = locked.get(input.into_unique_id);
        if (!deal) throw new NotFoundError(MERGE_MESSAGES.notFound);
        if (!into) throw new NotFoundError(MERGE_MESSAGES.intoNotFound);
        if (deal.post_type !== "d" || into.post_type !== "d") {
          throw new ValidationError({
            [deal.post_type !== "d" ? "unique_id" : "into_unique_id"]: MERGE_MESSAGES.notDeal,
          });
        }
        const target = await repo.ensureProduct(tx, into, at);
        const source = await repo.ensureProduct(tx, deal, at);
        if (source === target) throw new ConflictError(MERGE_MESSAGES.already);
        const moved = await repo.dealsOfProduct(tx, source);
        await repo.mergeProducts(tx, source, target);
        const deals = await repo.dealsOfProduct(tx, target);
        await recordAudit(tx, actor, {
          action: "post.merge_product",
          itemType: "d",
          itemId: deal.unique_id,
          reason: input.reason,
          before: { product_id: source, deals: moved },
          after: { product_id: target, into: into.unique_id, deals },
        });
        return { product_id: target, deals };
      });
      changes.emit("posts");
      return result;
    },
  };
}

export type PricesService = ReturnType<typeof createPricesService>;
