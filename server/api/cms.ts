import { presentCmsPageResponse, presentFeaturedStoresResponse } from "../../core/cms/presenter.ts";
import { CmsPageBody } from "../../core/cms/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { CmsPageResponse, FeaturedStoresResponse } from "../../core/cms/responses.ts";

export const cmsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/cms_page",
    tag: "Site",
    summary: "A page written by the site owner (e.g. slug privacy-policy): cms_page[0].detail",
    body: CmsPageBody,
    response: CmsPageResponse,
    handler: async ({ input }) => presentCmsPageResponse(await services.cms.page(input.slug)),
  });

  apiRoute(app, {
    method: "GET",
    url: "/featured_stores",
    tag: "Site",
    summary: "The featured stores (response.featured_data_arr: slug, image_url, title)",
    response: FeaturedStoresResponse,
    cacheSeconds: 300,
    handler: async () => presentFeaturedStoresResponse(await services.cms.featuredStores()),
  });
};
