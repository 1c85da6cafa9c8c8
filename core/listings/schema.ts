import { z } from "zod";
import { pageNumber } from "../list-query.ts";
import { SEARCH_MAX_LENGTH } from "../constants.ts";
import { DEAL_SORTS } from "../cards/sorts.ts";
import { optionalId } from "../list-query.ts";
import { SINGLE_LINE, isBlank, text } from "../validation.ts";
import {
  EXPIRED_CHOICES,
  EXPIRED_CHOICE_MESSAGE,
  type ExpiredChoice,
} from "../posts/expiry/schema.ts";

/** `type` of `POST /api/category_page`: a store, a category, all deals (d), the educators forum (g). */
export const LISTING_TYPES = ["store", "category", "d", "g"] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

/** The only forum slug of type g: the educators' forum. */
export const EDUCATORS_SLUG = "educators";

/** The slug of a store or a category, as the payloads and the pages' addresses carry it. */
export const listingSlug = text({ error: "slug must be text." })
  .trim()
  .max(200, { error: "slug is too long." });

/**
 * The order of a listing (record 0011), beside the spec's fields: `hot` (the stored hot score),
 * `new` (newest first), `discount` (top discount first), `price` (price low to high), and for
 * search results `relevance` (docs/decisions/0010-search-ranking.md). Optional: a call without it
 * keeps the order it always had — newest first, search results by relevance.
 */
export const LISTING_SORTS = [...DEAL_SORTS, "relevance"] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

export const SORT_MESSAGE = "sort must be one of hot, new, discount, price or relevance.";
export const RELEVANCE_MESSAGE = "sort relevance applies to search results only.";

const optionalSort = z.preprocess(
  (value) => (isBlank(value) ? undefined : value),
  z.enum(LISTING_SORTS, { error: SORT_MESSAGE }).optional(),
);

/**
 * "Hide expired" (record 0037), beside the spec's fields: `hide` leaves expired deals out, `show`
 * lists them after the live ones. Optional: without it a JSON call lists them, as the spec's calls
 * always did; the listing pages send their own choice (`expiredFromSearchParams`), where New Deals
 * hides them unless told.
 */
const optionalExpired = z.preprocess(
  (value) => (isBlank(value) ? undefined : value),
  z.enum(EXPIRED_CHOICES, { error: EXPIRED_CHOICE_MESSAGE }).optional(),
);

/** `POST /api/category_page`: `{ slug, type, page }`, and the optional `sort` and `expired`. */
export const CategoryPageBody = z
  .object({
    slug: listingSlug.optional(),
    type: z.enum(LISTING_TYPES, { error: "type must be one of store, category, d or g." }),
    page: pageNumber,
    sort: optionalSort,
    expired: optionalExpired,
  })
  .superRefine((body, ctx) => {
    if (body.type !== "d" && !body.slug) {
      ctx.addIssue({ code: "custom", path: ["slug"], message: "slug is required." });
    }
    if (body.sort === "relevance") {
      ctx.addIssue({ code: "custom", path: ["sort"], message: RELEVANCE_MESSAGE });
    }
    if (body.type === "g" && body.sort !== undefined && body.sort !== "new") {
      ctx.addIssue({
        code: "custom",
        path: ["sort"],
        message: "The educators' forum is listed newest first only.",
      });
    }
  });

export type CategoryPageInput = z.output<typeof CategoryPageBody>;

/**
 * `filter_type` of `POST /api/filter`, i.e. which listing the filter panel belongs to:
 * - `store`: the deals of `store_id` (one store, or several), optionally of `category_id`;
 * - `category`: the deals of `category_id`, optionally only from the `store_id` stores;
 * - `newdeals`: every deal, optionally only from the `store_id` stores;
 * - `search`: the deals matching `search_title`, optionally only from the `store_id` stores.
 * The listing decides the sliders' bounds (`price_filter`, `discount_filter`) and the checklist.
 * When absent it is inferred: search_title → search, else category_id → category, else
 * store_id → store, else newdeals.
 */
export const FILTER_TYPES = ["store", "category", "newdeals", "search"] as const;
export type FilterType = (typeof FILTER_TYPES)[number];

/** A list of store ids: a number, a comma-separated string, or an array of either. */
const storeIdList = z.preprocess(
  (value) => {
    if (isBlank(value)) return [];
    const parts = Array.isArray(value)
      ? value
      : typeof value === "string"
        ? value.split(",")
        : [value];
    return parts
      .map((part) => (typeof part === "string" ? part.trim() : part))
      .filter((part) => !isBlank(part));
  },
  z
    .array(
      z.coerce
        .number({ error: "store_id must be a store id or a list of them." })
        .int({ error: "store_id must be a store id or a list of them." })
        .positive({ error: "store_id must be a store id or a list of them." }),
    )
    .max(200, { error: "store_id lists at most 200 stores." }),
);

/** A bound of a slider: a price (cents allowed) or a discount (whole percent, as stored). */
function optionalAmount(field: string, max: number, options: { whole?: boolean } = {}) {
  const amount = z.coerce
    .number({ error: `${field} must be a number.` })
    .min(0, { error: `${field} must be 0 or more.` })
    .max(max, { error: `${field} must be at most ${max}.` });
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : value),
    (options.whole ? amount.int({ error: `${field} must be a whole number.` }) : amount).optional(),
  );
}

const optionalDiscount = (field: string) => optionalAmount(field, 100, { whole: true });

const MAX_PRICE = 10_000_000;

/** `POST /api/filter`, with every parameter of the spec. */
export const FilterBody = z
  .object({
    store_id: storeIdList,
    category_id: optionalId,
    page: pageNumber,
    min_discount: optionalDiscount("min_discount"),
    max_discount: optionalDiscount("max_discount"),
    min_price: optionalAmount("min_price", MAX_PRICE),
    max_price: optionalAmount("max_price", MAX_PRICE),
    filter_type: z.preprocess(
      (value) => (isBlank(value) ? undefined : value),
      z
        .enum(FILTER_TYPES, {
          error: "filter_type must be one of store, category, newdeals or search.",
        })
        .optional(),
    ),
    search_title: z.preprocess(
      (value) => (isBlank(value) ? "" : value),
      text({ error: "search_title must be text." }).transform((value) =>
        value.trim().slice(0, SEARCH_MAX_LENGTH),
      ),
    ),
    sort: optionalSort,
    expired: optionalExpired,
  })
  .transform((body) => ({
    ...body,
    filter_type: (body.filter_type ??
      (body.search_title
        ? "search"
        : body.category_id !== undefined
          ? "category"
          : body.store_id.length
            ? "store"
            : "newdeals")) as FilterType,
  }))
  .superRefine((body, ctx) => {
    if (body.filter_type === "store" && body.store_id.length === 0) {
      ctx.addIssue({
        code: "custom",
        path: ["store_id"],
        message: "store_id is required for a store.",
      });
    }
    if (body.filter_type === "category" && body.category_id === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["category_id"],
        message: "category_id is required for a category.",
      });
    }
    if (body.filter_type === "search" && !body.search_title) {
      ctx.addIssue({
        code: "custom",
        path: ["search_title"],
        message: "Please enter something to search for.",
      });
    }
    if (body.sort === "relevance" && body.filter_type !== "search") {
      ctx.addIssue({ code: "custom", path: ["sort"], message: RELEVANCE_MESSAGE });
    }
    if (
      body.min_price !== undefined &&
      body.max_price !== undefined &&
      body.min_price > body.max_price
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["min_price"],
        message: "min_price must not be more than max_price.",
      });
    }
    if (
      body.min_discount !== undefined &&
      body.max_discount !== undefined &&
      body.min_discount > body.max_discount
    ) {
      ctx.addIssue({
        code: "custom",
        path: ["min_discount"],
        message: "min_discount must not be more than max_discount.",
      });
    }
  });

export type FilterInput = z.output<typeof FilterBody>;

/**
 * The search text of `/search?query=`: trimmed and cut to a sane length. Like every query
 * parameter of a page, text that could never be valid (control characters) reads as absent.
 */
export function searchText(value: string | null | undefined): string {
  if (!value || !SINGLE_LINE.test(value)) return "";
  return value.trim().slice(0, SEARCH_MAX_LENGTH);
}

/** The Filter panel's choices: stores of the checklist, price and discount ranges. */
export interface PanelFilter {
  storeIds: number[];
  price: { min?: number; max?: number };
  discount: { min?: number; max?: number };
}

export const EMPTY_PANEL: PanelFilter = { storeIds: [], price: {}, discount: {} };

export function isPanelFiltered(panel: PanelFilter): boolean {
  return (
    panel.storeIds.length > 0 ||
    [panel.price.min, panel.price.max, panel.discount.min, panel.discount.max].some(
      (value) => value !== undefined,
    )
  );
}

/** A listing page's URL keeps the panel's choices in the API's own parameter names. */
const PanelQuery = z.object({
  store_id: storeIdList,
  min_price: optionalAmount("min_price", MAX_PRICE),
  max_price: optionalAmount("max_price", MAX_PRICE),
  min_discount: optionalDiscount("min_discount"),
  max_discount: optionalDiscount("max_discount"),
});

export const PANEL_PARAMS = [
  "store_id",
  "min_price",
  "max_price",
  "min_discount",
  "max_discount",
] as const;

/** The panel's choices from a URL; anything invalid reads as no choice at all. */
export function panelFromSearchParams(params: URLSearchParams): PanelFilter {
  const parsed = PanelQuery.safeParse(
    Object.fromEntries(PANEL_PARAMS.map((name) => [name, params.get(name) ?? undefined])),
  );
  if (!parsed.success) return EMPTY_PANEL;
  const { store_id, min_price, max_price, min_discount, max_discount } = parsed.data;
  return {
    storeIds: store_id,
    price: { min: min_price, max: max_price },
    discount: { min: min_discount, max: max_discount },
  };
}

/** Writes the panel's choices into a URL's parameters (and removes the ones not chosen). */
export function panelToSearchParams(panel: PanelFilter, params: URLSearchParams): URLSearchParams {
  const next = new URLSearchParams(params);
  const values: Record<(typeof PANEL_PARAMS)[number], string> = {
    store_id: panel.storeIds.join(","),
    min_price: panel.price.min?.toString() ?? "",
    max_price: panel.price.max?.toString() ?? "",
    min_discount: panel.discount.min?.toString() ?? "",
    max_discount: panel.discount.max?.toString() ?? "",
  };
  for (const name of PANEL_PARAMS) {
    if (values[name]) next.set(name, values[name]);
    else next.delete(name);
  }
  return next;
}

/** Which listing a page is: the sorts it offers and the one it starts with. */
export type ListingKind = "store" | "category" | "newdeals" | "search";

/**
 * The sort a listing page starts with (record 0011): where the spec names an order it is kept — new
 * deals are newest first, search results by relevance — and elsewhere (a store's or a category's
 * deals) the hottest deals come first.
 */
export function defaultSort(kind: ListingKind): ListingSort {
  switch (kind) {
    case "newdeals":
      return "new";
    case "search":
      return "relevance";
    case "store":
    case "category":
      return "hot";
  }
}

/** The sorts a listing page offers, in the order its sort bar lists them. */
export function sortsOf(kind: ListingKind): ListingSort[] {
  return kind === "search" ? ["relevance", ...DEAL_SORTS] : [...DEAL_SORTS];
}

/** `?sort=` of a listing page's URL: anything the page does not offer reads as its default. */
export function sortFromSearchParams(params: URLSearchParams, kind: ListingKind): ListingSort {
  const value = params.get("sort");
  return sortsOf(kind).find((sort) => sort === value) ?? defaultSort(kind);
}

/**
 * Whether a listing hides expired deals unless told (record 0037): new deals do — a shopper
 * browsing what is new wants what still works — while a store's, a category's and search results
 * list them after the live ones, where they still say what a store offered.
 */
export function defaultExpired(kind: ListingKind): ExpiredChoice {
  return kind === "newdeals" ? "hide" : "show";
}

/** `?expired=` of a listing page's URL: anything but hide or show reads as the page's default. */
export function expiredFromSearchParams(params: URLSearchParams, kind: ListingKind): ExpiredChoice {
  const value = params.get("expired");
  return EXPIRED_CHOICES.find((choice) => choice === value) ?? defaultExpired(kind);
}
