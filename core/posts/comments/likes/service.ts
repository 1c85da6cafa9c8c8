import { requireActingUser } from "../../../auth/policy.ts";
import type { CurrentUser } from "../../../auth/sessions.ts";
import type { Deps } from "../../../deps.ts";
import { ForbiddenError, NotFoundError } from "../../../errors.ts";
import { assertMayVote } from "../../../moderation/voting/guard.ts";
import * as repo from "./repository.ts";
import { OWN_COMMENT, type CommentLikeInput } from "./schema.ts";

const MESSAGES = {
  liked: "You liked this comment.",
  unliked: "Your like has been removed.",
};

/**
 * Likes on comments and replies (docs/decisions/0092-comment-likes.md): one per member and
 * comment, only on live comments of live posts, never on one's own, and not while the member's
 * voting is blocked. Each like from another member earns the comment's author a point when the
 * reputation job next runs (record 0088).
 */
export function createCommentLikesService({ db, now, changes }: Deps) {
  return {
    /**
     * Likes the comment, or takes the like back; with `liked`, sets that state. The count moves in
     * the same transaction (migration 039's trigger), and the author is marked for the
     * reputation job's next run.
     */
    async toggle(user: CurrentUser | null, { user_id, comment_id, liked }: CommentLikeInput) {
      const actor = requireActingUser(user, user_id);
      const result = await db.transaction().execute(async (trx) => {
        // A like is a vote: a member whose voting is blocked may not give one (record 0091).
        await assertMayVote(trx, actor.id, now());
        const comment = await repo.lockLiveComment(trx, comment_id);
        if (!comment) throw new NotFoundError("This comment no longer exists.");
        if (comment.user_id === actor.id) throw new ForbiddenError(OWN_COMMENT);
        const had = await repo.hasLiked(trx, comment.id, actor.id);
        const next = liked ?? !had;
        if (next === had) return { liked: had, likes: comment.likes_count, changed: false };
        const at = now();
        if (next) await repo.addLike(trx, comment.id, actor.id, at);
        else await repo.removeLike(trx, comment.id, actor.id);
        const likes = await repo.markChanged(trx, comment.id, at);
        return { liked: next, likes, changed: true };
      });
      // The post pages show the count; visitors' pages are cached (core/cache/changes.ts).
      if (result.changed) changes.emit("comments");
      return {
        message: result.liked ? MESSAGES.liked : MESSAGES.unliked,
        liked: result.liked,
        likes: result.likes,
      };
    },
  };
}

export type CommentLikesService = ReturnType<typeof createCommentLikesService>;
