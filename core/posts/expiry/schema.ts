import { z } from "zod";
import { claimedUserId } from "../../people/accounts/schema.ts";
import { uniqueId } from "../schema.ts";

/**
 * Expiry of deals (docs/decisions/0037-deal-expiry.md): members' "Expired?" marks and
 * reopening. The same schemas validate the JSON calls and the deal page's buttons.
 */

/** How many distinct members' marks expire a deal when the settings say nothing else. */
export const DEFAULT_EXPIRY_MARK_THRESHOLD = 3;

export const EXPIRY_MESSAGES = {
  notFound: "That deal does not exist or has been removed.",
  notADeal: "Only deals can be marked expired or reopened; this is a forum post.",
  ownDeal:
    "You posted this deal, so you cannot mark it expired. If it has ended, ask a moderator, or edit its end date.",
  alreadyMarked: "You have already marked this deal as expired. Thank you!",
  alreadyExpired: "This deal has already expired.",
  notExpired: "This deal has not expired, so there is nothing to reopen.",
  reopenForbidden: "Only the member who posted this deal or a moderator can reopen it.",
  marked: "Thanks: your mark is counted.",
  expired: "Thanks: this deal is now marked expired.",
  reopened: "The deal is live again.",
} as const;

/** `POST /api/mark_expired` {unique_id}: the session's member says the deal has ended. */
export const MarkExpiredBody = z.object({
  // Ignored beyond a check: the acting user is the session's (record 0019, identity).
  user_id: claimedUserId,
  unique_id: uniqueId,
});
export type MarkExpiredInput = z.output<typeof MarkExpiredBody>;

/** `POST /api/reopen_deal` {unique_id}: the poster or a moderator makes an expired deal live again. */
export const ReopenDealBody = z.object({
  user_id: claimedUserId,
  unique_id: uniqueId,
});
export type ReopenDealInput = z.output<typeof ReopenDealBody>;

/**
 * The listings' "Hide expired" choice, in the URL (`?expired=hide|show`) and the JSON listing
 * calls (`expired`). Anything else is refused with this message.
 */
export const EXPIRED_CHOICES = ["hide", "show"] as const;
export type ExpiredChoice = (typeof EXPIRED_CHOICES)[number];
export const EXPIRED_CHOICE_MESSAGE = "expired must be 'hide' or 'show'.";

/** Whether a text could be a post's unique_id at all (a page's address can carry anything). */
export function uniqueIdOk(value: string): boolean {
  return uniqueId.safeParse(value).success;
}
