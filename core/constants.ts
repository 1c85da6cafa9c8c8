/** Business constants of the spec's section 9, used by the server and the browser alike. */

export const PAGE_SIZE = {
  storesAndCategories: 20,
  educatorsForum: 12,
  listing: 15,
  homeRecent: 15,
} as const;

export const TRENDING_LIMIT = 12;

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

export const ACTIVE_NAV_BACKGROUND = "#353F66";

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
