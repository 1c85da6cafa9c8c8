import { z } from "zod";
import { TRUE, count, isoDateTime, message } from "../../responses.ts";
import { LEDGER_KINDS, LEVELS } from "./rules.ts";

export const LevelSchema = z.enum(LEVELS);

export const EarnedBadgeSchema = z.strictObject({
  key: z.string(),
  name: z.string(),
  rule: z.string().describe("the badge's rule in words"),
  earned_at: isoDateTime,
});

/** `reputation` of `POST /api/user_profile` and `POST /api/user_dashboard`. */
export const ReputationSchema = z.strictObject({
  points: count,
  level: LevelSchema,
  badges: z.array(EarnedBadgeSchema),
});

const LedgerLineSchema = z.strictObject({
  kind: z.enum(LEDGER_KINDS),
  points: z.number().int().describe("negative: points lost"),
  detail: z.string(),
  rule: z.string().describe("the rule that gave or took the points"),
  occurred_at: isoDateTime,
  post: z
    .strictObject({ unique_id: z.string(), title: z.string(), link: z.string() })
    .nullable()
    .describe("the post the line is about, while it is public"),
});

const Pagination = z.strictObject({
  total: count,
  per_page: count,
  current_page: count,
  last_page: count,
});

export const ReputationLedgerResponse = z.strictObject({
  status: TRUE,
  reputation: ReputationSchema,
  badge_standings: z.array(
    z.strictObject({
      key: z.string(),
      name: z.string(),
      rule: z.string(),
      standing: z.string().describe('e.g. "Hot streak: 5 deals that reached 100° — you have 3"'),
      have: count,
      target: count,
      earned: z.boolean(),
    }),
  ),
  ledger: z.array(LedgerLineSchema),
  pagination: Pagination,
});

export const TopContributorsResponse = z.strictObject({
  status: TRUE,
  month: z.string().describe("YYYY-MM, UTC"),
  members: z.array(
    z.strictObject({
      rank: count,
      user_id: count,
      user_name: z.string(),
      user_image: z.string(),
      month_points: count,
      points: count,
      level: LevelSchema,
      badges: z.array(EarnedBadgeSchema),
    }),
  ),
  pagination: Pagination,
});

export const ReputationLevelsResponse = z.strictObject({
  status: TRUE,
  levels: z.strictObject({
    member_points: count,
    regular_points: count,
    trusted_points: count,
  }),
});

export const ReputationLevelsSavedResponse = z.strictObject({
  ...message,
  levels: ReputationLevelsResponse.shape.levels,
});
