import type { DbOrTx } from "../../db/index.ts";
import { findModerationSettings, findPosterHistory } from "./repository.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** What the author of a held post is told, beside the call's usual success message. */
export const HELD_FOR_REVIEW =
  "Your post is waiting for review. A moderator will look at it soon; until then only you can see it.";

/**
 * Whether a new post by this member is held for review (status "pending") rather than published:
 * only when the site holds new users' posts (general_settings.hold_new_user_posts), the account is
 * younger than hold_new_user_days days, and none of the member's posts has been published yet. So
 * a new member's first post waits, and so do any they send while it waits; once a moderator
 * approves one, the next ones go live. Call it inside the transaction that inserts the post.
 */
export async function holdsNewPost(tx: DbOrTx, userId: number, now: Date): Promise<boolean> {
  const settings = await findModerationSettings(tx);
  if (!settings.holdNewUserPosts) return false;
  const poster = await findPosterHistory(tx, userId);
  if (!poster || poster.has_public_post) return false;
  return now.getTime() - poster.created_at.getTime() < settings.holdNewUserDays * DAY_MS;
}
