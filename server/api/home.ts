import { z } from "zod";
import { presentHome, presentHomeFilter, presentRecentPage } from "../../core/deals/presenter.ts";
import { HomeFilterBody, RecentPageBody } from "../../core/deals/schema.ts";
import { parseInput } from "../../core/http/validate.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

// The home lists do not depend on who asks; user_id is accepted for the spec's payload and ignored.
const HomeBody = z.object({ user_id: z.union([z.string(), z.number()]).nullish() }).nullish();

export const homeApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "POST",
    url: "/home",
    tag: "Home",
    summary: "Teachers Wishlist, trending deals and the first page of recent deals",
    body: HomeBody,
    handler: async () => presentHome(await services.deals.home()),
  });
  apiRoute(app, {
    method: "POST",
    url: "/recent_deal_pagination",
    tag: "Home",
    summary: "A page of Recent Deals (15), for LOAD MORE",
    body: RecentPageBody,
    handler: async (request) => {
      const { page } = parseInput(RecentPageBody, request.body);
      return presentRecentPage(await services.deals.recentPage(page));
    },
  });
  apiRoute(app, {
    method: "POST",
    url: "/category_store_filter_home",
    tag: "Home",
    summary: "Home lists of one merchant and/or category (By Merchant, By Category)",
    body: HomeFilterBody,
    handler: async (request) => {
      const input = parseInput(HomeFilterBody, request.body);
      return presentHomeFilter(await services.deals.homeFilter(input));
    },
  });
};
