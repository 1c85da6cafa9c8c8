import { z } from "zod";
import { COLD_REASONS } from "../../posts/reactions/cold-reasons.ts";
import { TRUE, isoDateTime, message } from "../../responses.ts";

/** The answers of the console's vote-integrity calls (docs/decisions/0091-vote-integrity.md). */

export const VotingRestriction = z.strictObject({
  id: z.number().int(),
  kind: z.enum(["warning", "block"]),
  reason: z.string(),
  created_at: isoDateTime,
  ends_at: isoDateTime.nullable().describe("a block's end; null on a warning"),
  lifted_at: isoDateTime.nullable(),
  in_force: z.boolean().describe("a block not lifted whose end is ahead"),
});

export const VotingStatus = z.strictObject({
  blocked_until: isoDateTime.nullable().describe("the end of the block in force, or null"),
  block_reason: z.string(),
  may_block: z.boolean().describe("a warning was given recently enough for a block"),
  restrictions: z.array(VotingRestriction).describe("warnings and blocks, newest first"),
});

const MemberVote = z.strictObject({
  post: z.strictObject({
    unique_id: z.string(),
    post_type: z.enum(["d", "g"]),
    title: z.string(),
    link: z.string().describe("the post's path"),
    status: z.string(),
    poster_id: z.number().int().nullable(),
    poster_name: z.string(),
  }),
  reaction: z.enum(["like", "unlike"]).describe("like: hot; unlike: cold"),
  reason: z.enum(COLD_REASONS).nullable(),
  created_at: isoDateTime,
  network: z.string().nullable().describe("a label of the voter's network, not the address"),
});

export const MemberVotesResponse = z.strictObject({
  status: TRUE,
  member: z.strictObject({
    id: z.number().int(),
    name: z.string(),
    role: z.enum(["member", "moderator", "admin"]),
    joined: isoDateTime,
    deleted: z.boolean(),
  }),
  voting: VotingStatus,
  votes: z.array(MemberVote),
  page: z.number().int(),
  last_page: z.number().int(),
  total: z.number().int(),
});

export const VotingActionResponse = z.strictObject({ ...message, voting: VotingStatus });
