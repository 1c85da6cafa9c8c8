import { FollowToggleBody, MyFeedBody } from "../../core/member/follows/schema.ts";
import { presentListing } from "../../core/listings/presenter.ts";
import { SaveDealToggleBody, SavedDealsBody } from "../../core/member/saved/schema.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { ListingResponse } from "../../core/listings/responses.ts";
import { SaveToggleResponse } from "../../core/member/saved/responses.ts";
import { FollowToggleResponse } from "../../core/member/follows/responses.ts";

/** Saved deals, followed stores and categories, and the personal feed (record 0043). */
export const savedDealsAndFollowsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/save_deal_toggle",
    tag: "Saved and feed",
    summary:
      "Saves a deal for the signed-in member, or takes the save back (the same call again). " +
      "Answers saved true or false. Refused: an unknown or removed deal (404), a forum post " +
      "(422), more than 1,000 saved deals (409)",
    body: SaveDealToggleBody,
    response: SaveToggleResponse,
    auth: true,
    rateLimit: RATE_LIMITS.reaction,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.saved.toggle(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/saved_deals",
    tag: "Saved and feed",
    summary:
      "One page (15) of the signed-in member's saved deals, newest saved first, shaped like " +
      "/category_page: deal_data and deal_data_pagination. Expired deals stay, with is_expired " +
      "true; deals no longer public are left out",
    body: SavedDealsBody,
    response: ListingResponse,
    auth: true,
    handler: async ({ input, request }) =>
      presentListing(await services.saved.list(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/follow_toggle",
    tag: "Saved and feed",
    summary:
      "Follows a store or a category (type 'store' or 'category', id), or stops following it " +
      "(the same call again). Answers following true or false. Refused: a bad type (422), an " +
      "unknown id (404), more than 200 stores or 100 categories (409)",
    body: FollowToggleBody,
    response: FollowToggleResponse,
    auth: true,
    rateLimit: RATE_LIMITS.follow,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.following.toggle(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/my_feed",
    tag: "Saved and feed",
    summary:
      "The signed-in member's feed: public deals from the stores and categories they follow " +
      "and the members they follow (/profile_follow), newest first, shaped like /category_page " +
      "(15 a page). It goes back 50 pages; a later page is refused (422)",
    body: MyFeedBody,
    response: ListingResponse,
    auth: true,
    handler: async ({ input, request }) =>
      presentListing(await services.following.feed(request.user, input)),
  });
};
