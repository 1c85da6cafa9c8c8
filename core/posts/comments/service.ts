import { requireConfirmedUser } from "../../auth/policy.ts";
import { memberLevel } from "../../people/reputation/member-reputation.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { htmlToText } from "../../content/sanitize.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { isVerifiedEducator } from "../../people/educators/educator-flag.ts";
import { notifyNewComment } from "../../member/notifications/events.ts";
import { presentCommentTree } from "../presenter.ts";
import { adjustPostCounters, lockLivePost } from "../post-counters.ts";
import { assertNewcomerLinkCap } from "../../moderation/holding.ts";
import { commentTextToHtml } from "./content.ts";
import * as repo from "./repository.ts";
import { COMMENT_POSTED, COMMENT_REQUIRED, type AddCommentInput } from "./schema.ts";

/** Comments and replies on deals and discussions. */
export function createCommentsService({ db, now, changes, jobs }: Deps) {
  return {
    /**
     * Posts a comment, or a reply when comment_id names a live comment of the same post. Only
     * confirmed accounts publish (docs/decisions/0013). The post's comment count and trending
     * score change in the same transaction.
     */
    async add(user: CurrentUser | null, fields: AddCommentInput) {
      const author = requireConfirmedUser(user, fields.user_id);
      const body = commentTextToHtml(fields.comment_text);
      if (!htmlToText(body)) throw new ValidationError({ comment_text: COMMENT_REQUIRED });
      // A newcomer's comment carries few links (docs/decisions/0089-newcomer-links.md).
      await assertNewcomerLinkCap(db, author, {
        field: "comment_text",
        html: body,
        place: "comment",
      });

      const { row, postType } = await db.transaction().execute(async (trx) => {
        const post = await lockLivePost(trx, fields.post_id, fields.post_type);
        if (!post) throw new NotFoundError();
        if (fields.comment_id !== undefined) {
          const parent = await repo.findLiveComment(trx, fields.comment_id, post.id);
          if (!parent) throw new NotFoundError("The comment you replied to no longer exists.");
        }
        const inserted = await repo.insertComment(trx, {
          post_id: post.id,
          user_id: author.id,
          parent_id: fields.comment_id ?? null,
          body,
          created_at: now(),
        });
        await adjustPostCounters(trx, post.id, { comments: 1 });
        await notifyNewComment(
          trx,
          {
            postId: post.id,
            commentId: inserted.id,
            parentId: fields.comment_id ?? null,
            actor: author,
          },
          jobs,
        );
        return { row: inserted, postType: post.post_type };
      });
      changes.emit("comments");

      // The new comment in the same shape as the comments of product_details.
      const [comment] = presentCommentTree(
        [
          {
            ...row,
            deleted_at: null,
            user_name: author.name,
            user_image: author.image_url,
            user_deleted_at: null,
            user_verified_educator: await isVerifiedEducator(db, author.id),
            user_level: await memberLevel(db, author.id),
          },
        ],
        postType,
        author,
        // Nobody likes a comment just posted, and its author may not (record 0092).
        new Set(),
      );
      return { message: COMMENT_POSTED, comment: comment! };
    },
  };
}

export type CommentsService = ReturnType<typeof createCommentsService>;
