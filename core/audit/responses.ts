import { z } from "zod";
import { ShortPagination, TRUE, isoDateTime } from "../responses.ts";

const AuditEntry = z.strictObject({
  id: z.number(),
  actor_id: z.number().nullable(),
  actor_name: z.string(),
  action: z.string(),
  item_type: z.string(),
  item_id: z.string(),
  item_label: z.string(),
  item_link: z.string().describe("the item's page, where it still exists"),
  reason: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  changes: z.array(z.strictObject({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  created_at: isoDateTime,
});

export const AdminAuditResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ entries: z.array(AuditEntry), pagination: ShortPagination }),
});
