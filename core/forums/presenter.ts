import type { ForumRow } from "./repository.ts";

/** Where a forum's VISIT FORUM button leads: the educators' table, or the new-deals listing. */
export function forumPath(type: "g" | "d"): string {
  return type === "g" ? "/educator" : "/newdeals";
}

/** One entry of `froum_list` (the spec's spelling). */
export function presentForum(row: ForumRow, posts: number) {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    posts,
    detail: row.detail,
    type: row.type,
    path: forumPath(row.type),
  };
}

export type Forum = ReturnType<typeof presentForum>;

/** `GET /api/forums`. */
export function presentForumList(forums: Forum[]) {
  return { status: "true", froum_list: forums };
}
