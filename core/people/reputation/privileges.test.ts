import { describe, expect, it } from "vitest";
import { LEVELS } from "./levels.ts";
import { MAX_VOTE_WEIGHT, voteWeightOf, voteWeightTable } from "./privileges.ts";

describe("vote weight by level", () => {
  it("grows with the level and never passes the cap", () => {
    const weights = LEVELS.map(voteWeightOf);
    for (let i = 1; i < weights.length; i++)
      expect(weights[i]).toBeGreaterThanOrEqual(weights[i - 1]!);
    expect(voteWeightOf("Newcomer")).toBe(1);
    expect(voteWeightOf("Trusted")).toBe(MAX_VOTE_WEIGHT);
    expect(Math.max(...weights)).toBe(3);
  });

  it("lists every level once for the help page", () => {
    expect(voteWeightTable().map((row) => row.level)).toEqual([...LEVELS]);
  });
});
