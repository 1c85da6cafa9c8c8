import { MarkExpiredBody, ReopenDealBody } from "../../core/posts/expiry/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { ExpiryStatusResponse } from "../../core/posts/expiry/responses.ts";

/** "Expired?" marks and reopening of deals. */
export const expiryApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/mark_expired",
    tag: "Community",
    summary:
      "Says a deal has expired. Enough distinct members (a site setting, 3 by default) or one " +
      "moderator expire it (its end becomes now). Refused: one's own deal (403), a second mark " +
      "(409), a deal already expired (409), a forum post (422), an unknown or removed deal (404)",
    body: MarkExpiredBody,
    response: ExpiryStatusResponse,
    auth: true,
    rateLimit: RATE_LIMITS.reaction,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.expiry.mark(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/reopen_deal",
    tag: "Community",
    summary:
      "Makes an expired deal live again (no end date, marks cleared; audit-logged). Only its " +
      "poster or a moderator (403 otherwise); a deal that has not expired answers 409",
    body: ReopenDealBody,
    response: ExpiryStatusResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.expiry.reopen(request.user, input)),
    }),
  });
};
