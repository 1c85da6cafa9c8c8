import { UndeliverableClearBody, UndeliverableQuery } from "../../core/mail/console/schema.ts";
import { presentUndeliverablePage } from "../../core/mail/console/presenter.ts";
import {
  MailSummaryResponse,
  UndeliverableClearedResponse,
  UndeliverableListResponse,
} from "../../core/mail/console/responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

const TAG = "Console: mail";

/**
 * The console's Mail page (`/api/admin/mail/*`, administrators): the mail queue and the daily
 * counts, and the undeliverable addresses, each of which may be cleared.
 */
export const adminMailApi: ApiModule = async (app, { services }) => {
  const mail = services.mailConsole;

  apiRoute(app, {
    method: "GET",
    url: "/admin/mail",
    tag: TAG,
    summary:
      "The mail queue now (waiting, retrying, sending, failed), mail sent, failed and suppressed " +
      "per UTC day for the last 30 days (newest first), and how many addresses are undeliverable",
    response: MailSummaryResponse,
    auth: "admin",
    handler: async ({ request }) => ({ status: "true", ...(await mail.summary(request.user)) }),
  });

  apiRoute(app, {
    method: "GET",
    url: "/admin/mail/undeliverable",
    tag: TAG,
    summary:
      "One page of 20 undeliverable addresses with the refusal and its time, the latest first " +
      "(?page=)",
    body: UndeliverableQuery,
    response: UndeliverableListResponse,
    auth: "admin",
    handler: async ({ input, request }) => ({
      status: "true",
      ...presentUndeliverablePage(await mail.undeliverable(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/mail/undeliverable/clear",
    tag: TAG,
    summary:
      "Takes {address} off the undeliverable list, so that mail goes to it again (audited); 404 " +
      "when it is not listed",
    body: UndeliverableClearBody,
    response: UndeliverableClearedResponse,
    auth: "admin",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await mail.clear(request.user, input)),
    }),
  });
};
