import type { DbOrTx } from "../../db/index.ts";
import * as repo from "./console-repository.ts";
import type { EditablePost } from "./console-repository.ts";

/** What went with one deleted post. */
export interface RemovedRows {
  comments: number;
  likes: number;
  views: number;
}

/**
 * Deletes locked posts for good, the one way staff and a member deleting their account do it:
 * their comments, likes and views go with them (ON DELETE CASCADE), the open reports of the posts
 * and their comments are settled ("deleted", by `resolvedBy`). The caller has checked the posts
 * may go (the navigation bar's Educators post may not). Returns what each post had, and the
 * uploaded images to let go of after commit (core/media/images.ts releaseUserImage).
 */
export async function removeLockedPosts(
  tx: DbOrTx,
  posts: EditablePost[],
  options: { at: Date; resolvedBy: number | null },
) {
  if (posts.length === 0) {
    return { counts: new Map<number, RemovedRows>(), images: [] as PostImage[] };
  }
  const postIds = posts.map((post) => post.id);
  const commentIds = await repo.findCommentIds(tx, postIds);
  const counts: Map<number, RemovedRows> = await repo.deletePosts(tx, postIds);
  await repo.resolveReportsOfDeleted(
    tx,
    [
      {
        itemType: "d",
        itemIds: posts.filter((p) => p.post_type === "d").map((p) => p.unique_id),
      },
      {
        itemType: "g",
        itemIds: posts.filter((p) => p.post_type === "g").map((p) => p.unique_id),
      },
      { itemType: "comment", itemIds: commentIds.map(String) },
    ],
    options.resolvedBy,
    options.at,
  );
  const images: PostImage[] = posts
    .filter((post) => post.user_id !== null && post.image_url)
    .map((post) => ({ userId: post.user_id!, url: post.image_url }));
  return { counts, images };
}

/** A deleted post's picture, with the member whose upload it may be. */
export interface PostImage {
  userId: number;
  url: string;
}

/**
 * Every post of one member, locked and deleted as staff delete posts (above), inside the caller's
 * transaction: for a member who deletes their account with their posts. The navigation bar's
 * Educators post is kept (staff must choose another before it can go): it stays as the others
 * would, under "Deleted user".
 */
export async function removePostsOfAuthor(tx: DbOrTx, userId: number, at: Date) {
  const educatorPost = await repo.findEducatorPostUniqueId(tx);
  const posts = (await repo.lockPostsOfAuthor(tx, userId)).filter(
    (post) => post.unique_id !== educatorPost,
  );
  const { counts, images } = await removeLockedPosts(tx, posts, { at, resolvedBy: null });
  return { posts: posts.length, counts, images };
}
