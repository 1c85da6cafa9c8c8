import { TtlCache } from "../cache/ttl-cache.ts";
import { PAGE_SIZE, lastPage } from "../constants.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError } from "../errors.ts";
import {
  presentCategory,
  presentCategoryDetail,
  presentStore,
  presentStoreDetail,
  type CatalogPage,
  type Category,
  type Store,
} from "./presenter.ts";
import * as repo from "./repository.ts";
import * as lookups from "./store-and-category-lookups.ts";

/** How long the store and category lists are kept in the process; they change rarely. */
const CATALOG_TTL_MS = 60_000;

/** Stores and categories: the full lists (filters, checklists), the paged grids, one by slug. */
export function createCatalogService({ db, changes }: Deps) {
  const stores = new TtlCache<Store[]>(CATALOG_TTL_MS, 1);
  const categories = new TtlCache<Category[]>(CATALOG_TTL_MS, 1);
  const counts = new TtlCache<number>(CATALOG_TTL_MS, 2);
  changes.on("catalog", () => {
    stores.clear();
    categories.clear();
    counts.clear();
  });
  const perPage = PAGE_SIZE.storesAndCategories;

  async function storesPage(page: number): Promise<CatalogPage<Store>> {
    const [rows, total] = await Promise.all([
      repo.findStoresPage(db, (page - 1) * perPage, perPage),
      counts.get("stores", () => repo.countStores(db)),
    ]);
    const items = rows.map(presentStore);
    return { items, total, currentPage: page, lastPage: lastPage(total, perPage), perPage };
  }

  async function categoriesPage(page: number): Promise<CatalogPage<Category>> {
    const [rows, total] = await Promise.all([
      repo.findCategoriesPage(db, (page - 1) * perPage, perPage),
      counts.get("categories", () => repo.countCategories(db)),
    ]);
    const items = rows.map(presentCategory);
    return { items, total, currentPage: page, lastPage: lastPage(total, perPage), perPage };
  }

  return {
    allStores: () =>
      stores.get("all", async () => (await lookups.findAllStores(db)).map(presentStore)),
    allCategories: () =>
      categories.get("all", async () => (await lookups.findAllCategories(db)).map(presentCategory)),
    storesPage,
    categoriesPage,
    /**
     * The store of /store/{slug}; an unknown slug is the spec's 'No Data Found'. An old slug finds
     * the store it now leads to, whose own slug differs: the caller redirects to it.
     */
    async storeBySlug(slug: string) {
      const row = await lookups.findStoreBySlug(db, slug);
      if (!row) throw new NotFoundError();
      return presentStoreDetail(row);
    },
    async categoryBySlug(slug: string) {
      const row = await lookups.findCategoryBySlug(db, slug);
      if (!row) throw new NotFoundError();
      return presentCategoryDetail(row);
    },
  };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
