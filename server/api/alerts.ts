import {
  AlertIdBody,
  AlertListBody,
  AlertPreviewBody,
  AlertSaveBody,
} from "../../core/member/alerts/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  AlertPreviewResponse,
  AlertRssResponse,
  AlertSavedResponse,
  AlertsResponse,
} from "../../core/member/alerts/responses.ts";
import { MessageResponse } from "../../core/responses.ts";

/** Keyword alerts: the member's saved searches, preview and private feed. */
export const alertsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/alerts",
    tag: "Alerts",
    summary: "The signed-in member's keyword alerts, oldest first",
    body: AlertListBody,
    response: AlertsResponse,
    auth: true,
    handler: async ({ request }) => ({
      status: "true" as const,
      alerts: await services.alerts.list(request.user),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/alert_save",
    tag: "Alerts",
    summary:
      "Creates (id empty) or changes one of the member's alerts: keywords (all must match; " +
      "plurals and typos are tolerated as in search), store_id[], category_id, max_price, " +
      "min_discount, only_hot, delivery (instant | daily | site), digest_hour (UTC), paused. 422: " +
      "no keywords and no filter, keywords over 200 characters or with no searchable word, unknown " +
      "store or category, a negative price, a discount outside 0–100, a 101st alert; another " +
      "member's id 404. A new alert's answer carries its private feed address (rss_url)",
    body: AlertSaveBody,
    response: AlertSavedResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.alerts.save(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/alert_delete",
    tag: "Alerts",
    summary: "Deletes one of the member's alerts (another member's or an unknown id: 404)",
    body: AlertIdBody,
    response: MessageResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.alerts.remove(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/alert_preview",
    tag: "Alerts",
    summary:
      "The public deals of the last 30 days that these criteria match, newest first (at most " +
      "20 cards; total counts them all). Refused as alert_save refuses its criteria",
    body: AlertPreviewBody,
    response: AlertPreviewResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.alerts.preview(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/alert_rss_revoke",
    tag: "Alerts",
    summary: "Gives one of the member's alerts a new private feed address; the old one answers 404",
    body: AlertIdBody,
    response: AlertRssResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.alerts.revokeRss(request.user, input)),
    }),
  });
};
