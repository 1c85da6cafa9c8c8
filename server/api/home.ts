import { ActingUserBody } from "../../core/people/accounts/schema.ts";
import { PageBody } from "../../core/list-query.ts";
import { presentHome, presentHomeFilter, presentRecentPage } from "../../core/home/presenter.ts";
import { HomeFilterBody } from "../../core/home/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { HomeFilterResponse, HomeResponse, RecentPageResponse } from "../../core/home/responses.ts";

export const homeApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/home",
    tag: "Home",
    summary:
      "Teachers Wishlist, trending deals and the first page of recent deals (the same for " +
      "everyone: user_id is accepted and ignored)",
    body: ActingUserBody,
    response: HomeResponse,
    handler: async () => presentHome(await services.home.home()),
  });
  apiRoute(app, {
    method: "POST",
    url: "/recent_deal_pagination",
    tag: "Home",
    summary: "A page of Recent Deals (15), for LOAD MORE",
    body: PageBody,
    response: RecentPageResponse,
    handler: async ({ input }) => presentRecentPage(await services.home.recentPage(input.page)),
  });
  apiRoute(app, {
    method: "POST",
    url: "/category_store_filter_home",
    tag: "Home",
    summary: "Home lists of one merchant and/or category (By Merchant, By Category)",
    body: HomeFilterBody,
    response: HomeFilterResponse,
    handler: async ({ input }) => presentHomeFilter(await services.home.homeFilter(input)),
  });
};
