import { z } from "zod";
import { optionalIdField } from "../profiles/schema.ts";

/** `GET /api/notifications?page=n`: anything but a page number is page 1. */
export const NotificationsPage = z.object({
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** `POST /api/notifications_read`: one notification (id), or every one when id is left out. */
export const MarkReadBody = z.object({
  id: optionalIdField("id"),
});

export type MarkReadInput = z.output<typeof MarkReadBody>;

export const NOTIFICATION_MESSAGES = {
  allRead: "All notifications are marked as read.",
  oneRead: "The notification is marked as read.",
  notFound: "That notification does not exist.",
} as const;

/** Notifications per page of /user/notifications. */
export const NOTIFICATIONS_PAGE_SIZE = 20;
