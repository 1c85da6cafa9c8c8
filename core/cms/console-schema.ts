import { z } from "zod";
import {
  SLUG_MAX,
  SLUG_MESSAGE,
  SLUG_PATTERN,
  direction,
  recordId,
  requiredText,
  webAddress,
} from "../console/content-fields.ts";
import { text } from "../validation.ts";
import { PRIVACY_POLICY_SLUG } from "./paths.ts";

/**
 * The first segment of every address the site answers (app/routes.ts, the API, feeds, media,
 * sign-in): a page slug may not be one of them, so that no page could ever shadow a screen of
 * the site or be shadowed by one (tests/integration/admin-content.test.ts checks the list
 * against app/routes.ts).
 */
export const RESERVED_PAGE_SLUGS: readonly string[] = [
  "admin",
  "alerts",
  "api",
  "app-icons",
  "assets",
  "auth",
  "category",
  "community",
  "confirm",
  "confirm-email-change",
  "contact",
  "delete-account",
  "educator",
  "feed",
  "forgotpassword",
  "forum",
  "help",
  "install",
  "login",
  "logout",
  "media",
  "navbar",
  "newdeals",
  "offline",
  "page",
  "payment",
  "post",
  "profile",
  "register",
  "reset-password",
  "rss",
  "search",
  "sitemaps",
  "store",
  "submitdeal",
  "unsubscribe",
  "user",
  "verify",
];

export const PAGE_TITLE_MAX = 200;
/** Far above any policy or help page; bounded by the JSON body limit (1 MB) anyway. */
export const PAGE_DETAIL_MAX = 200_000;

/** A page's slug: lower-case words joined by dashes, not the name of a route of the site. */
const pageSlug = text({ error: "The slug is required." })
  .trim()
  .min(1, "The slug is required.")
  .max(SLUG_MAX, `The slug must be at most ${SLUG_MAX} characters.`)
  .regex(SLUG_PATTERN, SLUG_MESSAGE)
  .refine((slug) => !RESERVED_PAGE_SLUGS.includes(slug), {
    error: (issue) =>
      `“${String(issue.input)}” is an address of the site itself. Choose another slug.`,
  });

const pageFields = {
  slug: pageSlug,
  title: requiredText("Title", PAGE_TITLE_MAX),
  /** HTML from the rich editor; sanitised by the service with the site's allow-list. */
  detail: text({ error: "The page's text is required.", multiline: true }).max(
    PAGE_DETAIL_MAX,
    `The page's text must be at most ${PAGE_DETAIL_MAX} characters.`,
  ),
};

/** `POST /api/admin/pages/create`. */
export const PageCreateBody = z.object(pageFields);
/** `POST /api/admin/pages/update`. */
export const PageUpdateBody = z.object({ id: recordId("id"), ...pageFields });

export type PageCreateInput = z.output<typeof PageCreateBody>;
export type PageUpdateInput = z.output<typeof PageUpdateBody>;

export { PRIVACY_POLICY_SLUG };

/** `{ id }`: the delete calls of pages, wishlist entries, social links, forums. */
export const IdBody = z.object({ id: recordId("id") });
export type IdInput = z.output<typeof IdBody>;

/** `{ id, direction }`: moves one row of an ordered list up or down. */
export const MoveBody = z.object({ id: recordId("id"), direction });
export type MoveInput = z.output<typeof MoveBody>;

/** `POST /api/admin/featured/add`, `/remove`. */
export const FeaturedStoreBody = z.object({ store_id: recordId("store_id") });
/** `POST /api/admin/featured/move`. */
export const FeaturedMoveBody = z.object({ store_id: recordId("store_id"), direction });
export type FeaturedStoreInput = z.output<typeof FeaturedStoreBody>;
export type FeaturedMoveInput = z.output<typeof FeaturedMoveBody>;

const wishlistFields = {
  first_name: requiredText("First name", 100),
  last_name: requiredText("Last name", 100),
  school_location: requiredText("School location", 200),
  amazon_wishlist: webAddress("Amazon wishlist URL", { required: true }),
};

/** `POST /api/admin/wishlist/create`. */
export const WishlistCreateBody = z.object(wishlistFields);
/** `POST /api/admin/wishlist/update`. */
export const WishlistUpdateBody = z.object({ id: recordId("id"), ...wishlistFields });
export type WishlistCreateInput = z.output<typeof WishlistCreateBody>;
export type WishlistUpdateInput = z.output<typeof WishlistUpdateBody>;
