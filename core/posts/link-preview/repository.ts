import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/** Deals of the product listed as possible duplicates. */
export const DUPLICATES_SHOWN = 5;
const NINETY_DAYS_MS = 90 * 24 * 60 * 60 * 1000;

/** Stores with a web address, for matching a link's domain (a few hundred rows at most). */
export function findStoresWithLinks(db: DbOrTx) {
  return db
    .selectFrom("stores")
    .select(["id", "title", "link"])
    .where("link", "<>", "")
    .orderBy("id")
    .execute();
}

/**
 * The product a link key belongs to (record 0040), following a merge; null when no deal of the
 * link was ever grouped. Read only: a preview makes no product.
 */
async function productOfLinkKey(db: DbOrTx, linkKey: string): Promise<number | null> {
  const row = await db
    .selectFrom("products")
    .select(sql<number>`coalesce(merged_into, id)`.as("product_id"))
    .where("link_key", "=", linkKey)
    .executeTakeFirst();
  return row?.product_id ?? null;
}

/** The deals of a link key's product, or of the link key itself when it has no product yet. */
async function sameProduct(db: DbOrTx, linkKey: string) {
  const productId = await productOfLinkKey(db, linkKey);
  return db
    .selectFrom("posts")
    .where((eb) =>
      productId === null
        ? eb("link_key", "=", linkKey)
        : eb.or([eb("product_id", "=", productId), eb("link_key", "=", linkKey)]),
    );
}

/** Public deals of the same product, newest first: what a member might be posting again. */
export async function findProductDuplicates(db: DbOrTx, linkKey: string) {
  return (await sameProduct(db, linkKey))
    .select(["unique_id", "slug", "title", "price", "expires_at"])
    .where("post_type", "=", "d")
    .where("status", "=", "active")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(DUPLICATES_SHOWN)
    .execute();
}

/**
 * The product's lowest price posted in the 90 days before `now`, in `currency`, among the prices
 * its history counts (not held, hidden or removed: core/posts/prices/repository.ts).
 */
export async function findLowestPrice90Days(
  db: DbOrTx,
  linkKey: string,
  currency: string,
  now: Date,
) {
  return (await sameProduct(db, linkKey))
    .select(["unique_id", "slug", "price", "currency", "created_at"])
    .where("post_type", "=", "d")
    .where("price", "is not", null)
    .where("currency", "=", currency)
    .where("status", "not in", ["pending", "hidden", "removed"])
    .where("created_at", ">=", new Date(now.getTime() - NINETY_DAYS_MS))
    .orderBy("price", "asc")
    .orderBy("created_at", "desc")
    .limit(1)
    .executeTakeFirst();
}
