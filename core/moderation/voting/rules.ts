/**
 * Vote integrity's rules (docs/decisions/0091-vote-integrity.md), in one place: the serial-voting
 * job's thresholds and how long warnings and blocks count. `VOTING_RULES` says them in words to
 * the members they apply to (My Account), from these same numbers.
 */

/** (a) One member's votes of one direction on one poster's posts within the window... */
export const SERIAL_POSTS_BY_ONE_POSTER = 5;
/** (b) ...or this many accounts younger than NEW_ACCOUNT_DAYS voting one way on one post from one network. */
export const NEW_ACCOUNTS_ON_ONE_NETWORK = 3;
export const NEW_ACCOUNT_DAYS = 7;
/** The window both findings look at: votes cast in the last 24 hours. */
export const FINDING_WINDOW_HOURS = 24;

/** A block needs a warning given at most this many days before it. */
export const WARNING_COUNTS_DAYS = 180;
/** A block ends at most this many days after it is placed. */
export const MAX_BLOCK_DAYS = 365;

/** The votes list's page size (console member page and its JSON call). */
export const VOTES_PAGE_SIZE = 25;

/** The rules as members read them (My Account's Voting section). */
export const VOTING_RULES: readonly string[] = [
  `Vote on deals for what they are, not for who posted them: voting the same way on ${SERIAL_POSTS_BY_ONE_POSTER} or more posts by one member within ${FINDING_WINDOW_HOURS} hours is sent to the moderators for a look.`,
  `When ${NEW_ACCOUNTS_ON_ONE_NETWORK} or more accounts younger than ${NEW_ACCOUNT_DAYS} days vote the same way on one post from one network, the moderators are asked to look too.`,
  "A moderator who finds votes unfair first warns the member, saying why. Only after a warning may they block the member's voting, with a reason and an end date; the member is told both.",
];
