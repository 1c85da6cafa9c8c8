import { PageBody } from "../../core/catalog/schema.ts";
import { presentAll, presentCatalogPage } from "../../core/catalog/presenter.ts";
import { parseInput } from "../../core/http/validate.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** Public lists change rarely; browsers and CDNs may reuse them this long. */
const CATALOG_CACHE_SECONDS = 300;

export const catalogApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "GET",
    url: "/stores_list",
    tag: "Stores and categories",
    summary: "Every store (store_id, id, title, slug, link, image_url), alphabetically",
    cacheSeconds: CATALOG_CACHE_SECONDS,
    handler: async () => presentAll(await services.catalog.allStores()),
  });
  apiRoute(app, {
    method: "POST",
    url: "/stores_list",
    tag: "Stores and categories",
    summary: "One page of 20 stores, with deal_data_pagination.total",
    body: PageBody,
    handler: async (request) => {
      const { page } = parseInput(PageBody, request.body);
      return presentCatalogPage(await services.catalog.storesPage(page));
    },
  });
  apiRoute(app, {
    method: "GET",
    url: "/category_list",
    tag: "Stores and categories",
    summary: "Every category (category_id, id, title, slug, image_url), alphabetically",
    cacheSeconds: CATALOG_CACHE_SECONDS,
    handler: async () => presentAll(await services.catalog.allCategories()),
  });
  apiRoute(app, {
    method: "POST",
    url: "/category_list",
    tag: "Stores and categories",
    summary: "One page of 20 categories, with deal_data_pagination.total",
    body: PageBody,
    handler: async (request) => {
      const { page } = parseInput(PageBody, request.body);
      return presentCatalogPage(await services.catalog.categoriesPage(page));
    },
  });
};
