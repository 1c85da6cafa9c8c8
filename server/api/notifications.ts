import {
  EmailPreferencesSaveBody,
  MarkReadBody,
  NotificationsPage,
  NotificationsPageBody,
} from "../../core/member/notifications/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  EmailPreferencesResponse,
  EmailPreferencesSaveResponse,
  NotificationsReadResponse,
  NotificationsResponse,
} from "../../core/member/notifications/responses.ts";

/** The signed-in member's in-site notifications and mail choices. */
export const notificationsApi: ApiModule = async (app, { services }) => {
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
    url: "/notifications",
    tag: "Notifications",
    summary:
      "The signed-in member's notifications {page}, newest first, 20 a page, and how many are unread (replies, comments, likes collapsed per post, new followers, alert matches, moderators' decisions)",
    body: NotificationsPageBody,
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

  apiRoute(app, {
    method: "POST",
    url: "/email_preferences",
    tag: "Notifications",
    summary:
      "The signed-in member's mail choices: every kind (comment_reply, post_comment, post_like, new_follower, moderation, alert, weekly_digest), on or off",
    response: EmailPreferencesResponse,
    auth: true,
    handler: async ({ request }) => ({
      status: "true",
      response: await services.notifications.emailPreferences(request.user),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/email_preferences_save",
    tag: "Notifications",
    summary:
      "Switches kinds of mail on or off: {comment_reply: true, post_like: false, …}; kinds left out stay as they are, an unknown kind is refused (422)",
    body: EmailPreferencesSaveBody,
    response: EmailPreferencesSaveResponse,
    auth: true,
    handler: async ({ input, request }) => {
      const saved = await services.notifications.saveEmailPreferences(request.user, input);
      return { status: "true", message: saved.message, response: { kinds: saved.kinds } };
    },
  });
};
