import { postPath } from "../paths.ts";
import type { PricePointRow, findProductDeals } from "./repository.ts";

/** One price of a product: what was asked, when it was posted, and which deal posted it. */
export function presentPricePoint(row: PricePointRow) {
  return { price: row.price, date: row.created_at.toISOString(), unique_id: row.unique_id };
}

export type PricePoint = ReturnType<typeof presentPricePoint>;

/**
 * A deal page's price history: the product's points (oldest first), the price posted before this
 * deal (for "Was $X here on …"), and whether "Lowest price in 90 days" holds.
 */
export function presentPriceHistory(
  deal: { id: number; created_at: Date; lowest_in_90d: boolean },
  rows: PricePointRow[],
) {
  const before = rows.filter(
    (row) =>
      row.created_at < deal.created_at ||
      (row.created_at.getTime() === deal.created_at.getTime() && row.id < deal.id),
  );
  const previous = before.at(-1);
  return {
    points: rows.map(presentPricePoint),
    previous: previous ? presentPricePoint(previous) : null,
    lowest_in_90d: deal.lowest_in_90d,
  };
}

export type PriceHistory = ReturnType<typeof presentPriceHistory>;

/** `POST /api/price_history`. */
export function presentPriceHistoryResponse(points: PricePoint[]) {
  return { status: "true", points };
}

/** `POST /api/admin/posts/merge_product`. */
export function presentMerged(result: { product_id: number; deals: string[] }) {
  return {
    status: "true",
    message: `Merged: this product now has ${result.deals.length} deals.`,
    product_id: result.product_id,
    deals: result.deals,
  };
}

/** A product's deals as the console's edit page lists them beside the merge form. */
export function presentProductDeals(rows: Awaited<ReturnType<typeof findProductDeals>>) {
  return rows.map((row) => ({
    unique_id: row.unique_id,
    title: row.title,
    price: row.price,
    currency: row.currency,
    status: row.status,
    date: row.created_at.toISOString(),
    path: postPath(row),
  }));
}

export type ProductDeal = ReturnType<typeof presentProductDeals>[number];
