import { describe, expect, it } from "vitest";
import { voteWeightOf } from "../people/reputation/privileges.ts";
import {
  DEGREES_PER_VOTE,
  HOT_DEGREES,
  UNREASONED_UNLIKE_WEIGHT,
  WARM_DEGREES,
  heatOf,
  temperatureAfterVote,
  temperatureOf,
} from "./temperature.ts";

/** Counts of votes; unlikes carry a reason unless `unreasoned` says how many of them do not. */
const counts = (
  likes: number,
  unlikes: number,
  dampedLikes = 0,
  dampedUnlikes = 0,
  unreasoned = 0,
  weightBonus = 0,
) => ({
  likes_count: likes,
  unlikes_count: unlikes,
  damped_likes: dampedLikes,
  damped_unlikes: dampedUnlikes,
  unreasoned_unlikes: unreasoned,
  weight_bonus: weightBonus,
});

describe("temperature", () => {
  it("is 10° per like minus 10° per unlike with a reason", () => {
    expect(DEGREES_PER_VOTE).toBe(10);
    expect(temperatureOf(counts(0, 0))).toBe(0);
    expect(temperatureOf(counts(7, 2))).toBe(50);
    expect(temperatureOf(counts(1, 4))).toBe(-30);
  });

  it("leaves out damped votes (several accounts on one address, decision 0008)", () => {
    expect(temperatureOf(counts(12, 0, 10, 0))).toBe(20);
    expect(temperatureOf(counts(3, 9, 0, 6))).toBe(0);
  });

  it("weighs an unlike without a reason half (record 0086): 5°", () => {
    expect(UNREASONED_UNLIKE_WEIGHT).toBe(0.5);
    expect(temperatureOf(counts(0, 1, 0, 0, 1))).toBe(-5);
    expect(temperatureOf(counts(0, 1, 0, 0, 0))).toBe(-10);
    // 7 likes, 2 unlikes with a reason, 2 without: 70 − 20 − 10.
    expect(temperatureOf(counts(7, 4, 0, 0, 2))).toBe(40);
    // Damped unlikes are left out first; the unreasoned count is of those that count.
    expect(temperatureOf(counts(0, 5, 0, 3, 2))).toBe(-10);
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
    expect(temperatureAfterVote(40, "like", "reasoned-unlike")).toBe(20);
    expect(temperatureAfterVote(0, null, "reasoned-unlike")).toBe(-10);
    expect(temperatureAfterVote(-10, "reasoned-unlike", "like")).toBe(10);
  });

  it("predicts an unlike without a reason at half a vote", () => {
    expect(temperatureAfterVote(0, null, "unlike")).toBe(-5);
    expect(temperatureAfterVote(-5, "unlike", null)).toBe(0);
    expect(temperatureAfterVote(40, "like", "unlike")).toBe(25);
    expect(temperatureAfterVote(-5, "unlike", "like")).toBe(10);
  });

  it("counts a vote as many votes as its weight (record 0090), the bonus in half votes", () => {
    const trusted = voteWeightOf("Trusted");
    const regular = voteWeightOf("Regular");
    expect(trusted).toBe(3);
    expect(regular).toBe(2);
    // One Trusted like: 1 like, 2·(3 − 1) half votes more: 30°.
    expect(temperatureOf(counts(1, 0, 0, 0, 0, 2 * (trusted - 1)))).toBe(30);
    // One Regular unlike without a reason: half a vote, twice: −10°.
    expect(temperatureOf(counts(0, 1, 0, 0, 1, -(regular - 1)))).toBe(-10);
    // A Regular reasoned unlike: −20°; with two plain likes: 0°.
    expect(temperatureOf(counts(2, 1, 0, 0, 0, -2 * (regular - 1)))).toBe(0);
  });

  it("predicts a weighed vote: cast with the weight now, taken back with the one it had", () => {
    expect(temperatureAfterVote(0, null, "like", 0, 3)).toBe(30);
    expect(temperatureAfterVote(30, "like", null, 3, 3)).toBe(0);
    expect(temperatureAfterVote(0, null, "unlike", 0, 2)).toBe(-10);
    expect(temperatureAfterVote(0, null, "reasoned-unlike", 0, 2)).toBe(-20);
    // A like cast at weight 1, switched by a member now Trusted: −10 − 30.
    expect(temperatureAfterVote(10, "like", "reasoned-unlike", 1, 3)).toBe(-30);
    // Taken back: what it was cast with, whatever the level now.
    expect(temperatureAfterVote(20, "like", null, 2, 3)).toBe(0);
  });
});
