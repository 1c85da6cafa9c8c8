import { OfflineSavedDealsResponse } from "../../core/app-install/responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** The installable app (record 0108): what the service worker keeps for the offline page. */
export const appInstallApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/offline_saved_deals",
    tag: "Saved and feed",
    summary:
      "The signed-in member's 15 most recently saved public deals, as the offline page lists " +
      "them (title, formatted price, store, the deal's path), with the member's id and when the " +
      "list was read. The site's service worker keeps the last answer for that member only",
    response: OfflineSavedDealsResponse,
    auth: true,
    handler: async ({ request, reply }) => {
      // Only the member's own worker keeps it, in Cache Storage; no HTTP cache on the way may.
      reply.header("cache-control", "private, no-store");
      return services.appInstall.offlineSavedDeals(request.user);
    },
  });
};
