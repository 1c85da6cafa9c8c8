import type { NotificationRow } from "./repository.ts";

/** One notification as the page and `GET /api/notifications` show it. */
export function presentNotification(row: NotificationRow) {
  return {
    id: row.id,
    kind: row.kind,
    message: row.message,
    link: row.link,
    is_read: row.read_at !== null,
    created_at: row.created_at.toISOString(),
  };
}

export type PresentedNotification = ReturnType<typeof presentNotification>;
