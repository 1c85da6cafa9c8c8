import { postPath } from "../posts/paths.ts";
import type { AuditRow } from "./repository.ts";

/** One changed field of an entry: as it was and as it became (null where a side has none). */
export interface AuditChange {
  field: string;
  before: unknown;
  after: unknown;
}

function asRecord(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** The fields an entry's before/after name, each once, in the order they were recorded. */
export function auditChanges(before: unknown, after: unknown): AuditChange[] {
  const was = asRecord(before) ?? {};
  const now = asRecord(after) ?? {};
  const fields = [...new Set([...Object.keys(now), ...Object.keys(was)])];
  return fields.map((field) => ({
    field,
    before: field in was ? was[field] : null,
    after: field in now ? now[field] : null,
  }));
}

/** What an entry is about, for a person: a name and, where the item still exists, its page. */
function itemOf(row: AuditRow): { label: string; link: string } {
  switch (row.item_type) {
    case "d":
    case "g":
      return row.post_slug && row.post_type
        ? {
            label: row.post_title ?? "",
            link: postPath({
              post_type: row.post_type,
              unique_id: row.item_id,
              slug: row.post_slug,
            }),
          }
        : { label: "", link: "" };
    case "user":
      return row.user_name && row.user_deleted_at === null
        ? { label: row.user_name, link: `/profile/${row.item_id}` }
        : { label: row.user_name ?? "", link: "" };
    case "store":
      return row.store_slug
        ? { label: row.store_title ?? "", link: `/store/${row.store_slug}` }
        : { label: "", link: "" };
    case "category":
      return row.category_slug
        ? { label: row.category_title ?? "", link: `/category/${row.category_slug}` }
        : { label: "", link: "" };
    case "comment":
      return row.comment_post_unique_id && row.comment_post_slug && row.comment_post_type
        ? {
            label: `On “${row.comment_post_title ?? ""}”`,
            link: postPath({
              post_type: row.comment_post_type,
              unique_id: row.comment_post_unique_id,
              slug: row.comment_post_slug,
            }),
          }
        : { label: "", link: "" };
    default:
      return { label: "", link: "" };
  }
}

export function presentAuditEntry(row: AuditRow) {
  const item = itemOf(row);
  return {
    id: row.id,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    action: row.action,
    item_type: row.item_type,
    item_id: row.item_id,
    item_label: item.label,
    item_link: item.link,
    reason: row.reason,
    before: asRecord(row.before),
    after: asRecord(row.after),
    changes: auditChanges(row.before, row.after),
    created_at: row.created_at.toISOString(),
  };
}

export type PresentedAuditEntry = ReturnType<typeof presentAuditEntry>;

export interface AuditPage {
  entries: PresentedAuditEntry[];
  total: number;
  currentPage: number;
  lastPage: number;
}

/** `GET /api/admin/audit`. */
export function presentAuditPage(page: AuditPage) {
  return {
    status: "true",
    response: {
      entries: page.entries,
      pagination: { total: page.total, current_page: page.currentPage, last_page: page.lastPage },
    },
  };
}
