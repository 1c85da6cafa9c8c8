import { z } from "zod";
import { pageNumber } from "./catalog/schema.ts";
import { isBlank, text } from "./validation.ts";

/**
 * The pieces of the console's list filters (GET calls and page URLs alike): every value arrives as
 * query-string text, and an empty field of a filter form means "any".
 */

/** Rows per page of every console list. */
export const CONSOLE_PAGE_SIZE = 20;

/** A page number of a console list (1 when absent). */
export const consolePage = pageNumber;

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
