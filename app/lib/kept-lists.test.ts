import { beforeEach, describe, expect, it } from "vitest";
import {
  KEPT_LISTS_LIMIT,
  forgetKeptLists,
  enterList,
  keepList,
  keptListLoader,
  leaveList,
  takeList,
} from "./kept-lists.ts";

beforeEach(() => forgetKeptLists());

describe("lists kept for Back", () => {
  it("are offered once, after the entry was left, at the same address", () => {
    keepList("k1", "/", { cards: 45 });
    expect(takeList("k1", "/")).toBeNull(); // still on the page: a revalidation asks the server
    leaveList("k1");
    expect(takeList("k1", "/?store=2")).toBeNull();
    expect(takeList("k1", "/")).toEqual({ cards: 45 });
    expect(takeList("k1", "/")).toBeNull();
  });

  it("are kept per history entry, the latest data winning", () => {
    keepList("a", "/", { cards: 15 });
    keepList("a", "/", { cards: 30 });
    keepList("b", "/store/acme?page=2", { cards: 15 });
    leaveList("a");
    leaveList("b");
    expect(takeList("a", "/")).toEqual({ cards: 30 });
    expect(takeList("b", "/store/acme?page=2")).toEqual({ cards: 15 });
    expect(takeList(undefined, "/")).toBeNull();
  });

  it("stay left when kept again after leaving, and are not offered once entered again", () => {
    keepList("k", "/", { cards: 30 });
    leaveList("k");
    keepList("k", "/", { cards: 45 }); // a late effect of the page just left
    expect(takeList("k", "/")).toEqual({ cards: 45 });
    leaveList("k");
    enterList("k"); // shown again without taking it (its data came from the server)
    expect(takeList("k", "/")).toBeNull();
  });

  it("keep only the most recent entries", () => {
    for (let i = 0; i <= KEPT_LISTS_LIMIT; i++) {
      keepList(`k${i}`, "/", i);
      leaveList(`k${i}`);
    }
    expect(takeList("k0", "/")).toBeNull();
    expect(takeList(`k${KEPT_LISTS_LIMIT}`, "/")).toBe(KEPT_LISTS_LIMIT);
  });

  it("answer a list route's client loader only when the entry is the browser's current one", async () => {
    let serverLoads = 0;
    const serverLoader = async () => {
      serverLoads++;
      return { cards: 15 };
    };
    const request = new Request("http://localhost/newdeals?page=3");
    // No browser history (a new navigation has not pushed its entry yet): the server's data.
    expect(await keptListLoader({ request, serverLoader })).toEqual({ cards: 15 });
    expect(serverLoads).toBe(1);

    keepList("entry", "/newdeals?page=3", { cards: 30 });
    leaveList("entry");
    const history = { state: { key: "entry", idx: 1 } };
    Object.assign(globalThis, { window: { history } });
    try {
      expect(await keptListLoader({ request, serverLoader })).toEqual({ cards: 30 });
      expect(serverLoads).toBe(1);
      // Taken once: loading the entry again asks the server.
      expect(await keptListLoader({ request, serverLoader })).toEqual({ cards: 15 });
      expect(serverLoads).toBe(2);
    } finally {
      Reflect.deleteProperty(globalThis, "window");
    }
  });
});
