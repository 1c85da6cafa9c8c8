import { MyDataResponse } from "../../core/people/my-data/responses.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** "Download my data": the signed-in member's data as a JSON file (record 0084). */
export const myDataApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/my_data",
    tag: "Profiles",
    summary:
      "Everything the site keeps about the signed-in member (session cookie, or " +
      "`Authorization: Bearer <session token>`), as a JSON file to save: profile, posts, " +
      "comments, votes, reports, saved deals, follows, alerts, notifications, mail " +
      "preferences, signed-in devices (no tokens), links to uploaded images, educator requests, " +
      "wishlist submissions and contact messages. 5 downloads an hour per member (429 after)",
    response: MyDataResponse,
    auth: true,
    rateLimit: RATE_LIMITS.myData,
    handler: async ({ request, reply }) => {
      const { fileName, data } = await services.dataExport.myData(request.user);
      reply
        .header("content-disposition", `attachment; filename="${fileName}"`)
        // The member's own data: kept by no cache, shared or theirs.
        .header("cache-control", "no-store");
      return data;
    },
  });
};
