import { recordAudit } from "../audit/audit-trail.ts";
import { requireRole } from "../auth/policy.ts";
import type { CurrentUser } from "../auth/sessions.ts";
import type { Deps } from "../deps.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { adjustPostCounters } from "../posts/post-counters.ts";
import type { CommentStatus, PostStatus } from "../../db/schema.ts";
import type { DbOrTx } from "../../db/index.ts";
import {
  lockCommentForModeration,
  lockPostForModeration,
  setCommentStatus,
  setPostStatus,
} from "./repository.ts";
import type { ModerateInput } from "./schema.ts";

/** The status each action leaves an item in: restore makes it public again. */
const STATUS_AFTER = { hide: "hidden", restore: "active", remove: "removed" } as const;

export interface ModerationOutcome {
  item_type: ModerateInput["item_type"];
  item_id: string;
  status: PostStatus | CommentStatus;
}

/**
 * Hides, restores or removes one item inside the caller's transaction, with its audit entry.
 * Public visibility follows from the status alone (only "active" is public); the caller emits the
 * change after commit.
 */
export async function applyModeration(
  tx: DbOrTx,
  actor: CurrentUser,
  input: ModerateInput,
): Promise<ModerationOutcome & { topic: "posts" | "comments" | "users" }> {
  const status = STATUS_AFTER[input.action];
  if (input.item_type === "d" || input.item_type === "g") {
    const post = await lockPostForModeration(tx, input.item_id, input.item_type);
    if (!post) throw new NotFoundError("That post does not exist.");
    await setPostStatus(tx, post.id, status, input.action === "restore" ? "" : input.reason);
    await recordAudit(tx, actor, {
      action: `post.${input.action}`,
      itemType: input.item_type,
      itemId: post.unique_id,
      reason: input.reason,
      before: { status: post.status },
      after: { status },
    });
    return { item_type: input.item_type, item_id: post.unique_id, status, topic: "posts" };
  }
  if (input.item_type === "comment") {
    const id = Number(input.item_id);
    const comment = Number.isSafeInteger(id) ? await lockCommentForModeration(tx, id) : undefined;
    if (!comment) throw new NotFoundError("That comment does not exist.");
    const wasPublic = comment.status === "active";
    const isPublic = status === "active";
    await setCommentStatus(tx, comment.id, status);
    // comments_count counts what the public sees.
    if (wasPublic !== isPublic) {
      await adjustPostCounters(tx, comment.post_id, { comments: isPublic ? 1 : -1 });
    }
    await recordAudit(tx, actor, {
      action: `comment.${input.action}`,
      itemType: "comment",
      itemId: comment.id,
      reason: input.reason,
      before: { status: comment.status },
      after: { status },
    });
    return { item_type: "comment", item_id: String(comment.id), status, topic: "comments" };
  }
  throw new ValidationError({
    action: "A user is moderated by suspending them (POST /api/admin/suspend).",
  });
}

export function createModerationService(deps: Deps) {
  const { db, changes } = deps;
  return {
    /** `POST /api/admin/moderate`: one item hidden, restored or removed by a moderator. */
    async moderate(user: CurrentUser | null, input: ModerateInput): Promise<ModerationOutcome> {
      const actor = requireRole(user, "moderator");
      const { topic, ...outcome } = await db
        .transaction()
        .execute((tx) => applyModeration(tx, actor, input));
      changes.emit(topic);
      return outcome;
    },
  };
}

export type ModerationService = ReturnType<typeof createModerationService>;
