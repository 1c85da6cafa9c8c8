import type { FastifyRequest } from "fastify";
import { AddCommentSchema } from "../../core/comments/schema.ts";
import { LikeSchema } from "../../core/reactions/schema.ts";
import { presentReaction } from "../../core/reactions/presenter.ts";
import { RATE_LIMITS } from "../plugins/rate-limit.ts";
import { CommentAddedResponse, ReactionResponse } from "./responses.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";

// Comments need a session, so the limit follows the account: a school's shared address is not one
// commenter. Requests without a session are refused anyway and counted by address.
const perAccount = (request: FastifyRequest) =>
  request.user ? `user:${request.user.id}` : `ip:${request.ip}`;

/** Likes and comments on deals and discussions. */
export const communityApi: ApiModule = (app, services) => {
  apiRoute(app, {
    method: "POST",
    url: "/product_like_unlike",
    tag: "Community",
    summary:
      "Likes or unlikes a post (btn_type 'like' or 'unlike'); the same button again takes the " +
      "reaction back. Answers is_liked (1 like, 2 unlike, -1 none) and the new counts",
    body: LikeSchema,
    response: ReactionResponse,
    auth: true,
    handler: async ({ input, request }) =>
      presentReaction(await services.reactions.toggle(request.user, input)),
  });

  apiRoute(app, {
    method: "POST",
    url: "/product_add_comment",
    tag: "Community",
    summary:
      "Posts a comment (comment_id '') or a reply (comment_id of a comment of the same post); " +
      "the text is plain text. Answers 201 with the comment",
    body: AddCommentSchema,
    response: CommentAddedResponse,
    successStatus: 201,
    auth: true,
    rateLimit: { ...RATE_LIMITS.comment, keyGenerator: perAccount },
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.comments.add(request.user, input)),
    }),
  });
};
