import { z } from "zod";
import { userIdField } from "../../people/roles/schema.ts";
import { parseEndDate, text } from "../../validation.ts";
import { MAX_BLOCK_DAYS, WARNING_COUNTS_DAYS } from "./rules.ts";

/** The console's vote-integrity calls (docs/decisions/0091-vote-integrity.md). */

export const VOTING_MESSAGES = {
  reasonRequired: "Please give a reason: the member is told it.",
  reasonTooLong: "The reason can be at most 500 characters.",
  until: "The end date must be a date such as 2030-01-31.",
  untilRequired: "Please give the end date: a block always ends.",
  untilPast: "The end date must be in the future.",
  untilTooFar: `A block can last at most ${MAX_BLOCK_DAYS} days.`,
  noWarning: `Warn the member first: a block needs a warning given in the last ${WARNING_COUNTS_DAYS} days, so the member knows why before their voting is blocked.`,
  notBlocked: "This member's voting is not blocked.",
  deleted: "This account has been deleted.",
  self: "You cannot warn or block yourself.",
  admin: "Only an administrator can warn or block an administrator.",
} as const;

const M = VOTING_MESSAGES;

const reason = z.preprocess(
  (value) => (value === undefined || value === null ? "" : value),
  text({ multiline: true, error: M.reasonRequired })
    .trim()
    .max(500, M.reasonTooLong)
    .refine((value) => value.length > 0, M.reasonRequired),
);

/** `GET /api/admin/users/votes?user_id=&page=`. */
export const MemberVotesQuery = z.object({
  user_id: userIdField,
  page: z.preprocess(
    (value) => (Array.isArray(value) ? value[0] : value),
    z.coerce.number().int().min(1).max(100_000).catch(1),
  ),
});
export type MemberVotesInput = z.output<typeof MemberVotesQuery>;

/** `POST /api/admin/users/vote_warning` {user_id, reason}. */
export const VoteWarningBody = z.object({ user_id: userIdField, reason });
export type VoteWarningInput = z.output<typeof VoteWarningBody>;

/**
 * A block's end: a date (YYYY-MM-DD: the block ends as that day starts, UTC) or an ISO date and
 * time with its offset. Required. Whether it lies ahead, and not too far, is the service's check.
 */
const blockEnd = z.preprocess(
  (value) => (value === undefined || value === null ? "" : value),
  text({ error: M.until })
    .trim()
    .transform((value, context) => {
      if (!value) {
        context.addIssue({ code: "custom", message: M.untilRequired });
        return z.NEVER;
      }
      const at = parseEndDate(value);
      if (!at) {
        context.addIssue({ code: "custom", message: M.until });
        return z.NEVER;
      }
      return at;
    }),
);

/** `POST /api/admin/users/vote_block` {user_id, reason, until}. */
export const VoteBlockBody = z.object({ user_id: userIdField, reason, until: blockEnd });
export type VoteBlockInput = z.output<typeof VoteBlockBody>;

/** `POST /api/admin/users/vote_unblock` {user_id, reason (optional)}. */
export const VoteUnblockBody = z.object({
  user_id: userIdField,
  reason: z.preprocess(
    (value) => (value === undefined || value === null ? "" : value),
    text({ multiline: true }).trim().max(500, M.reasonTooLong),
  ),
});
export type VoteUnblockInput = z.output<typeof VoteUnblockBody>;
