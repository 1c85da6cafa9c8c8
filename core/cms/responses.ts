import { z } from "zod";
import { TRUE, isoDateTime } from "../responses.ts";

export const CmsPageResponse = z.strictObject({
  status: TRUE,
  cms_page: z.array(
    z.strictObject({
      id: z.number(),
      slug: z.string(),
      title: z.string(),
      detail: z.string().describe("HTML written by the site owner"),
      updated_at: isoDateTime,
    }),
  ),
});

export const FeaturedStoresResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    featured_data_arr: z.array(
      z.strictObject({
        id: z.number(),
        slug: z.string(),
        title: z.string(),
        image_url: z.string(),
      }),
    ),
  }),
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
