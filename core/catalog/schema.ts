import { z } from "zod";

/** The deepest page a listing call accepts; far beyond any real listing, it bounds the work. */
export const MAX_PAGE = 1_000_000;

/** A page number: a positive whole number, sent as a number or a numeric string; absent means 1. */
export const pageNumber = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? 1 : value),
  z.coerce
    .number({ error: "page must be a number." })
    .int({ error: "page must be a whole number." })
    .min(1, { error: "page must be 1 or more." })
    .max(MAX_PAGE, { error: `page must be at most ${MAX_PAGE}.` }),
);

/**
 * `{ page }`: `POST /api/stores_list`, `POST /api/category_list`, `POST /api/recent_deal_pagination`.
 */
export const PageBody = z.object({ page: pageNumber });

export type PageInput = z.output<typeof PageBody>;

/** `?page=` of a page's URL: anything that is not a valid page number reads as page 1. */
export function pageFromQuery(value: string | null | undefined): number {
  const parsed = pageNumber.safeParse(value ?? undefined);
  return parsed.success ? parsed.data : 1;
}
