import { formatSuspensionEnd } from "../../core/auth/suspension.ts";
import {
  MemberVotesResponse,
  VotingActionResponse,
} from "../../core/moderation/voting/responses.ts";
import {
  MemberVotesQuery,
  VoteBlockBody,
  VoteUnblockBody,
  VoteWarningBody,
} from "../../core/moderation/voting/schema.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

/** Vote integrity in the console (docs/decisions/0091-vote-integrity.md). */
export const adminVotingApi: ApiModule = async (app, { services }) => {
  const voting = services.votingIntegrity;

  apiRoute(app, {
    method: "GET",
    url: "/admin/users/votes",
    tag: "Console",
    summary:
      "A member's votes on posts, newest first, 25 a page (?user_id=&page=): the post, when, " +
      "like (hot) or unlike (cold) and its reason, and a label of the network it came from; " +
      "and their warnings and voting blocks",
    body: MemberVotesQuery,
    response: MemberVotesResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      ...(await voting.memberVotes(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/users/vote_warning",
    tag: "Console",
    summary:
      "Warns a member about their votes, with a reason they are told (a notification); a voting " +
      "block needs a warning first",
    body: VoteWarningBody,
    response: VotingActionResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      message: "The member has been warned and told why.",
      voting: await voting.warn(request.user, input),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/users/vote_block",
    tag: "Console",
    summary:
      "Blocks a warned member's voting until a date (YYYY-MM-DD or ISO date and time, at most 365 " +
      "days ahead), with a reason they are told; their votes are refused until then",
    body: VoteBlockBody,
    response: VotingActionResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      message: `The member's voting is blocked until ${formatSuspensionEnd(input.until)}.`,
      voting: await voting.block(request.user, input),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/admin/users/vote_unblock",
    tag: "Console",
    summary: "Lifts the block on a member's voting",
    body: VoteUnblockBody,
    response: VotingActionResponse,
    auth: "moderator",
    handler: async ({ input, request }) => ({
      status: "true",
      message: "The member can vote again.",
      voting: await voting.unblock(request.user, input),
    }),
  });
};
