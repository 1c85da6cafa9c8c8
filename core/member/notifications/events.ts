import type { DbOrTx } from "../../../db/index.ts";
import { postPath } from "../../posts/paths.ts";
import type { JobQueue } from "../../jobs/queue.ts";
import { queuePushes } from "../push/outbox.ts";
import { notify, type NewNotification } from "./notify.ts";

/**
 * The notifications members' own actions leave for each other: comments and replies, likes, new
 * followers. Each runs inside the action's transaction; nobody is told of their own action, and a
 * deleted account is told nothing.
 */

interface Actor {
  id: number;
  name: string;
}

function postWord(postType: string) {
  return postType === "g" ? "discussion" : "deal";
}

async function livePostAuthor(tx: DbOrTx, postId: number) {
  return tx
    .selectFrom("posts")
    .innerJoin("users", "users.id", "posts.user_id")
    .select(["posts.user_id", "posts.title", "posts.unique_id", "posts.slug", "posts.post_type"])
    .where("posts.id", "=", postId)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
}

async function liveCommentAuthor(tx: DbOrTx, commentId: number) {
  const row = await tx
    .selectFrom("comments")
    .innerJoin("users", "users.id", "comments.user_id")
    .select("comments.user_id")
    .where("comments.id", "=", commentId)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

/**
 * A new comment: a reply tells the comment's author; any comment tells the post's author. With
 * `jobs`, the reply is also pushed to the comment author's devices (docs/decisions/0109-push-alerts.md).
 */
export async function notifyNewComment(
  tx: DbOrTx,
  input: { postId: number; commentId: number; parentId: number | null; actor: Actor },
  jobs?: JobQueue,
) {
  const post = await livePostAuthor(tx, input.postId);
  const link = post ? `${postPath(post)}#comment-${input.commentId}` : "";
  const title = post?.title ?? "";
  const out: NewNotification[] = [];
  const parentAuthor = input.parentId === null ? null : await liveCommentAuthor(tx, input.parentId);
  if (parentAuthor !== null && parentAuthor !== input.actor.id) {
    out.push({
      userId: parentAuthor,
      kind: "comment_reply",
      message: `${input.actor.name} replied to your comment on “${title}”.`,
      link,
      actorId: input.actor.id,
    });
  }
  // The post's author who wrote the comment replied to hears of it once, as a reply.
  if (post?.user_id != null && post.user_id !== input.actor.id && post.user_id !== parentAuthor) {
    out.push({
      userId: post.user_id,
      kind: "post_comment",
      message: `${input.actor.name} commented on your ${postWord(post.post_type)} “${title}”.`,
      link,
      actorId: input.actor.id,
    });
  }
  await notify(tx, out);
  if (!jobs) return;
  await queuePushes(
    jobs,
    tx,
    out
      .filter((n) => n.kind === "comment_reply" && link !== "")
      .map((n) => ({
        userId: n.userId,
        kind: "reply" as const,
        title: `${input.actor.name} replied to your comment`,
        body: `On “${title}”`,
        url: link,
        tag: `comment-${input.parentId}`,
      })),
  );
}

/** A like (not an unlike, not a like taken back): one unread notification per post, updated. */
export async function notifyPostLiked(tx: DbOrTx, input: { postId: number; actor: Actor }) {
  const post = await livePostAuthor(tx, input.postId);
  if (post?.user_id == null || post.user_id === input.actor.id) return;
  const what = `your ${postWord(post.post_type)} “${post.title}”`;
  const { name } = input.actor;
  await notify(tx, [
    {
      userId: post.user_id,
      kind: "post_like",
      message: `${name} liked ${what}.`,
      link: postPath(post),
      actorId: input.actor.id,
      group: {
        key: `post_like:${input.postId}`,
        message: (others) =>
          others === 0
            ? `${name} liked ${what}.`
            : `${name} and ${others} ${others === 1 ? "other" : "others"} liked ${what}.`,
      },
    },
  ]);
}

/** A new follower; following, unfollowing and following again leaves one unread notification. */
export async function notifyNewFollower(tx: DbOrTx, input: { followeeId: number; actor: Actor }) {
  if (input.followeeId === input.actor.id) return;
  const message = `${input.actor.name} started following you.`;
  await notify(tx, [
    {
      userId: input.followeeId,
      kind: "new_follower",
      message,
      link: `/profile/${input.actor.id}`,
      actorId: input.actor.id,
      group: { key: `new_follower:${input.actor.id}`, message: () => message },
    },
  ]);
}
