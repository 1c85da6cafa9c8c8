import { describe, expect, it } from "vitest";
import { filterKey, scopeOf } from "./paging.ts";
import { scopeKey } from "./deal-scope.ts";

describe("scopeOf: which indexed newest-first list serves a filter", () => {
  it("serves no filter at all from the list of every deal", () => {
    expect(scopeOf({})).toEqual({ kind: "type", postType: "d" });
    expect(scopeOf({ storeIds: [], price: {}, discount: {} })).toEqual({
      kind: "type",
      postType: "d",
    });
  });

  it("serves one store's deals from the store's list", () => {
    expect(scopeOf({ storeIds: [7] })).toEqual({ kind: "store", storeId: 7 });
  });

  it("serves one category's deals from the category's list", () => {
    expect(scopeOf({ categoryId: 3 })).toEqual({ kind: "category", categoryId: 3 });
    expect(scopeOf({ categoryId: 3, storeIds: [] })).toEqual({ kind: "category", categoryId: 3 });
  });

  it.each([
    ["several stores", { storeIds: [1, 2] }],
    ["a store and a category", { storeIds: [1], categoryId: 3 }],
    ["search text", { text: { query: "crayons" } }],
    ["a minimum price", { price: { min: 5 } }],
    ["a maximum price", { categoryId: 3, price: { max: 50 } }],
    ["a minimum discount", { storeIds: [1], discount: { min: 20 } }],
    ["a maximum discount, even of 0", { discount: { max: 0 } }],
  ])("leaves %s to a filtered list", (_, filter) => {
    expect(scopeOf(filter)).toBeNull();
  });
});

describe("scopeKey", () => {
  it("names each list apart", () => {
    const keys = [
      scopeKey({ kind: "type", postType: "d" }),
      scopeKey({ kind: "type", postType: "g" }),
      scopeKey({ kind: "store", storeId: 1 }),
      scopeKey({ kind: "category", categoryId: 1 }),
      scopeKey({ kind: "store", storeId: 2 }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
    expect(scopeKey({ kind: "store", storeId: 1 })).toBe(scopeKey({ kind: "store", storeId: 1 }));
  });
});

describe("filterKey", () => {
  it("gives the same key for the same stores in any order", () => {
    expect(filterKey({ storeIds: [3, 1, 2], categoryId: 4 })).toBe(
      filterKey({ storeIds: [1, 2, 3], categoryId: 4 }),
    );
  });

  it("gives different keys for different filters", () => {
    const keys = [
      filterKey({}),
      filterKey({ storeIds: [1] }),
      filterKey({ storeIds: [1, 2] }),
      filterKey({ categoryId: 1 }),
      filterKey({ price: { min: 1 } }),
      filterKey({ price: { max: 1 } }),
      filterKey({ discount: { min: 1 } }),
      filterKey({ text: { query: "maps" } }),
      filterKey({ text: { query: "maps", corrected: "map" } }),
    ];
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("leaves the caller's store list as it was", () => {
    const storeIds = [3, 1];
    filterKey({ storeIds });
    expect(storeIds).toEqual([3, 1]);
  });
});
