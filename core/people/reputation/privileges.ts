import { LEVELS, type Level } from "./levels.ts";

/**
 * What each reputation level may do (docs/decisions/0088-reputation.md, "privileges by level"):
 * the one place the weight of a member's vote is written, read by the votes, by the deal page's
 * own reckoning of a vote and by the help page that states the rule. Pure, and free of the query
 * builder, so that the browser may import it.
 */

/** No member's vote counts for more than this many votes, whatever their level. */
export const MAX_VOTE_WEIGHT = 3;

/**
 * How many votes one vote of a member at each level counts for in a deal's temperature. It grows
 * with the level a member earns by the quality of their posts, so that a few proven members
 * outweigh a ring of fresh accounts; newcomers and members count once.
 */
export const VOTE_WEIGHT: Readonly<Record<Level, number>> = {
  Newcomer: 1,
  Member: 1,
  Regular: 2,
  Trusted: MAX_VOTE_WEIGHT,
};

/** The weight of a vote by a member at `level`: a whole number from 1 to MAX_VOTE_WEIGHT. */
export function voteWeightOf(level: Level): number {
  return Math.min(MAX_VOTE_WEIGHT, Math.max(1, VOTE_WEIGHT[level]));
}

/** Each level with its vote weight, in order, for the help page. */
export function voteWeightTable(): { level: Level; weight: number }[] {
  return LEVELS.map((level) => ({ level, weight: voteWeightOf(level) }));
}
