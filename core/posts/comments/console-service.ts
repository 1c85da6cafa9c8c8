import { recordAudit } from "../../audit/audit-trail.ts";
import type { CurrentUser } from "../../auth/sessions.ts";
import { CONSOLE_PAGE_SIZE } from "../../list-query.ts";
import { lastPage } from "../../constants.ts";
import type { Deps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { applyModeration } from "../../moderation/service.ts";
import type { DbOrTx } from "../../../db/index.ts";
import { requireCommentAction } from "./console-policy.ts";
import { presentConsoleComment, type ConsoleCommentsPage } from "./console-presenter.ts";
import { lockCommentsForRemoval, removeLockedComments } from "./comment-removal.ts";
import * as repo from "./console-repository.ts";
import type { CommentBulkInput, CommentDeleteInput, CommentListInput } from "./console-schema.ts";

/** The status each moderation action leaves a comment in. */
const STATUS_OF = { hide: "hidden", restore: "active", remove: "removed" } as const;

export interface CommentsOutcome {
  action: "hide" | "restore" | "remove" | "delete";
  changed: number[];
  unchanged: number[];
  placeholders?: number[];
}

/**
 * The console's comments: every comment and reply, hidden, restored, removed or deleted by staff.
 * Each call runs in one transaction with its audit entries; a named comment that does not exist
 * refuses the whole call.
 */
export function createConsoleCommentsService({ db, now, changes, jobs }: Deps) {
  /**
   * Locks the posts of the named comments, then the comments (the order in which a new comment
   * locks its post), and refuses the call when one of the ids names no comment.
   */
  async function lockNamed(tx: DbOrTx, ids: number[]) {
    const found = await lockCommentsForRemoval(tx, ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw new NotFoundError(
        `${missing.length === 1 ? "No comment has the id" : "No comments have the ids"} ${missing.join(", ")}. Nothing was changed.`,
      );
    }
    return found;
  }

  return {
    async list(user: CurrentUser | null, query: CommentListInput): Promise<ConsoleCommentsPage> {
      requireCommentAction(user, "list");
      const { page, ...filter } = query;
      const [total, rows] = await Promise.all([
        repo.countComments(db, filter),
        repo.findComments(db, filter, {
          limit: CONSOLE_PAGE_SIZE,
          offset: (page - 1) * CONSOLE_PAGE_SIZE,
        }),
      ]);
      return {
        comments: rows.map(presentConsoleComment),
        total,
        currentPage: page,
        lastPage: lastPage(total, CONSOLE_PAGE_SIZE),
      };
    },

    /**
     * Hides, restores or removes comments through the one moderation step (status, the post's
     * comment count, the audit entry). A comment already in that state, or already deleted, is
     * left as it is.
     */
    async bulk(user: CurrentUser | null, input: CommentBulkInput): Promise<CommentsOutcome> {
      const actor = requireCommentAction(user, input.action);
      const outcome = await db.transaction().execute(async (tx) => {
        const found = await lockNamed(tx, input.ids);
        const changed: number[] = [];
        const unchanged: number[] = [];
        for (const id of input.ids) {
          const comment = found.get(id)!;
          if (comment.deleted_at !== null || comment.status === STATUS_OF[input.action]) {
            unchanged.push(id);
            continue;
          }
          await applyModeration(
            tx,
            actor,
            {
              item_type: "comment",
              item_id: String(id),
              action: input.action,
              reason: input.reason,
            },
            jobs,
          );
          changed.push(id);
        }
        return { action: input.action, changed, unchanged };
      });
      if (outcome.changed.length) changes.emit("comments");
      return outcome;
    },

    /**
     * Deletes comments for good (administrators). A comment without replies goes entirely; one
     * with replies loses its text and author but keeps its place, shown as "This comment was
     * deleted.", so the replies — other people's words — keep their thread. Placeholders left
     * without replies are removed too, and the posts' comment counts are counted again.
     */
    async delete(user: CurrentUser | null, input: CommentDeleteInput): Promise<CommentsOutcome> {
      const actor = requireCommentAction(user, "delete");
      const at = now();
      const outcome = await db.transaction().execute(async (tx) => {
        const found = await lockNamed(tx, input.ids);
        const { removed, placeholders } = await removeLockedComments(tx, found, {
          at,
          resolvedBy: actor.id,
        });
        for (const { comment, replies } of removed) {
          // The text is not kept: it may be the very reason for the deletion.
          await recordAudit(tx, actor, {
            action: "comment.delete",
            itemType: "comment",
            itemId: comment.id,
            reason: input.reason,
            before: {
              post: comment.post_unique_id,
              author_id: comment.user_id,
              status: comment.status,
              created_at: comment.created_at.toISOString(),
              replies,
            },
            after: { kept_as_placeholder: replies > 0 },
          });
        }
        const kept = new Set(placeholders);
        return {
          action: "delete" as const,
          changed: input.ids,
          unchanged: [],
          placeholders: input.ids.filter((id) => kept.has(id)),
        };
      });
      changes.emit("comments");
      return outcome;
    },
  };
}

export type ConsoleCommentsService = ReturnType<typeof createConsoleCommentsService>;
