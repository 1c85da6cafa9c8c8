import type { CatalogListRow, CatalogRecord } from "./console-repository.ts";
import type { CatalogKind } from "./console-schema.ts";

/** A store or category as the console shows it; `deals` counts posts of any status. */
export function presentCatalogItem(kind: CatalogKind, row: CatalogRecord, deals: number) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    description: row.description,
    image_url: row.image_url,
    ...(kind === "store" ? { link: row.link, affiliate_template: row.affiliate_template } : {}),
    deals,
    created_at: row.created_at.toISOString(),
  };
}

export type CatalogConsoleItem = ReturnType<typeof presentCatalogItem>;

export function presentCatalogRow(kind: CatalogKind, row: CatalogListRow) {
  return presentCatalogItem(kind, row, row.deals);
}

export interface CatalogConsolePage {
  items: CatalogConsoleItem[];
  total: number;
  page: number;
  lastPage: number;
  perPage: number;
  search: string;
}

/** `GET /api/admin/stores`, `GET /api/admin/categories`. */
export function presentCatalogConsolePage(list: CatalogConsolePage) {
  return {
    status: "true",
    items: list.items,
    pagination: {
      total: list.total,
      per_page: list.perPage,
      current_page: list.page,
      last_page: list.lastPage,
    },
  };
}

/** The answer of a create or an update: the message and the item as it is now. */
export function presentCatalogSaved(message: string, item: CatalogConsoleItem) {
  return { status: "true", message, item };
}
