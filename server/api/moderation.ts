import { presentModeration } from "../../core/moderation/presenter.ts";
import { ModerateBody, QueuePage, ReportBody } from "../../core/moderation/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  ModerateResponse,
  ReportQueueResponse,
  ReportSentResponse,
} from "../../core/moderation/responses.ts";

/** Reports by members, and the moderators' queue and decisions (record 0031). */
export const moderationApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/report",
    tag: "Moderation",
    summary:
      "Reports a deal (d), discussion (g), comment or member to the moderators, with a reason " +
      "(spam, expired, wrong price, offensive, duplicate, other) and an optional note. Answers 201; " +
      "a repeat while the member's report is open answers 409, a missing or hidden item 404, " +
      "one's own item 403. Enough reports from different members hide a post or comment until reviewed",
    body: ReportBody,
    response: ReportSentResponse,
    successStatus: 201,
    auth: true,
    rateLimit: RATE_LIMITS.report,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.moderation.report(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/reports",
    tag: "Console",
    summary:
      "The moderation queue: open reports grouped by item (most reported first, then newest), " +
      "25 items a page (?page=n), and the posts held for review",
    body: QueuePage,
    response: ReportQueueResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      response: await services.moderation.queue(request.user, input.page),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/moderate",
    tag: "Console",
    summary:
      "Hides, restores (approves) or removes a post or comment; restoring or removing closes its " +
      "reports and tells the reporters and the author. For a member, restore dismisses the reports",
    body: ModerateBody,
    response: ModerateResponse,
    auth: "moderator",
    handler: async ({ input, request }) =>
      presentModeration(await services.moderation.moderate(request.user, input), input.action),
  });
};
