import { z } from "zod";
import { pageNumber, filterText } from "../list-query.ts";

/**
 * `GET /api/admin/audit` and the /admin/audit page's filters. `actor` is a staff member's id or
 * part of their name; `action` is an exact action ("post.hide") or an area ("post"); `item_type` and
 * `item_id` name one item ("d" and a unique_id, "comment" and an id, "user" and an id…).
 */
export const AuditQuery = z.object({
  actor: filterText(100, "actor"),
  action: filterText(60, "action"),
  item_type: filterText(20, "item_type"),
  item_id: filterText(40, "item_id"),
  page: pageNumber,
});

export type AuditQueryInput = z.output<typeof AuditQuery>;
