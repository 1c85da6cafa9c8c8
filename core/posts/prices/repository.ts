import type { DbOrTx } from "../../../db/index.ts";
import { productForLinkKey } from "./product-of-link.ts";
import { prepared } from "../../../db/prepared.ts";

/**
 * Products and their prices (docs/decisions/0040-price-history.md). A product groups the deals of
 * one normalised link, or the deals a moderator merged into it; a deal whose product_id is null is
 * a product of its own. Migration 020's trigger keeps posts.lowest_in_90d right whenever a
 * product's deals change, so nothing here writes that flag.
 */

/** Statuses whose deals are not prices of their product: held, hidden, removed. */
export const UNCOUNTED_STATUSES = ["pending", "hidden", "removed"] as const;

/** How many points a history holds at most: the latest ones. */
export const HISTORY_LIMIT = 200;

/** A deal as a merge needs it, locked. */
export function lockDealForMerge(tx: DbOrTx, uniqueId: string) {
  return tx
    .selectFrom("posts")
    .select(["id", "unique_id", "title", "post_type", "status", "link_key", "product_id"])
    .where("unique_id", "=", uniqueId)
    .forUpdate()
    .executeTakeFirst();
}

export type MergeDeal = NonNullable<Awaited<ReturnType<typeof lockDealForMerge>>>;

/**
 * The product a deal belongs to, made for it when it has none: by its link when it has one, else a
 * product with no link of its own.
 */
export async function ensureProduct(tx: DbOrTx, deal: MergeDeal, at: Date): Promise<number> {
  if (deal.product_id !== null) return deal.product_id;
  const productId = deal.link_key
    ? await productForLinkKey(tx, deal.link_key, at)
    : (
        await tx
          .insertInto("products")
          .values({ link_key: null, created_at: at })
          .returning("id")
          .executeTakeFirstOrThrow()
      ).id;
  await tx.updateTable("posts").set({ product_id: productId }).where("id", "=", deal.id).execute();
  return productId;
}

/** The unique_ids of a product's deals, oldest first (for the audit log). */
export async function dealsOfProduct(tx: DbOrTx, productId: number) {
  const rows = await tx
    .selectFrom("posts")
    .select("unique_id")
    .where("product_id", "=", productId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map((row) => row.unique_id);
}

/**
 * Moves every deal of product `from` into product `into`, and makes `from` (and any product merged
 * into it before) point at `into`, so new deals of its links join `into` too.
 */
export async function mergeProducts(tx: DbOrTx, from: number, into: number) {
  await tx
    .updateTable("products")
    .set({ merged_into: into })
    .where((eb) => eb.or([eb("id", "=", from), eb("merged_into", "=", from)]))
    .execute();
  await tx.updateTable("posts").set({ product_id: into }).where("product_id", "=", from).execute();
}

/** A deal as its price history starts from: any status, by unique_id. */
export function findDealForHistory(db: DbOrTx, uniqueId: string) {
  return db
    .selectFrom("posts")
    .select(["id", "unique_id", "post_type", "status", "product_id", "currency", "created_at"])
    .where("unique_id", "=", uniqueId)
    .executeTakeFirst();
}

export type HistoryDeal = NonNullable<Awaited<ReturnType<typeof findDealForHistory>>>;

/**
 * Every price of the deal's product in the deal's currency: its deals with a price that are live
 * or expired (not held, hidden or removed), oldest first; at most the latest HISTORY_LIMIT. A deal
 * with no product is its own history.
 */
export async function findPricePoints(db: DbOrTx, deal: HistoryDeal) {
  const rows = await prepared(db.selectFrom("posts"))
    .select(["id", "unique_id", "price", "created_at"])
    .$call((qb) =>
      deal.product_id === null
        ? qb.where("id", "=", deal.id)
        : qb.where("product_id", "=", deal.product_id),
    )
    .where("post_type", "=", "d")
    .where("price", "is not", null)
    .where("currency", "=", deal.currency)
    .where("status", "not in", UNCOUNTED_STATUSES)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(HISTORY_LIMIT)
    .execute();
  return rows.reverse().map((row) => ({ ...row, price: row.price! }));
}

export type PricePointRow = Awaited<ReturnType<typeof findPricePoints>>[number];

const CONSOLE_DEAL = [
  "unique_id",
  "slug",
  "post_type",
  "title",
  "price",
  "currency",
  "status",
  "created_at",
] as const;

/** The deals a product groups, any status, oldest first, as the console lists them. */
export function findProductDeals(db: DbOrTx, productId: number) {
  return db
    .selectFrom("posts")
    .select(CONSOLE_DEAL)
    .where("product_id", "=", productId)
    .orderBy("created_at")
    .orderBy("id")
    .limit(HISTORY_LIMIT)
    .execute();
}

/** Deals by id, as the console lists them. */
export function findDealsByIds(db: DbOrTx, ids: number[]) {
  return db.selectFrom("posts").select(CONSOLE_DEAL).where("id", "in", ids).execute();
}
