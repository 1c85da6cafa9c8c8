import type { AlertRow } from "./repository.ts";

/** An alert as the JSON calls and the page show it (the member's own: no token, no owner id). */
export function presentAlert(row: AlertRow) {
  return {
    id: Number(row.id),
    keywords: row.keywords,
    store_id: row.store_ids.map(Number),
    category_id: row.category_id === null ? null : Number(row.category_id),
    max_price: row.max_price === null ? null : Number(row.max_price),
    min_discount: row.min_discount,
    only_hot: row.only_hot,
    delivery: row.delivery,
    digest_hour: row.digest_hour,
    paused: row.paused,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export type AlertView = ReturnType<typeof presentAlert>;
