/**
 * Reputation's levels and their thresholds (a part of the rules, rules.ts), apart so that the
 * console's form that checks thresholds does not bring the rest into the browser's scripts.
 */

export const LEVELS = ["Newcomer", "Member", "Regular", "Trusted"] as const;
export type Level = (typeof LEVELS)[number];

/** The points at which Member, Regular and Trusted begin; an administrator changes them. */
export interface LevelThresholds {
  member: number;
  regular: number;
  trusted: number;
}

export const DEFAULT_LEVEL_THRESHOLDS: LevelThresholds = { member: 10, regular: 50, trusted: 200 };

/** The level of a member with `points`: the highest whose threshold they reach. */
export function levelFor(points: number, thresholds: LevelThresholds): Level {
  if (points >= thresholds.trusted) return "Trusted";
  if (points >= thresholds.regular) return "Regular";
  if (points >= thresholds.member) return "Member";
  return "Newcomer";
}

export type ThresholdProblems = { [field in keyof LevelThresholds]?: string };

/** Why a set of thresholds cannot be saved, by field; empty when they can. */
export function thresholdProblems(thresholds: LevelThresholds): ThresholdProblems {
  const problems: ThresholdProblems = {};
  if (!(thresholds.member >= 1)) problems.member = "Member must begin at 1 point or more.";
  if (!(thresholds.regular > thresholds.member)) {
    problems.regular = "Regular must begin at more points than Member.";
  }
  if (!(thresholds.trusted > thresholds.regular)) {
    problems.trusted = "Trusted must begin at more points than Regular.";
  }
  return problems;
}
