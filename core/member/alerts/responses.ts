import { z } from "zod";
import { DealCardSchema } from "../../cards/responses.ts";
import { DELIVERIES } from "./schema.ts";

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

export const AlertsResponse = z.strictObject({
  status: z.literal("true"),
  alerts: z.array(AlertSchema),
});

export const AlertSavedResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  alert: AlertSchema,
  rss_url: rssUrl.optional(),
});

export const AlertPreviewResponse = z.strictObject({
  status: z.literal("true"),
  total: z.number().int(),
  deal_data: z.array(DealCardSchema),
});

export const AlertRssResponse = z.strictObject({
  status: z.literal("true"),
  message: z.string(),
  id: z.number().int(),
  rss_url: rssUrl,
});
