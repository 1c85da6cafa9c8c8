import { randomBytes } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database } from "../../../db/schema.ts";
import { signInKey } from "../../auth/sign-in-attempts.ts";
import type { Deps } from "../../deps.ts";
import { deleteJobsNotRunning } from "../../jobs/queue.ts";
import { sendMailJob } from "../../mail/queue.ts";
import { releaseUserImage } from "../../media/images.ts";
import { removeCommentsOfAuthor } from "../../posts/comments/comment-removal.ts";
import { removePostsOfAuthor, type PostImage } from "../../posts/post-removal.ts";
import {
  anonymiseUser,
  deleteAddressRows,
  deleteMemberRows,
  lockAccountForDeletion,
} from "./repository.ts";

export interface AccountDeletionOptions {
  /**
   * Their deals, discussions and comments go too (the member's choice at deletion), removed as
   * staff remove them; without it they stay, shown as by "Deleted user".
   */
  removePosts?: boolean;
}

/**
 * Deleting an account (docs/decisions/0014-account-deletion.md): the one piece of logic behind a
 * member's own deletion and an administrator's. Every row that is the person's own goes and the
 * users row stays as an anonymous "Deleted user", in one transaction; `inTransaction` runs first
 * inside it (the console checks and locks the account and writes its audit entry there, so all or
 * nothing is written). Mail to their address not sent yet is taken back in the same transaction
 * (and sent mail pg-boss still keeps is forgotten). After the commit, every cache that showed the name, the picture, their votes or
 * their posts drops them, and uploaded pictures nothing shows any more are removed.
 */
export async function deleteAccount(
  deps: Pick<Deps, "db" | "changes" | "now" | "media" | "log" | "jobs">,
  userId: number,
  inTransaction?: (tx: Transaction<Database>) => Promise<void>,
  options: AccountDeletionOptions = {},
): Promise<void> {
  const at = deps.now();
  const tombstone = `deleted-user-${userId}-${randomBytes(6).toString("hex")}`;
  const removePosts = options.removePosts ?? false;
  const { avatarUrl, postImages } = await deps.db.transaction().execute(async (tx) => {
    await inTransaction?.(tx);
    const member = await lockAccountForDeletion(tx, userId);
    if (!member) return { avatarUrl: null, postImages: [] as PostImage[] };
    let postImages: PostImage[] = [];
    if (removePosts) {
      // Posts first (their comments, anyone's, go with them), then comments on others' posts.
      postImages = (await removePostsOfAuthor(tx, userId, at)).images;
      await removeCommentsOfAuthor(tx, userId, at);
    }
    await deleteMemberRows(tx, member, { commentsRemoved: removePosts, at });
    await deleteAddressRows(tx, member.email, signInKey(member.email));
    await deleteJobsNotRunning(tx, deps.jobs.schema, sendMailJob, {
      field: "to",
      value: member.email,
    });
    await anonymiseUser(tx, userId, at, tombstone);
    return { avatarUrl: member.image_url, postImages };
  });
  // Cards showed the name and picture; their likes, marks and answers are gone from the counts.
  deps.changes.emit("users");
  deps.changes.emit("reactions");
  deps.changes.emit("posts");
  if (removePosts) deps.changes.emit("comments");
  await releaseUserImage(deps, userId, avatarUrl);
  for (const image of postImages) await releaseUserImage(deps, image.userId, image.url);
}
