import type { DbOrTx } from "../../../db/index.ts";
import { recountComments } from "../post-counters.ts";
import * as repo from "./console-repository.ts";
import type { LockedComment } from "./console-repository.ts";

/** What became of one removed comment. */
export interface RemovedComment {
  comment: LockedComment;
  /** Its direct replies when it was removed: with any, it stays as a placeholder. */
  replies: number;
}

/**
 * Locks the posts of these comments, then the comments (the order in which a new comment locks
 * its post), and returns the comments found.
 */
export async function lockCommentsForRemoval(tx: DbOrTx, ids: number[]) {
  if (ids.length === 0) return new Map<number, LockedComment>();
  await repo.lockPostsById(tx, await repo.findPostIdsOf(tx, ids));
  const rows = await repo.lockComments(tx, ids);
  return new Map(rows.map((row) => [row.id, row]));
}

/**
 * Deletes locked comments for good, the one way staff and a member deleting their account do it:
 * a comment without replies goes entirely; one with replies loses its text and author but keeps
 * its place ("This comment was deleted."), so the replies — other people's words — keep their
 * thread. Placeholders left without replies are removed too, the posts' comment counts are
 * counted again and the comments' open reports settled ("deleted", by `resolvedBy`).
 * Returns each comment with its replies, in the order removed, and the placeholders kept.
 */
export async function removeLockedComments(
  tx: DbOrTx,
  found: Map<number, LockedComment>,
  options: { at: Date; resolvedBy: number | null },
): Promise<{ removed: RemovedComment[]; placeholders: number[] }> {
  const ids = [...found.keys()];
  if (ids.length === 0) return { removed: [], placeholders: [] };
  const removed: RemovedComment[] = [];
  const blanked: number[] = [];
  // Replies before the comments they answer, so a thread deleted whole leaves nothing.
  for (const id of [...ids].sort((a, b) => b - a)) {
    const replies = await repo.countReplies(tx, id);
    if (replies > 0) {
      await repo.blankComment(tx, id, options.at);
      blanked.push(id);
    } else {
      await repo.deleteComment(tx, id);
    }
    removed.push({ comment: found.get(id)!, replies });
  }
  const postIds = [...new Set([...found.values()].map((comment) => comment.post_id))];
  await repo.prunePlaceholders(tx, postIds);
  await recountComments(tx, postIds);
  await repo.resolveReportsOfDeleted(tx, ids, options.resolvedBy, options.at);
  const kept = await repo.existingCommentIds(tx, blanked);
  return { removed, placeholders: blanked.filter((id) => kept.has(id)) };
}

/**
 * Every comment and reply of one member, removed as staff remove comments (above), inside the
 * caller's transaction: for a member who deletes their account with their posts.
 */
export async function removeCommentsOfAuthor(tx: DbOrTx, userId: number, at: Date) {
  const ids = await repo.findCommentIdsOfAuthor(tx, userId);
  const found = await lockCommentsForRemoval(tx, ids);
  return removeLockedComments(tx, found, { at, resolvedBy: null });
}
