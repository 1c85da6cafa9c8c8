/** The spec's business constants and limits, used by the server and the browser alike. */

export const PAGE_SIZE = {
  storesAndCategories: 20,
  educatorsForum: 12,
  listing: 15,
  homeRecent: 15,
} as const;

export const TRENDING_LIMIT = 12;

/** How far back a coupon's "worked for 12 of 15 people" counts (record 0038, core/posts/freshness). */
export const FEEDBACK_WINDOW_DAYS = 30;

/** Trending shows the hottest deals of this many UTC days, today included (decision 0008). */
export const TRENDING_DAYS = 7;

export const DELAYS_MS = {
  feedback: 3000,
  passwordChangeFeedback: 5000,
  redirect: 3000,
  submitReset: 3000,
  contactReset: 3000,
} as const;

export const SESSION_COOKIE = "loginTokenChalkboard";
export const XSRF_COOKIE = "XSRF-TOKEN";
export const XSRF_HEADER = "x-xsrf-token";
export const XSRF_FIELD = "_csrf";
/** Which form of a page with several posted it (docs/decisions/0079): its route's action and its limit. */
export const FORM_INTENT_FIELD = "intent";

export const DEFAULT_DEAL_TYPE = "d";

export const CONTACT_CATEGORIES = [
  "inquiry",
  "feedback",
  "suggestions",
  "coupons-issue",
  "deal-issue",
  "forums-issue",
  "report-user",
  "dmca",
  "others",
] as const;

export const PAYMENT = { amount: 1099, currency: "usd" } as const;

export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** pages = total / size rounded up, at least 1. */
export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** Submit Deals (the spec's error catalogue and limits); the duplicate text is the site's own. */
export const SUBMIT_MESSAGES = {
  dealSubmitted: "Deal has been Submitted.",
  discussionSubmitted: "Discussion has been Submitted.",
  duplicateDeal: "This deal has already been posted.",
} as const;

export const PAYMENT_MESSAGES = {
  notConfigured: "Payments are not configured.",
  providerUnavailable: "The payment service is not available right now. Please try again later.",
  alreadyActive: "You already have an active subscription.",
} as const;

/** Followers/followings carousel (section 9): slides visible by viewport width, autoplay 2 s. */
export const FOLLOW_CAROUSEL = {
  slidesToShow: 7,
  autoplaySpeedMs: 2000,
  /** react-slick breakpoints: the setting applies at or below the width. */
  responsive: [
    { breakpoint: 1024, slidesToShow: 5 },
    { breakpoint: 767, slidesToShow: 3 },
    { breakpoint: 450, slidesToShow: 2 },
    { breakpoint: 320, slidesToShow: 1 },
  ],
} as const;

/** How many followers and followings a profile's carousels list (the counts are exact). */
export const FOLLOW_PREVIEW_LIMIT = 30;

/** Subscriptions listed in a profile's subscription block, newest first. */
export const PROFILE_SUBSCRIPTIONS_LIMIT = 5;

/** Contact Us (the spec's error catalogue). */
export const CONTACT_MESSAGES = {
  success: "Contact information submitted successfully.",
  required: "All fields are required.",
} as const;

/** Featured stores carousel on Contact Us (section 9): one step a second, no controls. */
export const FEATURED_STORES_INTERVAL_MS = 1000;

/** Discovery: URLs per sitemap file (by id range, so at most this many) and items per RSS feed. */
export const SITEMAP_CHUNK_SIZE = 10_000;
export const RSS_ITEM_LIMIT = 30;

/** Teachers Wishlist carousel on the home page (section 9), in react-slick's setting names. */
export const WISHLIST_CAROUSEL = {
  slidesToShow: 3,
  slidesToScroll: 1,
  autoplay: true,
  autoplaySpeed: 3000,
  speed: 2000,
  cssEase: "linear",
  infinite: true,
  dots: false,
  arrows: false,
  /** react-slick breakpoints: the setting applies at or below the width. */
  responsive: [
    { breakpoint: 1024, settings: { slidesToShow: 2 } },
    { breakpoint: 760, settings: { slidesToShow: 1 } },
  ],
} as const;

/** Pager (section 9): up to this many pages are listed in full, otherwise a window with ellipses. */
export const PAGER_FULL_LIMIT = 7;

/** Empty lists, unknown items, status 'false' (section 8). */
export const NO_DATA_FOUND = "No Data Found";

/** Longest search text taken from the URL or a payload; longer input is cut, not refused. */
export const SEARCH_MAX_LENGTH = 200;

/** How long a lazily loaded script chunk may take before it counts as failed (the spec's 120 s). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Sign-up defences (docs/decisions/0085-sign-up-defences.md). The register form carries its
 * render time, signed (core/people/accounts/signup-form-stamp.ts): one sent back sooner than
 * `minimumFillMs` after it was made is a script's, and one older than `formLifetimeMs` asks the
 * visitor to reload the page. The fields are `website` (the honeypot) and `form_stamp`
 * (core/people/accounts/schema.ts).
 */
export const SIGNUP_DEFENCES = {
  minimumFillMs: 3000,
  formLifetimeMs: 24 * 60 * 60 * 1000,
} as const;
