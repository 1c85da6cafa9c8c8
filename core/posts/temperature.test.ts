import { describe, expect, it } from "vitest";
import {
  DEGREES_PER_VOTE,
  HOT_DEGREES,
  WARM_DEGREES,
  heatOf,
  temperatureAfterVote,
  temperatureOf,
} from "./temperature.ts";

const counts = (likes: number, unlikes: number, dampedLikes = 0, dampedUnlikes = 0) => ({
  likes_count: likes,
  unlikes_count: unlikes,
  damped_likes: dampedLikes,
  damped_unlikes: dampedUnlikes,
});

describe("temperature", () => {
  it("is 10° per like minus 10° per unlike", () => {
    expect(DEGREES_PER_VOTE).toBe(10);
    expect(temperatureOf(counts(0, 0))).toBe(0);
    expect(temperatureOf(counts(7, 2))).toBe(50);
    expect(temperatureOf(counts(1, 4))).toBe(-30);
  });

  it("leaves out damped votes (several accounts on one address, decision 0008)", () => {
    expect(temperatureOf(counts(12, 0, 10, 0))).toBe(20);
    expect(temperatureOf(counts(3, 9, 0, 6))).toBe(0);
  });

  it("bands: cold below zero, mild up to warm, warm from 50°, hot from 100°", () => {
    expect(WARM_DEGREES).toBe(50);
    expect(HOT_DEGREES).toBe(100);
    expect(heatOf(-10)).toBe("cold");
    expect(heatOf(0)).toBe("mild");
    expect(heatOf(40)).toBe("mild");
    expect(heatOf(50)).toBe("warm");
    expect(heatOf(99)).toBe("warm");
    expect(heatOf(100)).toBe("hot");
    expect(heatOf(480)).toBe("hot");
  });

  it("predicts a vote's change the way the server counts it (toggle and switch)", () => {
    expect(temperatureAfterVote(30, null, "like")).toBe(40);
    expect(temperatureAfterVote(40, "like", null)).toBe(30);
    expect(temperatureAfterVote(40, "like", "unlike")).toBe(20);
    expect(temperatureAfterVote(0, null, "unlike")).toBe(-10);
    expect(temperatureAfterVote(-10, "unlike", "like")).toBe(10);
  });
});
