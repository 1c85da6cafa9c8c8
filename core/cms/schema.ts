import { z } from "zod";
import { text } from "../validation.ts";

/** `POST /api/cms_page`. */
export const CmsPageBody = z.object({
  slug: text({ error: "slug is required." })
    .trim()
    .min(1, "slug is required.")
    .max(100, "No Data Found"),
});

export type CmsPageInput = z.output<typeof CmsPageBody>;
