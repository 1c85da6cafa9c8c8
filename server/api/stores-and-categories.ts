import { PageBody } from "../../core/list-query.ts";
import { presentAll, presentCatalogPage } from "../../core/catalog/presenter.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  CategoriesPageResponse,
  CategoriesResponse,
  StoresPageResponse,
  StoresResponse,
} from "../../core/catalog/responses.ts";

/** Public lists change rarely; browsers and CDNs may reuse them this long. */
const CATALOG_CACHE_SECONDS = 300;

export const storesAndCategoriesApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/stores_list",
    tag: "Stores and categories",
    summary: "Every store (store_id, id, title, slug, link, image_url), alphabetically",
    response: StoresResponse,
    cacheSeconds: CATALOG_CACHE_SECONDS,
    handler: async () => presentAll(await services.catalog.allStores()),
  });
  apiRoute(app, {
    method: "POST",
    url: "/stores_list",
    tag: "Stores and categories",
    summary: "One page of 20 stores, with deal_data_pagination.total",
    body: PageBody,
    response: StoresPageResponse,
    handler: async ({ input }) => presentCatalogPage(await services.catalog.storesPage(input.page)),
  });
  apiRoute(app, {
    method: "GET",
    url: "/category_list",
    tag: "Stores and categories",
    summary: "Every category (category_id, id, title, slug, image_url), alphabetically",
    response: CategoriesResponse,
    cacheSeconds: CATALOG_CACHE_SECONDS,
    handler: async () => presentAll(await services.catalog.allCategories()),
  });
  apiRoute(app, {
    method: "POST",
    url: "/category_list",
    tag: "Stores and categories",
    summary: "One page of 20 categories, with deal_data_pagination.total",
    body: PageBody,
    response: CategoriesPageResponse,
    handler: async ({ input }) =>
      presentCatalogPage(await services.catalog.categoriesPage(input.page)),
  });
};
