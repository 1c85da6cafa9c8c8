import { z } from "zod";
import { ListPagination, TRUE, isoDateTime } from "../responses.ts";

export const storeFields = {
  store_id: z.number(),
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  link: z.string(),
  image_url: z.string(),
};
export const categoryFields = {
  category_id: z.number(),
  id: z.number(),
  title: z.string(),
  slug: z.string(),
  image_url: z.string(),
};
const Store = z.strictObject(storeFields);
const Category = z.strictObject(categoryFields);

export const StoresResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ selected_data: z.array(Store) }),
});
export const CategoriesResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ selected_data: z.array(Category) }),
});
export const StoresPageResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({ selected_data: z.array(Store), deal_data_pagination: ListPagination }),
});
export const CategoriesPageResponse = z.strictObject({
  status: TRUE,
  response: z.strictObject({
    selected_data: z.array(Category),
    deal_data_pagination: ListPagination,
  }),
});

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
  pagination: ListPagination,
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
