import { ConfirmDealBody, CouponFeedbackBody } from "../../core/posts/freshness/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { FreshnessAnswerResponse } from "../../core/posts/freshness/responses.ts";

/** Members' word on whether a deal still works (record 0038, "Freshness"). */
export const freshnessApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/coupon_feedback",
    tag: "Community",
    summary:
      "Worked / Didn't work on a coupon deal (worked true or false): one answer per member and " +
      "deal, a later one replacing the earlier; not on one's own deal. 'Worked' refreshes the " +
      "deal's last verified. Answers the deal's freshness, with the last 30 days' counts",
    body: CouponFeedbackBody,
    response: FreshnessAnswerResponse,
    auth: true,
    rateLimit: RATE_LIMITS.freshness,
    handler: async ({ input, request }) => {
      const { message, freshness } = await services.freshness.couponFeedback(request.user, input);
      return { status: "true" as const, message, freshness };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/confirm_deal",
    tag: "Community",
    summary:
      "'Still works': a member confirms a deal without a coupon code still works, which " +
      "refreshes its last verified; not on one's own deal. Answers the deal's freshness",
    body: ConfirmDealBody,
    response: FreshnessAnswerResponse,
    auth: true,
    rateLimit: RATE_LIMITS.freshness,
    handler: async ({ input, request }) => {
      const { message, freshness } = await services.freshness.confirm(request.user, input);
      return { status: "true" as const, message, freshness };
    },
  });
};
