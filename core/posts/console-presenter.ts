import { postPath } from "./paths.ts";
import { expiryDateOf } from "./submissions/schema.ts";
import type { ConsolePostRow, EditablePost } from "./console-repository.ts";
import { hasEnded } from "./policy.ts";

/** One row of the console's posts list. The author's address stays out of it. */
export function presentConsolePost(row: ConsolePostRow, now: Date) {
  const authorGone = row.user_id === null || row.user_deleted_at !== null;
  return {
    unique_id: row.unique_id,
    post_type: row.post_type,
    kind: row.kind,
    title: row.title,
    path: postPath(row),
    status: row.status,
    moderation_reason: row.moderation_reason,
    is_featured: row.is_featured,
    is_expired: hasEnded(row, now),
    expires_at: row.expires_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    store: row.store_id ? { id: row.store_id, title: row.store_title ?? "" } : null,
    category: row.category_id ? { id: row.category_id, title: row.category_title ?? "" } : null,
    author:
      row.user_id === null
        ? null
        : { id: row.user_id, name: authorGone ? "Deleted user" : (row.user_name ?? "") },
    likes: row.likes_count,
    unlikes: row.unlikes_count,
    comments: row.comments_count,
    views: row.views,
  };
}

export type ConsolePost = ReturnType<typeof presentConsolePost>;

export interface ConsolePostsPage {
  posts: ConsolePost[];
  total: number;
  currentPage: number;
  lastPage: number;
}

/** `GET /api/admin/posts`. */
export function presentConsolePostsPage(page: ConsolePostsPage) {
  return {
    status: "true",
    response: {
      posts: page.posts,
      pagination: { total: page.total, current_page: page.currentPage, last_page: page.lastPage },
    },
  };
}

/** A post as the console's edit form fills its fields: form text, "" for nothing. */
export function presentPostForEdit(post: EditablePost) {
  const text = (value: number | null) => (value === null ? "" : String(value));
  return {
    unique_id: post.unique_id,
    post_type: post.post_type,
    kind: post.kind,
    status: post.status,
    path: postPath(post),
    title: post.title,
    description: post.description,
    price: text(post.price),
    list_price: text(post.list_price),
    discount: text(post.discount),
    link: post.link,
    coupon_code: post.coupon_code,
    store_id: text(post.store_id),
    category_id: text(post.category_id),
    forum_category_id: text(post.forum_category_id),
    expiry: post.expires_at ? expiryDateOf(post.expires_at) : "",
    deal_badge: post.deal_badge,
    is_featured: post.is_featured ? "true" : "false",
  };
}

export type PostForEdit = ReturnType<typeof presentPostForEdit>;

/** `POST /api/admin/posts/update`. */
export function presentPostUpdated(result: {
  changed: string[];
  post: { unique_id: string; post_type: "d" | "g"; slug: string; title: string };
}) {
  return {
    status: "true",
    message: result.changed.length ? "The post has been saved." : "Nothing was changed.",
    changed: result.changed,
    response: {
      unique_id: result.post.unique_id,
      title: result.post.title,
      slug: result.post.slug,
      path: postPath(result.post),
    },
  };
}

export const BULK_DONE: Record<string, string> = {
  feature: "featured",
  unfeature: "no longer featured",
  hide: "hidden",
  restore: "restored",
  remove: "removed",
  expire: "marked expired",
  delete: "deleted",
};

/** `POST /api/admin/posts/bulk` and `/delete`: which posts changed, which were already so. */
export function presentBulkResult(result: {
  action: string;
  changed: string[];
  unchanged: string[];
  removed?: { comments: number; likes: number; views: number };
}) {
  const n = result.changed.length;
  const noun = n === 1 ? "post" : "posts";
  return {
    status: "true",
    message: n
      ? `${n} ${noun} ${BULK_DONE[result.action] ?? result.action}.`
      : `Nothing to do: the posts were already ${BULK_DONE[result.action] ?? result.action}.`,
    action: result.action,
    changed: result.changed,
    unchanged: result.unchanged,
    ...(result.removed ? { removed: result.removed } : {}),
  };
}
