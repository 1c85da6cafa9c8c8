import { z } from "zod";
import { ListPagination, TRUE, isoDateTime, message } from "../../responses.ts";

const Notification = z.strictObject({
  id: z.number(),
  kind: z.string().describe("report_resolved, moderation…"),
  message: z.string(),
  link: z.string().describe("a site path, or ''"),
  is_read: z.boolean(),
  created_at: isoDateTime,
});

export const NotificationsResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    notifications: z.array(Notification),
    unread: z.number().int(),
    pagination: ListPagination,
  }),
});

export const NotificationsReadResponse = z.strictObject({
  ...message,
  unread: z.number().int(),
});

// Notifications, mail preferences (record 0044) ------------------------------------------------

const EmailKindEntry = z.strictObject({
  kind: z.enum([
    "comment_reply",
    "post_comment",
    "post_like",
    "new_follower",
    "moderation",
    "alert",
    "weekly_digest",
  ]),
  label: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  default_enabled: z.boolean(),
});

export const EmailPreferencesResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    kinds: z.array(EmailKindEntry).describe("every kind of member mail, on or off"),
  }),
});

export const EmailPreferencesSaveResponse = z.strictObject({
  ...message,
  response: z.strictObject({ kinds: z.array(EmailKindEntry) }),
});
