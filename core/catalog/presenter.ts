import type { CategoryRow } from "./repository.ts";
import type { CategoryDetailRow, StoreDetailRow, StoreRow } from "./store-and-category-lookups.ts";

/** A store in the spec's field names (section 3). */
export function presentStore(row: StoreRow) {
  return {
    store_id: row.id,
    id: row.id,
    title: row.title,
    slug: row.slug,
    link: row.link,
    image_url: row.image_url,
  };
}

export type Store = ReturnType<typeof presentStore>;

/** The store a listing is about (`selected[0]`): the card fields plus its description. */
export function presentStoreDetail(row: StoreDetailRow) {
  return { ...presentStore(row), description: row.description };
}

export type StoreDetail = ReturnType<typeof presentStoreDetail>;

/** A category in the spec's field names (section 3). */
export function presentCategory(row: CategoryRow) {
  return {
    category_id: row.id,
    id: row.id,
    title: row.title,
    slug: row.slug,
    image_url: row.image_url,
  };
}

export type Category = ReturnType<typeof presentCategory>;

export function presentCategoryDetail(row: CategoryDetailRow) {
  return { ...presentCategory(row), description: row.description };
}

export type CategoryDetail = ReturnType<typeof presentCategoryDetail>;

export interface CatalogPage<T> {
  items: T[];
  total: number;
  currentPage: number;
  lastPage: number;
  perPage: number;
}

/** `GET /api/stores_list`, `GET /api/category_list`: every item. */
export function presentAll<T>(items: T[]) {
  return { status: "true", response: { selected_data: items } };
}

/** `POST /api/stores_list`, `POST /api/category_list`: one page of 20. */
export function presentCatalogPage<T>(page: CatalogPage<T>) {
  return {
    status: "true",
    response: {
      selected_data: page.items,
      deal_data_pagination: {
        total: page.total,
        per_page: page.perPage,
        current_page: page.currentPage,
        last_page: page.lastPage,
      },
    },
  };
}
