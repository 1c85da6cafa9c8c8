import { z } from "zod";
import { pageFromQuery } from "../list-query.ts";
import { ValidationError } from "../errors.ts";
import { slugify } from "../posts/slug.ts";
import { text } from "../validation.ts";

/**
 * Field schemas the console's content calls share (stores, categories, featured stores, the
 * Teachers Wishlist, social links, forums, CMS pages, contact messages). Multipart forms send
 * every value as text, JSON clients may send numbers and booleans: both read the same.
 */

const WHOLE_NUMBER = /^\d{1,15}$/;

/** A row's id: a positive whole number, sent as a number or as its digits. */
export function recordId(label: string) {
  const message = `${label} is not valid.`;
  return z
    .union([z.number({ error: message }), text({ error: message }).trim()], { error: message })
    .transform((value, ctx) => {
      const id = typeof value === "number" ? value : WHOLE_NUMBER.test(value) ? Number(value) : NaN;
      if (!Number.isSafeInteger(id) || id < 1) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return id;
    });
}

/** An id that may be left out: absent, null and "" read as undefined. */
export function optionalRecordId(label: string) {
  return z.preprocess(
    (value) => (value === undefined || value === null || value === "" ? undefined : value),
    recordId(label).optional(),
  );
}

/** One line of required text, trimmed. */
export function requiredText(label: string, max: number) {
  const required = `${label} is required.`;
  return text({ error: required })
    .trim()
    .min(1, required)
    .max(max, `${label} must be at most ${max} characters.`);
}

/** Optional text (one line, or several), trimmed; absent reads as "". */
export function optionalText(label: string, max: number, options: { multiline?: boolean } = {}) {
  return z.preprocess(
    (value) => (value === null ? undefined : value),
    text({ error: `${label} must be text.`, multiline: options.multiline })
      .trim()
      .max(max, `${label} must be at most ${max} characters.`)
      .optional()
      // Forms send line breaks as CRLF (multipart); they are kept as LF.
      .transform((value) => (value ?? "").replace(/\r\n?/g, "\n")),
  );
}

/** A yes/no of a form or a JSON body: true, "true", "1", "on" are yes; absent is no. */
export const flag = z.preprocess(
  (value) =>
    value === undefined || value === null || value === ""
      ? false
      : value === "true" || value === "1" || value === "on" || value === 1
        ? true
        : value === "false" || value === "0" || value === "off" || value === 0
          ? false
          : value,
  z.boolean({ error: "must be yes or no." }),
);

export const URL_MESSAGE = "Please enter a valid web address (https://…).";

/** A web address with or without its scheme ("example.com" reads as https://example.com/). */
export function normaliseWebAddress(value: string): string | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (!url.hostname.includes(".") && url.hostname !== "localhost") return null;
    if (url.username || url.password) return null;
    return url.toString();
  } catch {
    return null;
  }
}

/** A web address; optional ones read "" when left empty. */
export function webAddress(label: string, options: { required?: boolean; max?: number } = {}) {
  const max = options.max ?? 500;
  return z.preprocess(
    (value) => (value === null ? undefined : value),
    text({ error: URL_MESSAGE })
      .trim()
      .max(max, `${label} must be at most ${max} characters.`)
      .optional()
      .transform((value, ctx) => {
        if (!value) {
          if (options.required) {
            ctx.addIssue({ code: "custom", message: `${label} is required.` });
            return z.NEVER;
          }
          return "";
        }
        const url = normaliseWebAddress(value);
        if (url === null) {
          ctx.addIssue({ code: "custom", message: URL_MESSAGE });
          return z.NEVER;
        }
        return url;
      }),
  );
}

/** What a slug may be: lower-case letters and digits in words joined by single dashes. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX = 80;
export const SLUG_MESSAGE =
  "Use lower-case letters, digits and single dashes only (for example back-to-school).";

/** A slug as typed; "" (left empty) means "make it from the title". */
export const optionalSlug = z.preprocess(
  (value) => (value === null ? undefined : value),
  text({ error: SLUG_MESSAGE })
    .trim()
    .max(SLUG_MAX, `The slug must be at most ${SLUG_MAX} characters.`)
    .optional()
    .transform((value) => value ?? "")
    .refine((value) => value === "" || SLUG_PATTERN.test(value), SLUG_MESSAGE),
);

/**
 * The slug a title gives (the site's own slugify, as posts use it), or null when the title has no
 * letter or digit to make one from (then the slug must be typed).
 */
export function slugFromTitle(title: string): string | null {
  const plain = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return /[a-z0-9]/i.test(plain) ? slugify(title) : null;
}

/** The slug to save: as typed, or made from the title when left empty (else a field error). */
export function slugToSave(input: { slug: string; title: string }): string {
  if (input.slug) return input.slug;
  const made = slugFromTitle(input.title);
  if (!made) {
    throw new ValidationError({
      slug: "The title has no letters or digits to make a slug from: please type one.",
    });
  }
  return made;
}

/** Up or down one place in an ordered list. */
export const direction = z.enum(["up", "down"], { error: "direction must be up or down." });
export type Direction = z.output<typeof direction>;

export interface ListQueryInput {
  search: string;
  page: number;
}

const searchText = text().trim().max(100);

/**
 * `?search=&page=` of a console list (the pages and the GET calls read it alike): anything
 * unreadable reads as no search, page 1.
 */
export function listQueryOf(query: unknown): ListQueryInput {
  const source = (query && typeof query === "object" ? query : {}) as Record<string, unknown>;
  const search = searchText.safeParse(source.search);
  return {
    search: search.success ? search.data : "",
    page: pageFromQuery(typeof source.page === "string" ? source.page : undefined),
  };
}
