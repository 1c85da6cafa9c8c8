import { describe, expect, it } from "vitest";
import {
  NO_HOME_FILTER,
  homeFilterFromSearch,
  homeFilterSearch,
  isFiltered,
  pendingHomeFilter,
} from "./home-filter.ts";

const known = { stores: new Set([1, 2, 30]), categories: new Set([4, 5]) };
const read = (query: string) => homeFilterFromSearch(new URLSearchParams(query), known);

describe("home filter in the address", () => {
  it("reads known ids", () => {
    expect(read("store=30&category=5")).toEqual({ store: 30, category: 5 });
    expect(read("store=2")).toEqual({ store: 2, category: null });
    expect(read("")).toEqual(NO_HOME_FILTER);
  });

  it("treats anything else as not chosen", () => {
    for (const query of ["store=abc", "store=0", "store=-1", "store=1.5", "store=7", "store=1e2"]) {
      expect(read(query).store, query).toBeNull();
    }
    expect(read("category=99").category).toBeNull();
  });

  it("writes a choice, keeping other parameters and dropping cleared ones", () => {
    expect(homeFilterSearch({ store: 3, category: null })).toBe("?store=3");
    expect(homeFilterSearch({ store: 3, category: 4 })).toBe("?store=3&category=4");
    expect(homeFilterSearch(NO_HOME_FILTER, new URLSearchParams("store=3&utm_source=x"))).toBe(
      "?utm_source=x",
    );
    expect(homeFilterSearch(NO_HOME_FILTER, new URLSearchParams("store=3"))).toBe("");
  });

  it("knows a filtered choice, and reads a pending address without the lists of ids", () => {
    expect(isFiltered(NO_HOME_FILTER)).toBe(false);
    expect(isFiltered({ store: null, category: 4 })).toBe(true);
    expect(pendingHomeFilter("?store=8&category=x")).toEqual({ store: 8, category: null });
  });
});
