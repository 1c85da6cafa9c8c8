import { z } from "zod";

/** `POST /api/cms_page`. */
export const CmsPageBody = z.object({
  slug: z
    .string({ error: "slug is required." })
    .trim()
    .min(1, "slug is required.")
    .max(100, "No Data Found"),
});
