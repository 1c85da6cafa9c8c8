import { presentCmsPageResponse, presentFeaturedStoresResponse } from "../../core/cms/presenter.ts";
import { CmsPageBody } from "../../core/cms/schema.ts";
import { parseInput } from "../../core/http/validate.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

export const cmsApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "POST",
    url: "/cms_page",
    tag: "Site",
    summary: "A page written by the site owner (e.g. slug privacy-policy): cms_page[0].detail",
    body: CmsPageBody,
    handler: async (request) => {
      const { slug } = parseInput(CmsPageBody, request.body);
      return presentCmsPageResponse(await services.cms.page(slug));
    },
  });

  apiRoute(app, {
    method: "GET",
    url: "/featured_stores",
    tag: "Site",
    summary: "The featured stores (response.featured_data_arr: slug, image_url, title)",
    cacheSeconds: 300,
    handler: async () => presentFeaturedStoresResponse(await services.cms.featuredStores()),
  });
};
