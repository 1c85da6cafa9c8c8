import { SUBMIT_MESSAGES } from "../../core/constants.ts";
import {
  DiscussionSchema,
  IMAGE_MESSAGES,
  createDealSchema,
  earliestExpiryDate,
} from "../../core/submissions/schema.ts";
import { presentCreatedPost, presentSubmitOptions } from "../../core/submissions/presenter.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import { readForm } from "./multipart-form.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** Submit Deals: `GET /submit_deal`, `POST /save_deal`, `POST /save_discussion`. */
export const submissionsApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "GET",
    url: "/submit_deal",
    tag: "Submit Deals",
    summary:
      "Choices of the Submit Deals forms: deal and discussion categories, stores, categories",
    cacheSeconds: 60,
    handler: async () => presentSubmitOptions(await services.submissions.options()),
  });

  apiRoute(app, {
    method: "POST",
    url: "/save_deal",
    tag: "Submit Deals",
    summary:
      "Posts a deal, or a coupon when coupon_code is given (multipart; image file or deal_image link). " +
      "A link that matches a live deal answers 409 with the existing deal.",
    // For /api/docs; the handler validates with the schema of the moment it runs.
    body: createDealSchema(earliestExpiryDate(new Date())),
    multipart: true,
    auth: true,
    rateLimit: RATE_LIMITS.posting,
    handler: async (request) => {
      const form = await readForm(request, "image", IMAGE_MESSAGES.tooLarge);
      const post = await services.submissions.createDeal(request.user, {
        fields: form.fields,
        image: form.file,
      });
      return presentCreatedPost(post, SUBMIT_MESSAGES.dealSubmitted);
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/save_discussion",
    tag: "Submit Deals",
    summary: "Posts a discussion in the educators' forum (multipart; optional image file)",
    body: DiscussionSchema,
    multipart: true,
    auth: true,
    rateLimit: RATE_LIMITS.posting,
    handler: async (request) => {
      const form = await readForm(request, "image", IMAGE_MESSAGES.tooLarge);
      const post = await services.submissions.createDiscussion(request.user, {
        fields: form.fields,
        image: form.file,
      });
      return presentCreatedPost(post, SUBMIT_MESSAGES.discussionSubmitted);
    },
  });
};
