import { htmlToText } from "../content/sanitize.ts";
import { postPath } from "../posts/paths.ts";
import { excerpt } from "../seo/text.ts";
import type { ReportItemType } from "../../db/schema.ts";
import type {
  findCommentsByIds,
  findHeldPosts,
  findPostsByUniqueIds,
  findReportNotes,
  findReportReasons,
  findUsersByIds,
  ReportGroupRow,
} from "./repository.ts";

type Rows<F extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<F>>;
type PostRow = Rows<typeof findPostsByUniqueIds>[number];
type CommentRow = Rows<typeof findCommentsByIds>[number];
type UserRow = Rows<typeof findUsersByIds>[number];

/** What the queue shows of an item's state: a post's or comment's status, or an account's. */
export type QueueItemStatus =
  "active" | "pending" | "hidden" | "removed" | "deleted" | "suspended" | "missing";

const EXCERPT_LENGTH = 140;
/** Who a report of the site's own (no reporter: the link check) is shown as. */
export const SITE_REPORTER = "the site's automatic check";

/** The item a group of reports is about, as the queue shows it. */
interface QueueItem {
  title: string;
  excerpt: string;
  /** The public address of the item (for moderators it opens even when not public). */
  link: string;
  item_status: QueueItemStatus;
  author: { id: number; name: string } | null;
}

const author = (id: number | null, name: string | null) =>
  id === null ? null : { id, name: name ?? "" };

function postItem(post: PostRow | undefined): QueueItem | null {
  if (!post) return null;
  return {
    title: post.title,
    excerpt: excerpt(post.description_text, EXCERPT_LENGTH),
    link: postPath(post),
    item_status: post.status,
    author: author(post.user_id, post.user_name),
  };
}

function commentItem(comment: CommentRow | undefined): QueueItem | null {
  if (!comment) return null;
  return {
    title: `Comment on “${comment.post_title}”`,
    excerpt: excerpt(htmlToText(comment.body), EXCERPT_LENGTH),
    link: `${postPath({ post_type: comment.post_type, unique_id: comment.post_unique_id, slug: comment.post_slug })}#comment-${comment.id}`,
    item_status: comment.deleted_at ? "deleted" : comment.status,
    author: author(comment.user_id, comment.user_name),
  };
}

function userItem(user: UserRow | undefined, now: Date): QueueItem | null {
  if (!user) return null;
  const suspended =
    user.suspended_at !== null && (user.suspended_until === null || user.suspended_until > now);
  return {
    title: user.name,
    excerpt: excerpt(user.biography, EXCERPT_LENGTH),
    link: `/profile/${user.id}`,
    item_status: user.deleted_at ? "deleted" : suspended ? "suspended" : "active",
    author: null,
  };
}

const MISSING: QueueItem = {
  title: "(no longer exists)",
  excerpt: "",
  link: "",
  item_status: "missing",
  author: null,
};

const keyOf = (type: ReportItemType, id: string) => `${type}:${id}`;

/** The queue's reported items: each group of open reports with its item, reasons and notes. */
export function presentReportGroups(
  groups: ReportGroupRow[],
  rows: {
    reasons: Rows<typeof findReportReasons>;
    notes: Rows<typeof findReportNotes>;
    posts: PostRow[];
    comments: CommentRow[];
    users: UserRow[];
  },
  now: Date,
) {
  const posts = new Map(rows.posts.map((p) => [keyOf(p.post_type, p.unique_id), p]));
  const comments = new Map(rows.comments.map((c) => [String(c.id), c]));
  const users = new Map(rows.users.map((u) => [String(u.id), u]));
  return groups.map((group) => {
    const key = keyOf(group.item_type, group.item_id);
    const item =
      group.item_type === "comment"
        ? commentItem(comments.get(group.item_id))
        : group.item_type === "user"
          ? userItem(users.get(group.item_id), now)
          : postItem(posts.get(key));
    return {
      item_type: group.item_type,
      item_id: group.item_id,
      ...(item ?? MISSING),
      reports: group.reports,
      reasons: rows.reasons
        .filter((r) => keyOf(r.item_type, r.item_id) === key)
        .map((r) => ({ reason: r.reason, count: r.count })),
      notes: rows.notes
        .filter((n) => keyOf(n.item_type, n.item_id) === key)
        .map((n) => ({
          note: n.note,
          reason: n.reason,
          reporter_name: n.reporter_id === null ? SITE_REPORTER : (n.reporter_name ?? ""),
          created_at: new Date(n.created_at).toISOString(),
        })),
      first_reported_at: new Date(group.first_reported_at).toISOString(),
      last_reported_at: new Date(group.last_reported_at).toISOString(),
    };
  });
}

export type ReportGroup = ReturnType<typeof presentReportGroups>[number];

/** Posts held for review, as the queue's second section shows them. */
export function presentHeldPosts(rows: Rows<typeof findHeldPosts>) {
  return rows.map((post) => ({
    unique_id: post.unique_id,
    post_type: post.post_type,
    title: post.title,
    excerpt: excerpt(post.description_text, EXCERPT_LENGTH),
    link: postPath(post),
    author:
      post.user_id === null
        ? null
        : {
            id: post.user_id,
            name: post.user_name ?? "",
            joined_at: post.user_joined_at ? new Date(post.user_joined_at).toISOString() : "",
          },
    created_at: post.created_at.toISOString(),
  }));
}

export type HeldPost = ReturnType<typeof presentHeldPosts>[number];

/** `POST /api/admin/moderate`: what was done, in words, and the item's new status. */
export function presentModeration(
  outcome: {
    item_type: ReportItemType;
    item_id: string;
    status: "active" | "pending" | "hidden" | "removed";
  },
  action: "hide" | "restore" | "remove",
) {
  const message =
    outcome.item_type === "user"
      ? "The reports on this member were dismissed, and the reporters were told."
      : action === "hide"
        ? "Hidden: only its author and moderators can see it until it is restored or removed."
        : action === "remove"
          ? "Removed: its reports are closed, and the people concerned were told."
          : "Restored: it is public, its reports are closed, and the people concerned were told.";
  return { status: "true", message, response: outcome };
}
