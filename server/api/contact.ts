import { presentContactSubmitted } from "../../core/contact/presenter.ts";
import { ContactBody, contactFailureMessage } from "../../core/contact/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { MessageResponse } from "../../core/responses.ts";

export const contactApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/contact_us",
    tag: "Contact",
    summary:
      "Sends a Contact Us message: stored, and mailed to the site owner (HTTP 200 on success; 422 with 'All fields are required.' when a required field is empty)",
    body: ContactBody,
    response: MessageResponse,
    failure: { validationMessage: contactFailureMessage },
    rateLimit: RATE_LIMITS.contact,
    handler: async ({ input, request }) => {
      const settings = await services.settings.get();
      const result = await services.contact.submit(input, request.user, settings.websiteName);
      return presentContactSubmitted(result.message);
    },
  });
};
