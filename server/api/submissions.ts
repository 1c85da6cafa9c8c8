import { SUBMIT_MESSAGES } from "../../core/constants.ts";
import {
  DealSchema,
  DiscussionSchema,
  IMAGE_MESSAGES,
} from "../../core/posts/submissions/schema.ts";
import {
  presentCreatedPost,
  presentSubmitOptions,
} from "../../core/posts/submissions/presenter.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import {
  CreatedPostResponse,
  SubmitOptionsResponse,
} from "../../core/posts/submissions/responses.ts";
import { LinkPreviewBody } from "../../core/posts/link-preview/schema.ts";
import { LinkPreviewResponse } from "../../core/posts/link-preview/responses.ts";

const IMAGE_FORM = { fileField: "image", tooLargeMessage: IMAGE_MESSAGES.tooLarge };

/**
 * Submit Deals: `GET /submit_deal`, `POST /save_deal`, `POST /save_discussion`, and
 * `POST /link_preview` (the deal form's "post from a link", record 0110).
 */
export const submissionsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "GET",
    url: "/submit_deal",
    tag: "Submit Deals",
    summary:
      "Choices of the Submit Deals forms: deal and discussion categories, stores, categories",
    response: SubmitOptionsResponse,
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
    body: DealSchema,
    response: CreatedPostResponse,
    multipart: IMAGE_FORM,
    auth: true,
    rateLimit: RATE_LIMITS.postDeal,
    handler: async ({ input, file, request }) => {
      const post = await services.submissions.createDeal(request.user, {
        fields: input,
        image: file,
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
    response: CreatedPostResponse,
    multipart: IMAGE_FORM,
    auth: true,
    rateLimit: RATE_LIMITS.postDiscussion,
    handler: async ({ input, file, request }) => {
      const post = await services.submissions.createDiscussion(request.user, {
        fields: input,
        image: file,
      });
      return presentCreatedPost(post, SUBMIT_MESSAGES.discussionSubmitted);
    },
  });

  apiRoute(app, {
    method: "POST",
    url: "/link_preview",
    tag: "Submit Deals",
    summary:
      "Reads a product page for the deal form (record 0110): title, price, currency, coupon code " +
      "and picture (JSON-LD, then microdata, then Open Graph, then <title>), the picture copied " +
      "as the member's upload (image_url, to send as deal_image), the store of the link's " +
      "domain, deals already posted for the same product and its lowest price in 90 days. A page " +
      "that cannot be read (refused address, timeout, not HTML, too large, HTTP error) answers " +
      "422 with the reason for link",
    body: LinkPreviewBody,
    response: LinkPreviewResponse,
    auth: true,
    rateLimit: RATE_LIMITS.linkPreview,
    handler: async ({ input, request }) => services.linkPreview.preview(request.user, input),
  });
};
