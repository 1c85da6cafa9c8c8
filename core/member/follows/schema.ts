import { z } from "zod";
import { claimedUserId } from "../../people/accounts/schema.ts";
import { PAGE_SIZE } from "../../constants.ts";
import { idField, optionalIdField } from "../../people/profiles/schema.ts";

/**
 * What a member follows, and the personal feed made of it
 * (docs/decisions/0043-saved-deals-and-feed.md): other members (the spec's
 * `POST /api/profile_follow`), stores and categories.
 */

export const FOLLOW_SCOPES = ["store", "category"] as const;
export type FollowScope = (typeof FOLLOW_SCOPES)[number];

/** How many stores, and how many categories, one member may follow: each is a walk of the feed. */
export const MAX_FOLLOWS: Record<FollowScope, number> = { store: 200, category: 100 };

/** How far back the feed pages: it never walks more than this many pages of deals. */
export const FEED_MAX_PAGES = 50;
export const FEED_MAX_DEALS = FEED_MAX_PAGES * PAGE_SIZE.listing;

/** How many popular stores an empty feed suggests. */
export const SUGGESTED_STORES = 8;

export const FOLLOW_MESSAGES = {
  badType: "type must be 'store' or 'category'.",
  storeNotFound: "That store does not exist.",
  categoryNotFound: "That category does not exist.",
  followingStore: (title: string) => `You now follow ${title}. Its new deals show in My Feed.`,
  followingCategory: (title: string) => `You now follow ${title}. Its new deals show in My Feed.`,
  unfollowed: (title: string) => `You no longer follow ${title}.`,
  tooMany: (scope: FollowScope) =>
    `You can follow up to ${MAX_FOLLOWS[scope]} ${scope === "store" ? "stores" : "categories"}. Unfollow one first.`,
  feedPage: `Your feed goes back ${FEED_MAX_PAGES} pages: page must be at most ${FEED_MAX_PAGES}.`,
} as const;

/** `POST /api/follow_toggle` {type: store | category, id}: follows it, or stops following it. */
export const FollowToggleBody = z.object({
  // Ignored beyond a check: the acting user is the session's (record 0019, identity).
  user_id: claimedUserId,
  type: z.preprocess(
    (value) => (typeof value === "string" ? value.trim().toLowerCase() : value),
    z.enum(FOLLOW_SCOPES, FOLLOW_MESSAGES.badType),
  ),
  id: idField("id"),
});
export type FollowToggleInput = z.output<typeof FollowToggleBody>;

/** The feed's page: 1 to FEED_MAX_PAGES. */
const feedPage = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? 1 : value),
  z.coerce
    .number({ error: "page must be a number." })
    .int({ error: "page must be a whole number." })
    .min(1, { error: "page must be 1 or more." })
    .max(FEED_MAX_PAGES, { error: FOLLOW_MESSAGES.feedPage }),
);

/** `POST /api/my_feed` {page}. */
export const MyFeedBody = z.object({
  user_id: claimedUserId,
  page: feedPage,
});
export type MyFeedInput = z.output<typeof MyFeedBody>;

// Members ---------------------------------------------------------------------------------------

export const FOLLOW = "Follow";
export const UN_FOLLOW = "UN FOLLOW";

/** `POST /api/profile_follow`. The button's labels (FOLLOW / UN FOLLOW) are accepted in any case. */
export const MemberFollowBody = z.object({
  loggedin_user_id: optionalIdField("loggedin_user_id"),
  user_id: idField("user_id"),
  status: z.preprocess(
    (value) => {
      if (typeof value !== "string") return value;
      const word = value
        .trim()
        .toUpperCase()
        .replace(/[\s_-]+/g, "");
      return word === "FOLLOW" ? FOLLOW : word === "UNFOLLOW" ? UN_FOLLOW : value;
    },
    z.enum([FOLLOW, UN_FOLLOW], `status must be '${FOLLOW}' or '${UN_FOLLOW}'.`),
  ),
});

export type MemberFollowInput = z.output<typeof MemberFollowBody>;
export type MemberFollowStatus = MemberFollowInput["status"];
