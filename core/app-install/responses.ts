import { z } from "zod";

/** `GET /api/offline_saved_deals` (docs/decisions/0108): what the offline page lists. */
export const OfflineSavedDealsResponse = z.strictObject({
  status: z.literal("true"),
  member: z.number().int().describe("the signed-in member these deals are saved by"),
  saved_at: z.string().describe("when this list was read (ISO 8601)"),
  deals: z.array(
    z.strictObject({
      title: z.string(),
      price: z.string().describe('formatted, e.g. "$3.97"; empty when the deal has none'),
      store: z.string(),
      url: z.string().describe("the deal's page on this site, a path"),
    }),
  ),
});
