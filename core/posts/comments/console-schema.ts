import { z } from "zod";
import { pageNumber, filterChoice, filterText } from "../../list-query.ts";
import { moderationReason } from "../../moderation/schema.ts";

/** The console's comments list and its calls (`/api/admin/comments…`). */

/** "deleted": removed by its author or deleted for good with replies kept (a placeholder). */
export const COMMENT_STATES = ["active", "hidden", "removed", "deleted"] as const;

/** `GET /api/admin/comments` and the /admin/comments page's filters. */
export const CommentListQuery = z.object({
  /** Words of the comment. */
  q: filterText(200, "q"),
  /** The author's id, or part of their name or email address. */
  author: filterText(200, "author"),
  /** The post's unique_id, or part of its title. */
  post: filterText(200, "post"),
  status: filterChoice(COMMENT_STATES, "status"),
  page: pageNumber,
});

export type CommentListInput = z.output<typeof CommentListQuery>;

export const COMMENT_BULK_LIMIT = 100;

const ID_MESSAGE = "ids must be a list of comment ids.";

const commentIds = z
  .array(
    z.preprocess(
      (value) => (typeof value === "string" && /^\d+$/.test(value.trim()) ? Number(value) : value),
      z
        .number({ error: ID_MESSAGE })
        .int(ID_MESSAGE)
        .positive(ID_MESSAGE)
        .max(Number.MAX_SAFE_INTEGER, ID_MESSAGE),
    ),
    { error: ID_MESSAGE },
  )
  .min(1, "Choose at least one comment.")
  .max(COMMENT_BULK_LIMIT, `At most ${COMMENT_BULK_LIMIT} comments at a time.`)
  .transform((ids) => [...new Set(ids)]);

export const COMMENT_ACTIONS = ["hide", "restore", "remove"] as const;

/** `POST /api/admin/comments/bulk`: hide, restore or remove comments, all or nothing. */
export const CommentBulkBody = z.object({
  ids: commentIds,
  action: z.enum(COMMENT_ACTIONS, { error: "action must be one of hide, restore or remove." }),
  reason: moderationReason,
});

export type CommentBulkInput = z.output<typeof CommentBulkBody>;

/** `POST /api/admin/comments/delete`: comments deleted for good (administrators only). */
export const CommentDeleteBody = z.object({ ids: commentIds, reason: moderationReason });

export type CommentDeleteInput = z.output<typeof CommentDeleteBody>;
