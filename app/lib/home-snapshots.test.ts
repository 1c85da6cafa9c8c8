import { beforeEach, describe, expect, it } from "vitest";
import { forgetHomeSnapshots, leaveHome, rememberHome, takeHome } from "./home-snapshots.ts";

beforeEach(() => forgetHomeSnapshots());

describe("home snapshots for Back", () => {
  it("are offered once, after the page was left, for the same query", () => {
    rememberHome("k1", "", { cards: 45 });
    expect(takeHome("k1", "")).toBeNull(); // still on the page: a revalidation asks the server
    leaveHome("k1");
    expect(takeHome("k1", "?store=2")).toBeNull();
    expect(takeHome("k1", "")).toEqual({ cards: 45 });
    expect(takeHome("k1", "")).toBeNull();
  });

  it("are kept per history entry, the latest lists winning", () => {
    rememberHome("a", "", { cards: 15 });
    rememberHome("a", "", { cards: 30 });
    rememberHome("b", "?store=1", { cards: 15 });
    leaveHome("a");
    leaveHome("b");
    expect(takeHome("a", "")).toEqual({ cards: 30 });
    expect(takeHome("b", "?store=1")).toEqual({ cards: 15 });
    expect(takeHome(undefined, "")).toBeNull();
  });

  it("keep only the most recent entries", () => {
    for (let i = 0; i < 25; i++) {
      rememberHome(`k${i}`, "", i);
      leaveHome(`k${i}`);
    }
    expect(takeHome("k0", "")).toBeNull();
    expect(takeHome("k24", "")).toBe(24);
  });
});
