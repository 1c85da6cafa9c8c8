import { z } from "zod";
import { isBlank, text } from "./validation.ts";

/**
 * Paging and list queries, for the pages, the console and the API alike: a page number as a call's
 * field or a URL's `?page=`, an optional id, and the pieces of the console's list filters (GET
 * calls and page URLs alike), where every value arrives as query-string text and an empty field of
 * a filter form means "any".
 */

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

/**
 * `?page=` of a page's URL: anything that is not a page number up to `maxPage` reads as page 1,
 * so an edited or stale address still shows a page.
 */
export function pageFromQuery(value: string | null | undefined, maxPage = MAX_PAGE): number {
  const parsed = pageNumber.safeParse(value ?? undefined);
  return parsed.success && parsed.data <= maxPage ? parsed.data : 1;
}

/** An optional id: a number, a numeric string, or empty (null, "", "0" and absent mean "any"). */
export const optionalId = z.preprocess(
  (value) =>
    value === undefined || value === null || value === "" || value === 0 || value === "0"
      ? undefined
      : value,
  z.coerce
    .number({ error: "must be a number." })
    .int({ error: "must be a whole number." })
    .positive({ error: "must be a positive number." })
    .optional(),
);

/** Rows per page of every console list. */
export const CONSOLE_PAGE_SIZE = 20;

/** Free text of a filter: trimmed, blank is "any". */
export function filterText(max: number, name: string) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    text({ error: `${name} must be text.` })
      .trim()
      .max(max, `${name} can be at most ${max} characters.`)
      .optional(),
  );
}

/** One of a list of values; blank is "any". */
export function filterChoice<const T extends readonly [string, ...string[]]>(
  values: T,
  name: string,
) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    z.enum(values, { error: `${name} must be one of ${values.join(", ")}.` }).optional(),
  );
}

/** A row id (store, category, user…) sent as a number or numeric text; blank is "any". */
export function filterId(name: string) {
  const message = `${name} must be a positive whole number.`;
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : typeof value === "string" ? Number(value) : value),
    z
      .number({ error: message })
      .int(message)
      .positive(message)
      .max(Number.MAX_SAFE_INTEGER, message)
      .optional(),
  );
}

/** Text that is a whole number naming a row (an id typed into a search box), or null. */
export function idInText(value: string): number | null {
  if (!/^\d{1,15}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 ? id : null;
}
