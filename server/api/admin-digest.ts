import { DigestScheduleBody } from "../../core/settings/digest-schedule.ts";
import {
  DigestScheduleResponse,
  DigestScheduleSavedResponse,
} from "../../core/member/digest/responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** The weekly digest's schedule on the console's Settings page (administrators; record 0087). */
export const adminDigestApi: ApiModule = async (app, { services }) => {
  const digest = services.digest;

  apiRoute(app, {
    method: "GET",
    url: "/admin/settings/digest",
    tag: "Console",
    summary: "When the weekly digest goes out: a day of the week and an hour, UTC",
    response: DigestScheduleResponse,
    auth: "admin",
    handler: async ({ request }) => ({
      status: "true",
      response: await digest.schedule(request.user),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/settings/digest",
    tag: "Console",
    summary:
      "Sets when the weekly digest goes out: digest_weekday 0 (Sunday) to 6 (Saturday) and " +
      "digest_hour 0 to 23, UTC; both required",
    body: DigestScheduleBody,
    response: DigestScheduleSavedResponse,
    auth: "admin",
    handler: async ({ input, request }) => {
      const { message, schedule } = await digest.saveSchedule(request.user, input);
      return { status: "true", message, response: { schedule } };
    },
  });
};
