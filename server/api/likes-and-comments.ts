import { AddCommentSchema } from "../../core/posts/comments/schema.ts";
import { CommentLikeResponse } from "../../core/posts/comments/likes/responses.ts";
import { CommentLikeSchema } from "../../core/posts/comments/likes/schema.ts";
import { LikeSchema, MyReactionsSchema } from "../../core/posts/reactions/schema.ts";
import { presentMyReactions, presentReaction } from "../../core/posts/reactions/presenter.ts";
import { RATE_LIMITS, clientAddress } from "../plugins/rate-limit.ts";
import type { ApiModule } from "./route.ts";
import { apiRoute } from "./route.ts";
import { CommentAddedResponse } from "../../core/posts/comments/responses.ts";
import { MyReactionsResponse, ReactionResponse } from "../../core/posts/reactions/responses.ts";

/** Likes and comments on deals and discussions. */
export const likesAndCommentsApi: ApiModule = async (app, { services }) => {
  apiRoute(app, {
    method: "POST",
    url: "/product_like_unlike",
    tag: "Community",
    summary:
      "Likes or unlikes a post (btn_type 'like' or 'unlike'); the same button again takes the " +
      "reaction back. Not in the spec: an unlike may say why (reason: expired, not_a_deal, " +
      "cheaper_elsewhere, repost, spam, wrong_price); one without a reason weighs half in the " +
      "temperature. Answers is_liked (1 like, 2 unlike, -1 none) and the new counts",
    body: LikeSchema,
    response: ReactionResponse,
    auth: true,
    rateLimit: RATE_LIMITS.reaction,
    handler: async ({ input, request }) =>
      presentReaction(
        await services.reactions.toggle(request.user, input, {
          clientAddress: clientAddress(request),
        }),
      ),
  });

  apiRoute(app, {
    method: "POST",
    url: "/my_reactions",
    tag: "Community",
    summary:
      "The signed-in member's reactions to some posts (post_ids, at most 100): is_liked 1 or 2 " +
      "for each post they liked or unliked, others left out; and saved: those of the posts " +
      "they saved. Cards are the same for everyone; the site asks this after they show",
    body: MyReactionsSchema,
    response: MyReactionsResponse,
    auth: true,
    handler: async ({ input, request }) => {
      const [reactions, saved] = await Promise.all([
        services.reactions.mine(request.user, input),
        services.saved.savedAmong(request.user, input.post_ids),
      ]);
      return presentMyReactions(reactions, saved);
    },
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
    rateLimit: RATE_LIMITS.comment,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.comments.add(request.user, input)),
    }),
  });

  apiRoute(app, {
    method: "POST",
    url: "/comment_like",
    tag: "Community",
    summary:
      "Not in the spec (record 0092): likes a live comment or reply of a live post, or takes the " +
      "like back (liked true or false asks for a state instead). Not one's own comment (403). " +
      "Answers liked and the comment's likes",
    body: CommentLikeSchema,
    response: CommentLikeResponse,
    auth: true,
    rateLimit: RATE_LIMITS.commentLike,
    handler: async ({ input, request }) => ({
      status: "true" as const,
      ...(await services.commentLikes.toggle(request.user, input)),
    }),
  });
};
