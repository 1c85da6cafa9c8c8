import {
  ContactMessageIdBody,
  ContactReplyBody,
  messagesQueryOf,
} from "../../core/contact/console-schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { ContactMessageResponse, ContactMessagesResponse } from "../../core/contact/responses.ts";

const TAG = "Console: contact messages";

/**
 * The Contact Us messages queue (`/api/admin/messages/*`): list by category and status, open one
 * with its replies, resolve or reopen it, reply by mail. Moderators and admins.
 */
export const adminMessagesApi: ApiModule = async (app, { services }) => {
  const messages = services.contactConsole;

  apiRoute(app, {
    method: "GET",
    url: "/admin/messages",
    tag: TAG,
    summary:
      "One page of 20 contact messages, newest first (?category=<a Contact Us category>&status=open|resolved&page=)",
    response: ContactMessagesResponse,
    auth: "moderator",
    handler: async ({ request }) => {
      const list = await messages.list(request.user, messagesQueryOf(request.query));
      return {
        status: "true",
        messages: list.items,
        pagination: {
          total: list.total,
          per_page: list.perPage,
          current_page: list.page,
          last_page: list.lastPage,
        },
      };
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/messages/view",
    tag: TAG,
    summary: "One contact message with the replies it had (history)",
    body: ContactMessageIdBody,
    response: ContactMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      message: "",
      contact_message: await messages.view(request.user, input),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/messages/resolve",
    tag: TAG,
    summary: "Marks a contact message resolved",
    body: ContactMessageIdBody,
    response: ContactMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await messages.resolve(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/messages/reopen",
    tag: TAG,
    summary: "Opens a resolved contact message again",
    body: ContactMessageIdBody,
    response: ContactMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await messages.reopen(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/messages/reply",
    tag: TAG,
    summary:
      "Mails a reply to the sender (queued, sent by the mail job) and keeps it with the message; " +
      "resolve: true resolves the message too",
    body: ContactReplyBody,
    response: ContactMessageResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await messages.reply(request.user, input)),
    }),
  });
};
