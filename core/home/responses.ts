import { z } from "zod";
import { DealCardSchema } from "../cards/responses.ts";
import { TRUE } from "../responses.ts";

const WishlistEntry = z.strictObject({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  school_location: z.string(),
  amazon_wishlist: z.string(),
});

const HomePagination = z.strictObject({
  current_page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
  per_page: z.number().int(),
});

export const HomeResponse = z.strictObject({
  status: TRUE,
  teachers_wishlist: z.array(WishlistEntry),
  trending_deals: z.strictObject({ deals_arr: z.array(DealCardSchema) }),
  recent_deals: z.strictObject({
    recent_arr: z.array(DealCardSchema),
    current_page: z.number().int(),
    last_page: z.number().int(),
    total: z.number().int(),
  }),
});

export const RecentPageResponse = z.strictObject({
  status: TRUE,
  recent_deals: z.array(DealCardSchema),
  recent_deals_pagination: HomePagination,
});

export const HomeFilterResponse = z.strictObject({
  status: TRUE,
  recent_deals_data: z.array(DealCardSchema),
  trending_deals_arr: z.array(DealCardSchema),
  pagination: HomePagination,
});
