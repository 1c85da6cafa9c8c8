import { z } from "zod";
import { PageBody } from "../../list-query.ts";
import { thresholdProblems, type LevelThresholds } from "./levels.ts";

/** The largest threshold an administrator may set. */
export const MAX_LEVEL_POINTS = 1_000_000;

export const REPUTATION_MESSAGES = {
  points: `Please enter a whole number of points from 1 to ${MAX_LEVEL_POINTS.toLocaleString("en-US")}.`,
  saved: "The level thresholds have been saved.",
} as const;

/** A whole number of points, as JSON or a form's text ("50"). */
const points = z.preprocess(
  (value) =>
    typeof value === "string" ? (/^\s*\d{1,9}\s*$/.test(value) ? Number(value) : NaN) : value,
  z
    .number({ error: REPUTATION_MESSAGES.points })
    .int(REPUTATION_MESSAGES.points)
    .min(1, REPUTATION_MESSAGES.points)
    .max(MAX_LEVEL_POINTS, REPUTATION_MESSAGES.points),
);

/** The form's and the call's fields, by level. */
export const THRESHOLD_FIELDS = {
  member: "member_points",
  regular: "regular_points",
  trusted: "trusted_points",
} as const satisfies Record<keyof LevelThresholds, string>;

export function thresholdsOf(input: ReputationLevelsInput): LevelThresholds {
  return {
    member: input.member_points,
    regular: input.regular_points,
    trusted: input.trusted_points,
  };
}

/** Why thresholds cannot be saved, by the form's field names. */
export function thresholdFieldErrors(thresholds: LevelThresholds): Record<string, string> {
  return Object.fromEntries(
    Object.entries(thresholdProblems(thresholds)).map(([level, message]) => [
      THRESHOLD_FIELDS[level as keyof LevelThresholds],
      message,
    ]),
  );
}

/**
 * `POST /api/admin/reputation_levels` and the Settings page's Levels form: the points at which
 * Member, Regular and Trusted begin, each more than the one before.
 */
export const ReputationLevelsBody = z
  .object({ member_points: points, regular_points: points, trusted_points: points })
  .superRefine((input, ctx) => {
    for (const [field, message] of Object.entries(thresholdFieldErrors(thresholdsOf(input)))) {
      ctx.addIssue({ code: "custom", path: [field], message });
    }
  });
export type ReputationLevelsInput = z.infer<typeof ReputationLevelsBody>;

/** `POST /api/user/reputation`: a page of the signed-in member's ledger. */
export const ReputationLedgerBody = PageBody;

/** `POST /api/community_top`: a page of this month's top contributors. */
export const TopContributorsBody = PageBody;
