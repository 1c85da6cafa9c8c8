import { TtlCache } from "../cache/ttl-cache.ts";
import type { CategoryDetail, StoreDetail } from "../catalog/presenter.ts";
import { presentCategoryDetail, presentStoreDetail } from "../catalog/presenter.ts";
import * as catalogLookups from "../catalog/store-and-category-lookups.ts";
import { PAGE_SIZE, lastPage } from "../constants.ts";
import { LIST_CACHE_TTL_MS, createDealPager, dealListCaches, filterKey } from "../cards/paging.ts";
import { presentDealCard, type DealCard } from "../cards/presenter.ts";
import { findCardsByIds } from "../cards/deal-card-query.ts";
import type { DealCardRow } from "../cards/deal-card-query.ts";
import {
  NO_BOUNDS,
  type DealBounds,
  type DealFilter,
  type TextMatch,
} from "../cards/deal-filter-query.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { CONTROL_CHARACTERS_MESSAGE, SINGLE_LINE } from "../validation.ts";
import {
  presentEducatorPost,
  type EducatorPost,
  type Listing,
  type StoreOption,
} from "./presenter.ts";
import { createDirectory } from "./directory.ts";
import { findNearestTerms, findSearchIds } from "./repository.ts";
import {
  EDUCATORS_SLUG,
  EMPTY_PANEL,
  listingSlug,
  defaultSort,
  type CategoryPageInput,
  type FilterInput,
  type ListingSort,
  type PanelFilter,
} from "./schema.ts";
import type { ExpiredChoice } from "../posts/expiry/schema.ts";

/** Which listing a request is about, once its store or category is known. */
export type ListingContext =
  | { type: "store"; store: StoreDetail; storeIds: number[] }
  | { type: "category"; category: CategoryDetail }
  | { type: "newdeals" }
  | { type: "search"; query: string; categoryId?: number };

/** A listing page as a loader asks for it: by slug or query, with the panel's choices. */
export type ListingRequest =
  | { type: "store"; slug: string }
  | { type: "category"; slug: string }
  | { type: "newdeals" }
  | { type: "search"; query: string };

/**
 * Search results ranked once per search are kept (ids only) for the first pages, so a popular
 * search and paging through it skip the ranking.
 */
const RANKED_RESULTS_KEPT = 600;

/** A word of search text (letters and digits of any script). */
const WORD = /[\p{L}\p{N}]+/gu;

/**
 * The listing pages and their calls: a store's, a category's, all new deals, search results and
 * the educators' forum, with the Filter panel's narrowing (`POST /api/filter`). Unfiltered lists
 * page by keyset (docs/decisions/0011-deep-pagination.md); search ranks by relevance and
 * freshness (docs/decisions/0010-search-ranking.md). Lists are newest first unless sorted
 * otherwise (hot, top discount, price low to high: core/cards/deal-sort.ts); in every order live
 * deals come before expired ones, which "Hide expired" leaves out
 * (docs/decisions/0037-deal-expiry.md).
 */
export function createListingsService(deps: Deps) {
  const { db, now, changes } = deps;
  const pager = createDealPager(db);
  const directory = createDirectory(deps);
  const { rankings } = dealListCaches(db);
  const allStores = new TtlCache<StoreOption[]>(60_000, 1);
  // Spelling corrections come from the words of live posts.
  const corrections = new TtlCache<string | null>(LIST_CACHE_TTL_MS, 500);
  changes.on("catalog", () => allStores.clear());
  changes.on("posts", () => corrections.clear());
  const size = PAGE_SIZE.listing;

  const cards = (rows: DealCardRow[]): DealCard[] => {
    const at = now();
    return rows.map((row) => presentDealCard(row, at));
  };

  function storeOptions(checklist: "none" | "all" | DealFilter): Promise<StoreOption[]> {
    if (checklist === "none") return Promise.resolve([]);
    if (checklist === "all") {
      return allStores.get("all", async () =>
        (await catalogLookups.findAllStores(db)).map((s) => ({
          id: s.id,
          title: s.title,
          slug: s.slug,
          deal_count: null,
        })),
      );
    }
    return pager.stores(checklist);
  }

  /**
   * One page of a listing narrowed by the panel. `base` is the whole listing (the sliders' bounds
   * and the checklist come from it), `narrowed` what the panel leaves of it.
   */
  async function dealListing(
    base: DealFilter,
    panel: PanelFilter,
    page: number,
    selected: StoreDetail | CategoryDetail | null,
    checklist: "none" | "all" | "base",
    sort: ListingSort,
    hideExpired: boolean,
  ): Promise<Listing> {
    // The sliders and the checklist describe the whole listing; the page what the panel and
    // "Hide expired" leave of it.
    const narrowed: DealFilter = {
      ...base,
      ...(panel.storeIds.length ? { storeIds: panel.storeIds } : {}),
      price: panel.price,
      discount: panel.discount,
      ...(hideExpired ? { liveOnly: true } : {}),
    };
    const listing = (
      items: DealCard[],
      total: number,
      bounds: DealBounds,
      stores: StoreOption[],
    ) => ({
      items,
      total,
      currentPage: page,
      lastPage: lastPage(total, size),
      perPage: size,
      selected,
      bounds,
      stores,
    });

    if (!base.text) {
      const [{ rows, total }, bounds, stores] = await Promise.all([
        pager.filteredPage(narrowed, page, size, sort === "relevance" ? "new" : sort),
        pager.bounds(base),
        storeOptions(checklist === "base" ? base : checklist),
      ]);
      return listing(cards(rows), total, bounds, stores);
    }

    // Search: misspelt words are corrected only when the text as typed finds less than a page.
    const text = await searchMatch(base.text.query, base);
    if (sort !== "relevance") {
      // Sorted search results: the matches in the sort's order, like any filtered list.
      const [{ rows, total }, bounds, stores] = await Promise.all([
        pager.filteredPage({ ...narrowed, text }, page, size, sort),
        pager.bounds({ ...base, text }),
        storeOptions(checklist === "base" ? { ...base, text } : checklist),
      ]);
      return listing(cards(rows), total, bounds, stores);
    }
    const [rows, total, bounds, stores] = await Promise.all([
      searchCards(text, { ...narrowed, text: undefined }, page),
      pager.count({ ...narrowed, text }),
      pager.bounds({ ...base, text }),
      storeOptions(checklist === "base" ? { ...base, text } : checklist),
    ]);
    return listing(cards(rows), total, bounds, stores);
  }

  /** The search text as typed, plus its correction when the text alone finds too little. */
  async function searchMatch(query: string, base: DealFilter): Promise<TextMatch> {
    const typed: TextMatch = { query };
    if ((await pager.count({ ...base, text: typed })) >= size) return typed;
    const corrected = await corrections.get(query.toLowerCase(), () => correctWords(query));
    return corrected ? { query, corrected } : typed;
  }

  /** The text with each misspelt word replaced by the nearest known word; null if none is. */
  async function correctWords(query: string): Promise<string | null> {
    const lower = query.toLowerCase();
    const words = [...new Set(lower.match(WORD) ?? [])].filter(
      (word) => word.length >= 3 && /\p{L}/u.test(word),
    );
    const nearest = await findNearestTerms(db, words);
    if (![...nearest].some(([word, term]) => word !== term)) return null;
    return lower.replace(WORD, (word) => nearest.get(word) ?? word);
  }

  async function searchCards(text: TextMatch, filter: DealFilter, page: number) {
    const offset = (page - 1) * size;
    const ids =
      offset + size <= RANKED_RESULTS_KEPT
        ? (
            await rankings.get(filterKey({ ...filter, text }), () =>
              findSearchIds(db, text, filter, now(), 0, RANKED_RESULTS_KEPT),
            )
          ).slice(offset, offset + size)
        : await findSearchIds(db, text, filter, now(), offset, size);
    return findCardsByIds(db, ids);
  }

  async function resolve(request: ListingRequest): Promise<ListingContext> {
    switch (request.type) {
      case "store": {
        // A slug no schema accepts (a page's address can carry anything) names no store.
        const store = listingSlug.safeParse(request.slug).success
          ? await catalogLookups.findStoreBySlug(db, request.slug)
          : undefined;
        if (!store) throw new NotFoundError();
        return { type: "store", store: presentStoreDetail(store), storeIds: [store.id] };
      }
      case "category": {
        const category = listingSlug.safeParse(request.slug).success
          ? await catalogLookups.findCategoryBySlug(db, request.slug)
          : undefined;
        if (!category) throw new NotFoundError();
        return { type: "category", category: presentCategoryDetail(category) };
      }
      case "newdeals":
        return request;
      case "search":
        if (!SINGLE_LINE.test(request.query)) {
          throw new ValidationError({ query: CONTROL_CHARACTERS_MESSAGE });
        }
        return request;
    }
  }

  function contextListing(
    context: ListingContext,
    panel: PanelFilter,
    page: number,
    sort: ListingSort,
    hideExpired: boolean,
  ) {
    switch (context.type) {
      case "store":
        // The store page shows a Visit Store card instead of a checklist.
        return dealListing(
          { storeIds: context.storeIds },
          { ...panel, storeIds: [] },
          page,
          context.store,
          "none",
          sort,
          hideExpired,
        );
      case "category":
        return dealListing(
          { categoryId: context.category.id },
          panel,
          page,
          context.category,
          "base",
          sort,
          hideExpired,
        );
      case "newdeals":
        return dealListing({}, panel, page, null, "all", sort, hideExpired);
      case "search":
        return dealListing(
          {
            text: { query: context.query },
            ...(context.categoryId !== undefined ? { categoryId: context.categoryId } : {}),
          },
          panel,
          page,
          null,
          "base",
          sort,
          hideExpired,
        );
    }
  }

  async function educatorPage(page: number): Promise<Listing<EducatorPost>> {
    const perPage = PAGE_SIZE.educatorsForum;
    const scope = { kind: "type", postType: "g" } as const;
    const [rows, total] = await Promise.all([
      pager.scopeCards(scope, page, perPage),
      pager.scopeCount(scope),
    ]);
    return {
      items: cards(rows).map(presentEducatorPost),
      total,
      currentPage: page,
      lastPage: lastPage(total, perPage),
      perPage,
      selected: null,
      bounds: NO_BOUNDS,
      stores: [],
    };
  }

  /**
   * A listing page (store, category, new deals, search) with the panel's choices and the sort
   * from its URL; without a sort, the order the listing has always had (newest first, search by
   * relevance).
   */
  async function listingPage(
    request: ListingRequest,
    page: number,
    panel = EMPTY_PANEL,
    sort?: ListingSort,
    expired?: ExpiredChoice,
  ) {
    return contextListing(
      await resolve(request),
      panel,
      page,
      sort ?? (request.type === "search" ? defaultSort("search") : "new"),
      // The JSON calls keep the spec's answer (every deal) unless asked; pages always say.
      (expired ?? "show") === "hide",
    );
  }

  return {
    page: listingPage,

    /** The store and category lists (/store, /category): tiles with live deals, search, A–Z. */
    directory,

    /** `POST /api/category_page`. */
    async categoryPage(
      input: CategoryPageInput,
    ): Promise<Listing<DealCard> | Listing<EducatorPost>> {
      const slug = input.slug ?? "";
      switch (input.type) {
        case "store":
          return listingPage(
            { type: "store", slug },
            input.page,
            EMPTY_PANEL,
            input.sort,
            input.expired,
          );
        case "category":
          return listingPage(
            { type: "category", slug },
            input.page,
            EMPTY_PANEL,
            input.sort,
            input.expired,
          );
        case "d":
          return listingPage(
            { type: "newdeals" },
            input.page,
            EMPTY_PANEL,
            input.sort,
            input.expired,
          );
        case "g":
          if (slug !== EDUCATORS_SLUG) throw new NotFoundError();
          return educatorPage(input.page);
      }
    },

    /** The educators' forum list (/educator): 12 posts a page, newest first. */
    educatorPage,

    /** `POST /api/filter` (filter_type: see FilterBody in ./schema.ts). */
    async filter(input: FilterInput): Promise<Listing> {
      const sort = input.sort ?? (input.filter_type === "search" ? "relevance" : "new");
      const hideExpired = (input.expired ?? "show") === "hide";
      const panel: PanelFilter = {
        storeIds: input.filter_type === "store" ? [] : input.store_id,
        price: { min: input.min_price, max: input.max_price },
        discount: { min: input.min_discount, max: input.max_discount },
      };
      switch (input.filter_type) {
        case "store": {
          const stores = await catalogLookups.findStoresByIds(db, input.store_id);
          const first = stores.find((s) => s.id === input.store_id[0]) ?? stores[0];
          if (!first) throw new NotFoundError();
          const base: DealFilter = {
            storeIds: input.store_id,
            ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
          };
          return dealListing(
            base,
            panel,
            input.page,
            presentStoreDetail(first),
            "none",
            sort,
            hideExpired,
          );
        }
        case "category": {
          const category = await catalogLookups.findCategoryById(db, input.category_id!);
          if (!category) throw new NotFoundError();
          return contextListing(
            { type: "category", category: presentCategoryDetail(category) },
            panel,
            input.page,
            sort,
            hideExpired,
          );
        }
        case "newdeals":
          return input.category_id === undefined
            ? contextListing({ type: "newdeals" }, panel, input.page, sort, hideExpired)
            : dealListing(
                { categoryId: input.category_id },
                panel,
                input.page,
                null,
                "all",
                sort,
                hideExpired,
              );
        case "search":
          return contextListing(
            { type: "search", query: input.search_title, categoryId: input.category_id },
            panel,
            input.page,
            sort,
            hideExpired,
          );
      }
    },
  };
}

export type ListingsService = ReturnType<typeof createListingsService>;
