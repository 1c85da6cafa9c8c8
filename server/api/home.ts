import { z } from "zod";
import { presentHome } from "../../core/deals/presenter.ts";
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
};
