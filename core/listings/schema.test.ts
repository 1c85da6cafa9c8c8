import { describe, expect, it } from "vitest";
import { SEARCH_MAX_LENGTH } from "../constants.ts";
import {
  CategoryPageBody,
  EMPTY_PANEL,
  FilterBody,
  isPanelFiltered,
  panelFromSearchParams,
  panelToSearchParams,
  searchText,
} from "./schema.ts";

describe("the /api/filter input", () => {
  it("reads an empty body as page 1 of every new deal, unfiltered", () => {
    expect(FilterBody.parse({})).toEqual({
      store_id: [],
      page: 1,
      search_title: "",
      filter_type: "newdeals",
    });
  });

  it("treats blank values as absent", () => {
    expect(
      FilterBody.parse({
        store_id: " ",
        category_id: "",
        page: "",
        min_price: "",
        max_discount: null,
        filter_type: "",
        search_title: "   ",
      }),
    ).toEqual(FilterBody.parse({}));
    // The spec's "any category" is 0.
    expect(FilterBody.parse({ category_id: "0" }).category_id).toBeUndefined();
  });

  it("turns numeric strings into numbers and store lists into arrays", () => {
    expect(
      FilterBody.parse({
        store_id: "3, 5",
        category_id: "7",
        page: "2",
        min_price: "10.5",
        max_price: "99",
        min_discount: "5",
        max_discount: 60,
      }),
    ).toEqual({
      store_id: [3, 5],
      category_id: 7,
      page: 2,
      min_price: 10.5,
      max_price: 99,
      min_discount: 5,
      max_discount: 60,
      search_title: "",
      filter_type: "category",
    });
    expect(FilterBody.parse({ store_id: 4 }).store_id).toEqual([4]);
    expect(FilterBody.parse({ store_id: ["4", 9, ""] }).store_id).toEqual([4, 9]);
  });

  it("infers the listing: search text, then category, then stores, else new deals", () => {
    const typeOf = (body: object) => FilterBody.parse(body).filter_type;
    expect(typeOf({ search_title: "crayons", category_id: 2, store_id: 1 })).toBe("search");
    expect(typeOf({ category_id: 2, store_id: 1 })).toBe("category");
    expect(typeOf({ store_id: "1,2" })).toBe("store");
    expect(typeOf({ page: 3 })).toBe("newdeals");
    // A named listing wins over the inference.
    expect(typeOf({ filter_type: "newdeals", store_id: 1 })).toBe("newdeals");
  });

  it("trims the search text and cuts it to the longest search", () => {
    expect(FilterBody.parse({ search_title: "  glue sticks  " }).search_title).toBe("glue sticks");
    const long = FilterBody.parse({ search_title: "a".repeat(SEARCH_MAX_LENGTH + 50) });
    expect(long.search_title).toHaveLength(SEARCH_MAX_LENGTH);
  });

  it.each([
    ["a store listing without a store", { filter_type: "store" }],
    ["a category listing without a category", { filter_type: "category" }],
    ["a search without text", { filter_type: "search", search_title: " " }],
    ["an unknown listing", { filter_type: "everything" }],
    ["a store id that is not a number", { store_id: "abc" }],
    ["a store id below 1", { store_id: "-2" }],
    ["more than 200 stores", { store_id: Array.from({ length: 201 }, (_, i) => i + 1) }],
    ["a negative price", { min_price: -1 }],
    ["a discount over 100", { max_discount: 101 }],
    ["a minimum price above the maximum", { min_price: 50, max_price: 10 }],
    ["a minimum discount above the maximum", { min_discount: 60, max_discount: 20 }],
    ["page 0", { page: 0 }],
    ["a page that is not a number", { page: "two" }],
    ["search text that is not text", { search_title: 42 }],
  ])("refuses %s", (_, body) => {
    expect(FilterBody.safeParse(body).success).toBe(false);
  });
});

describe("the /api/category_page input", () => {
  it("needs no slug for all deals, and trims a given one", () => {
    expect(CategoryPageBody.parse({ type: "d" })).toEqual({ type: "d", page: 1 });
    expect(CategoryPageBody.parse({ type: "store", slug: " target ", page: "4" })).toEqual({
      type: "store",
      slug: "target",
      page: 4,
    });
  });

  it.each([
    ["a store without a slug", { type: "store" }],
    ["a category with a blank slug", { type: "category", slug: "  " }],
    ["an unknown type", { type: "x", slug: "target" }],
    ["a slug over 200 characters", { type: "store", slug: "s".repeat(201) }],
  ])("refuses %s", (_, body) => {
    expect(CategoryPageBody.safeParse(body).success).toBe(false);
  });
});

describe("the filter panel in a page's URL", () => {
  it("reads the panel's choices and writes them back", () => {
    const panel = panelFromSearchParams(
      new URLSearchParams("store_id=4,9&min_price=5&max_discount=50&q=keep"),
    );
    expect(panel).toEqual({ storeIds: [4, 9], price: { min: 5 }, discount: { max: 50 } });
    expect(isPanelFiltered(panel)).toBe(true);
    const written = panelToSearchParams(panel, new URLSearchParams("q=keep&min_discount=10"));
    expect(Object.fromEntries(written)).toEqual({
      q: "keep",
      store_id: "4,9",
      min_price: "5",
      max_discount: "50",
    });
  });

  it("reads anything invalid as no choice at all", () => {
    const panel = panelFromSearchParams(new URLSearchParams("store_id=x&min_price=5"));
    expect(panel).toEqual(EMPTY_PANEL);
    expect(isPanelFiltered(panel)).toBe(false);
  });
});

describe("searchText", () => {
  it("trims and cuts the search text, and reads nothing as empty", () => {
    expect(searchText("  maps ")).toBe("maps");
    expect(searchText("b".repeat(SEARCH_MAX_LENGTH + 1))).toHaveLength(SEARCH_MAX_LENGTH);
    expect(searchText(null)).toBe("");
    expect(searchText(undefined)).toBe("");
  });
});
