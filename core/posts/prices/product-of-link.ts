import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/**
 * Which product a deal's link puts it in (docs/decisions/0040-price-history.md): used by posting
 * (core/posts/submissions), the console's edit (core/posts (console-*.ts)) and merges (core/posts/prices), inside
 * their transactions.
 */

/**
 * The product of a link key, made when none exists yet; a merged product answers the product it was
 * merged into. Deals of the same link that were never grouped (stored before migration 020 or by a
 * bulk load) join it, so their prices are part of its history. Call it inside the write's
 * transaction; posting already holds the link's lock (core/posts/submissions).
 */
export async function productForLinkKey(tx: DbOrTx, linkKey: string, at: Date): Promise<number> {
  await tx
    .insertInto("products")
    .values({ link_key: linkKey, created_at: at })
    .onConflict((oc) => oc.column("link_key").doNothing())
    .execute();
  const { product_id } = await tx
    .selectFrom("products")
    .select(sql<number>`coalesce(merged_into, id)`.as("product_id"))
    .where("link_key", "=", linkKey)
    .executeTakeFirstOrThrow();
  // Only live-status posts are found through the link index (posts_link_key_idx); held and
  // removed ones are no prices of the product anyway.
  await tx
    .updateTable("posts")
    .set({ product_id })
    .where("link_key", "=", linkKey)
    .where("status", "=", "active")
    .where("post_type", "=", "d")
    .where("product_id", "is", null)
    .execute();
  return product_id;
}

/** The product a deal's link puts it in (null: no link, a product of its own). */
export function productForLink(tx: DbOrTx, linkKey: string, at: Date) {
  return linkKey ? productForLinkKey(tx, linkKey, at) : Promise.resolve(null);
}
