import { htmlToText } from "../../content/sanitize.ts";
import { postPath } from "../paths.ts";
import type { ConsoleCommentRow } from "./console-repository.ts";

/** How much of a comment's text the console's list shows. */
export const EXCERPT_LENGTH = 280;

function excerpt(text: string): string {
  return text.length > EXCERPT_LENGTH ? `${text.slice(0, EXCERPT_LENGTH - 1)}…` : text;
}

/** One row of the console's comments list: the text as plain text, never as HTML. */
export function presentConsoleComment(row: ConsoleCommentRow) {
  const authorGone = row.user_id === null || row.user_deleted_at !== null;
  return {
    id: row.id,
    text: excerpt(htmlToText(row.body)),
    status: row.status,
    is_deleted: row.deleted_at !== null,
    created_at: row.created_at.toISOString(),
    parent_id: row.parent_id,
    replies: Number(row.replies ?? 0),
    author:
      row.user_id === null
        ? null
        : { id: row.user_id, name: authorGone ? "Deleted user" : (row.user_name ?? "") },
    post: {
      unique_id: row.post_unique_id,
      post_type: row.post_type,
      title: row.post_title,
      status: row.post_status,
      path: postPath({
        post_type: row.post_type,
        unique_id: row.post_unique_id,
        slug: row.post_slug,
      }),
    },
  };
}

export type ConsoleComment = ReturnType<typeof presentConsoleComment>;

export interface ConsoleCommentsPage {
  comments: ConsoleComment[];
  total: number;
  currentPage: number;
  lastPage: number;
}

/** `GET /api/admin/comments`. */
export function presentConsoleCommentsPage(page: ConsoleCommentsPage) {
  return {
    status: "true",
    response: {
      comments: page.comments,
      pagination: { total: page.total, current_page: page.currentPage, last_page: page.lastPage },
    },
  };
}

const DONE: Record<string, string> = {
  hide: "hidden",
  restore: "restored",
  remove: "removed",
  delete: "deleted",
};

/** `POST /api/admin/comments/bulk` and `/delete`. */
export function presentCommentsResult(result: {
  action: string;
  changed: number[];
  unchanged: number[];
  /** Deletes: the comments kept as "This comment was deleted." because they have replies. */
  placeholders?: number[];
}) {
  const n = result.changed.length;
  const noun = n === 1 ? "comment" : "comments";
  return {
    status: "true",
    message: n
      ? `${n} ${noun} ${DONE[result.action]}.`
      : `Nothing to do: the comments were already ${DONE[result.action]}.`,
    action: result.action,
    changed: result.changed,
    unchanged: result.unchanged,
    ...(result.placeholders ? { placeholders: result.placeholders } : {}),
  };
}
