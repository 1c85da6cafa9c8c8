import { z } from "zod";

/**
 * What the console's content calls answer (stores, categories, featured stores, the Teachers
 * Wishlist, social links, forums, CMS pages, contact messages): kept beside their modules
 * (server/api/admin-catalog.ts, admin-content.ts, admin-messages.ts) in the style of
 * server/api/responses.ts, strict objects checked by tests/integration/api-contract.test.ts.
 */

const TRUE = z.literal("true");
const isoDateTime = z.string().describe("ISO 8601 date and time");

const Pagination = z.strictObject({
  total: z.number().int(),
  per_page: z.number().int(),
  current_page: z.number().int(),
  last_page: z.number().int(),
});

/** `{ status: 'true', message }`: a console action whose success is a sentence. */
export const ConsoleDoneResponse = z.strictObject({ status: TRUE, message: z.string() });

// Stores and categories -------------------------------------------------------------------------

const CatalogItem = z.strictObject({
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  image_url: z.string(),
  link: z.string().optional().describe("stores only"),
  affiliate_template: z
    .string()
    .optional()
    .describe("stores only, not in the spec: '' or an http(s) address with {url}"),
  deals: z.number().int().describe("posts of any status that name it"),
  created_at: isoDateTime,
});

export const CatalogListResponse = z.strictObject({
  status: TRUE,
  items: z.array(CatalogItem),
  pagination: Pagination,
});

export const CatalogSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  item: CatalogItem,
});

export const MovedAndDeletedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  moved: z.number().int().describe("deals or posts moved to move_to before the delete"),
});

// Featured stores ---------------------------------------------------------------------------------

export const FeaturedListResponse = z.strictObject({
  status: TRUE,
  featured: z.array(
    z.strictObject({
      store_id: z.number(),
      title: z.string(),
      slug: z.string(),
      image_url: z.string(),
      position: z.number().int(),
    }),
  ),
});

// Teachers Wishlist -------------------------------------------------------------------------------

const WishlistItem = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  school_location: z.string(),
  amazon_wishlist: z.string(),
  position: z.number().int(),
});

export const WishlistListResponse = z.strictObject({ status: TRUE, items: z.array(WishlistItem) });

export const WishlistSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  item: WishlistItem,
});

// Social links ------------------------------------------------------------------------------------

const SocialLinkItem = z.strictObject({
  id: z.number(),
  name: z.string(),
  social_url: z.string(),
  social_image: z.string().describe("the icon's class, e.g. icon-facebook"),
  position: z.number().int(),
});

export const SocialLinksListResponse = z.strictObject({
  status: TRUE,
  items: z.array(SocialLinkItem),
  icons: z.array(z.strictObject({ value: z.string(), label: z.string() })),
});

export const SocialLinkSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  item: SocialLinkItem,
});

// Forums ------------------------------------------------------------------------------------------

const ForumCategoryItem = z.strictObject({
  id: z.number(),
  forum_id: z.number(),
  kind: z.enum(["deal", "discussion"]),
  title: z.string(),
  position: z.number().int(),
  posts: z.number().int().describe("posts of any status in it"),
});

const ForumItem = z.strictObject({
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  detail: z.string(),
  type: z.enum(["d", "g"]).describe("d: deals forum, g: educators' forum"),
  position: z.number().int(),
  categories: z.array(ForumCategoryItem),
});

export const ForumsConsoleResponse = z.strictObject({ status: TRUE, forums: z.array(ForumItem) });

export const ForumSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  forum: ForumItem.omit({ categories: true }),
});

export const ForumCategorySavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  category: ForumCategoryItem,
});

// CMS pages ---------------------------------------------------------------------------------------

const PageSummary = z.strictObject({
  id: z.number(),
  slug: z.string(),
  title: z.string(),
  url: z.string().describe("where the public reads it"),
  updated_at: isoDateTime,
});

export const PagesListResponse = z.strictObject({ status: TRUE, pages: z.array(PageSummary) });

export const PageSavedResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  page: PageSummary.extend({ detail: z.string().describe("sanitised HTML") }),
});

// Contact messages --------------------------------------------------------------------------------

const ContactMessageItem = z.strictObject({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  mobile: z.string(),
  website: z.string(),
  category: z.string(),
  subject: z.string(),
  message: z.string(),
  user_id: z.number().nullable(),
  status: z.enum(["open", "resolved"]),
  resolved_at: isoDateTime.nullable(),
  item_link: z.string().describe("a path of this site the message names, or ''"),
  replies: z.number().int(),
  created_at: isoDateTime,
});

export const ContactMessagesResponse = z.strictObject({
  status: TRUE,
  messages: z.array(ContactMessageItem),
  pagination: Pagination,
});

export const ContactMessageResponse = z.strictObject({
  status: TRUE,
  message: z.string(),
  contact_message: ContactMessageItem.extend({
    history: z.array(
      z.strictObject({
        id: z.number(),
        author_name: z.string(),
        body: z.string(),
        created_at: isoDateTime,
      }),
    ),
  }),
});
