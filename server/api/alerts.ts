import { z } from "zod";
import {
  AlertIdBody,
  AlertListBody,
  AlertPreviewBody,
  AlertSaveBody,
  DELIVERIES,
} from "../../core/member/alerts/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { DealCardSchema } from "../../core/cards/responses.ts";

/** One keyword alert as its owner sees it (docs/decisions/0045-alert-matching.md). */
export const AlertSchema = z.strictObject({
  id: z.number().int(),
  keywords: z.string(),
  store_id: z.array(z.number().int()),
  category_id: z.number().int().nullable(),
  max_price: z.number().nullable(),
  min_discount: z.number().int().nullable(),
  only_hot: z.boolean().describe("fires when the deal becomes hot rather than at publication"),
  delivery: z.enum(DELIVERIES),
  digest_hour: z.number().int().describe("hour of the daily digest, UTC"),
  paused: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const rssUrl = z.string().describe("the private RSS feed's address; keep it secret");

/** Keyword alerts: the member's saved searches, preview and private feed. */
export const alertsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/alerts",
    tag: "Alerts",
    summary: "The signed-in member's keyword alerts, oldest first",
    body: AlertListBody,
    response: z.strictObject({ status: z.literal("true"), alerts: z.array(AlertSchema) }),
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
    response: z.strictObject({
      status: z.literal("true"),
      message: z.string(),
      alert: AlertSchema,
      rss_url: rssUrl.optional(),
    }),
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
    response: z.strictObject({ status: z.literal("true"), message: z.string() }),
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
    response: z.strictObject({
      status: z.literal("true"),
      total: z.number().int(),
      deal_data: z.array(DealCardSchema),
    }),
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
    response: z.strictObject({
      status: z.literal("true"),
      message: z.string(),
      id: z.number().int(),
      rss_url: rssUrl,
    }),
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.alerts.revokeRss(request.user, input)),
    }),
  });
};
