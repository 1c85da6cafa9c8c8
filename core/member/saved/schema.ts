import { z } from "zod";
import { claimedUserId } from "../../people/accounts/schema.ts";
import { pageNumber } from "../../list-query.ts";
import { uniqueId } from "../../posts/schema.ts";

/**
 * Saved deals (docs/decisions/0043-saved-deals-and-feed.md): a member's own list of
 * deals to come back to. The same schemas validate the JSON calls and the pages' buttons.
 */

/** How many deals one member may keep saved: far more than anyone reads, and a bound on the list. */
export const MAX_SAVED_DEALS = 1000;

export const SAVED_MESSAGES = {
  notFound: "That deal does not exist or has been removed.",
  notADeal: "Only deals can be saved; this is a forum post.",
  saved: "Deal saved. Find it under Saved in your menu.",
  unsaved: "Deal removed from your saved deals.",
  tooMany: `You can keep up to ${MAX_SAVED_DEALS.toLocaleString("en-US")} saved deals. Remove some from Saved first.`,
} as const;

/** `POST /api/save_deal_toggle` {unique_id}: saves the deal, or takes a save back. */
export const SaveDealToggleBody = z.object({
  // Ignored beyond a check: the acting user is the session's (record 0019, identity).
  user_id: claimedUserId,
  unique_id: uniqueId,
});
export type SaveDealToggleInput = z.output<typeof SaveDealToggleBody>;

/** `POST /api/saved_deals` {page}: the member's saved deals, newest saved first. */
export const SavedDealsBody = z.object({
  user_id: claimedUserId,
  page: pageNumber,
});
export type SavedDealsInput = z.output<typeof SavedDealsBody>;
