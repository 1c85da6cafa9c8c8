import type { DbOrTx } from "../../db/index.ts";
import type { UserRole } from "../../db/schema.ts";
import { ValidationError } from "../errors.ts";
import { memberLevel } from "../people/reputation/member-reputation.ts";
import {
  countLinks,
  heldForLinkMessage,
  isNewcomer,
  linkCapMessage,
  type LinkPlace,
  type NewcomerRules,
} from "./newcomer-links.ts";
import { countApprovedPosts, findModerationSettings, findPosterHistory } from "./repository.ts";

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

/** A member as the newcomer rules look at them: staff are never newcomers. */
export interface Poster {
  id: number;
  role: UserRole;
}

/**
 * The newcomer rules as they stand for one member (docs/decisions/0089-newcomer-links.md): the
 * settings, and whether the member is a newcomer by them (below the ending level and with fewer
 * approved posts than the number). Moderators and administrators are not: they review the queue
 * their own posts would wait in.
 */
export async function newcomerStanding(
  db: DbOrTx,
  member: Poster,
): Promise<{ rules: NewcomerRules; newcomer: boolean }> {
  const { newcomer: rules } = await findModerationSettings(db);
  if (rules.linkPosts <= 0 || member.role !== "member") return { rules, newcomer: false };
  const [level, approved] = await Promise.all([
    memberLevel(db, member.id),
    countApprovedPosts(db, member.id, rules.linkPosts),
  ]);
  return { rules, newcomer: isNewcomer(rules, level, approved) };
}

/**
 * Why a new post waits for review, as its author is told, or null when it is published at once:
 * a newcomer's post that carries a link (the deal's link field or a link in its description) is
 * held, and so is a new account's post while the site holds those (holdsNewPost). Call it inside
 * the transaction that inserts the post.
 */
export async function reviewReasonOfNewPost(
  tx: DbOrTx,
  post: { author: Poster; hasLink: boolean },
  now: Date,
): Promise<string | null> {
  if (post.hasLink) {
    const { rules, newcomer } = await newcomerStanding(tx, post.author);
    if (newcomer) return heldForLinkMessage(rules);
  }
  return (await holdsNewPost(tx, post.author.id, now)) ? HELD_FOR_REVIEW : null;
}

/**
 * Refuses (422, on `field`) a newcomer's description or comment, as the sanitiser wrote it, when it
 * carries more links than the newcomer cap; the message names the cap and what ends it.
 */
export async function assertNewcomerLinkCap(
  db: DbOrTx,
  author: Poster,
  content: { field: string; html: string; place: LinkPlace },
): Promise<void> {
  const links = countLinks(content.html);
  if (links === 0) return;
  const { rules, newcomer } = await newcomerStanding(db, author);
  if (newcomer && links > rules.linkCap) {
    throw new ValidationError({ [content.field]: linkCapMessage(rules, content.place) });
  }
}
