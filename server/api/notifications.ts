import { MarkReadBody, NotificationsPage } from "../../core/notifications/schema.ts";
import { NotificationsReadResponse, NotificationsResponse } from "./responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** The signed-in member's in-site notifications. */
export const notificationsApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "GET",
    url: "/notifications",
    tag: "Notifications",
    summary:
      "The signed-in member's notifications, newest first, 20 a page (?page=n), and how many are unread",
    body: NotificationsPage,
    response: NotificationsResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true",
      response: await services.notifications.list(request.user, input.page),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/notifications_read",
    tag: "Notifications",
    summary: "Marks one notification (id) or all of them (no id) as read; answers the unread count",
    body: MarkReadBody,
    response: NotificationsReadResponse,
    auth: true,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.notifications.markRead(request.user, input)),
    }),
  });
};
