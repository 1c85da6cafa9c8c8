import { URL_IN_TEXT } from "../content/url-in-text.ts";
import { LEVELS, type Level } from "../people/reputation/levels.ts";

/**
 * Newcomers' links (docs/decisions/0089-newcomer-links.md): the rules, their settings and every
 * sentence that tells a member about them. Pure, free of the query builder, so that the help page
 * and the tests read the very words the refusals use.
 *
 * A member is a newcomer for these rules while BOTH hold: their level is below the ending level,
 * and they have fewer approved (public) posts than the number. Reaching either ends it. A
 * newcomer's new post that carries a link waits for a moderator's review, and their descriptions
 * and comments carry at most the cap of links.
 */

/** The levels that may end the newcomer rules (Newcomer would end nothing). */
export const ENDING_LEVELS = LEVELS.filter((level) => level !== "Newcomer") as Exclude<
  Level,
  "Newcomer"
>[];
export type EndingLevel = (typeof ENDING_LEVELS)[number];

export interface NewcomerRules {
  /** Approved posts that end the rules; 0: nobody is a newcomer (no holds, no caps). */
  linkPosts: number;
  /** The level that ends the rules. */
  untilLevel: EndingLevel;
  /** The most links a newcomer's description or comment may carry. */
  linkCap: number;
}

/** As migration 036 sets them. */
export const DEFAULT_NEWCOMER_RULES: NewcomerRules = {
  linkPosts: 2,
  untilLevel: "Member",
  linkCap: 1,
};

/** The upper bound of both numbers, as the settings' check constraints have it. */
export const NEWCOMER_LIMIT = 100;

export function isEndingLevel(value: string): value is EndingLevel {
  return (ENDING_LEVELS as readonly string[]).includes(value);
}

/** The rules of a general-settings row (migration 036), the defaults when there is none. */
export function newcomerRulesOf(
  row:
    | { newcomer_link_posts: number; newcomer_until_level: string; newcomer_link_cap: number }
    | undefined
    | null,
): NewcomerRules {
  if (!row) return DEFAULT_NEWCOMER_RULES;
  return {
    linkPosts: row.newcomer_link_posts,
    // The column's check allows only the ending levels; anything else reads as the default.
    untilLevel: isEndingLevel(row.newcomer_until_level)
      ? row.newcomer_until_level
      : DEFAULT_NEWCOMER_RULES.untilLevel,
    linkCap: row.newcomer_link_cap,
  };
}

/** Whether a member at `level` with `approvedPosts` public posts is a newcomer for these rules. */
export function isNewcomer(rules: NewcomerRules, level: Level, approvedPosts: number): boolean {
  if (rules.linkPosts <= 0) return false;
  return (
    LEVELS.indexOf(level) < LEVELS.indexOf(rules.untilLevel) && approvedPosts < rules.linkPosts
  );
}

const ANCHOR = /<a\s[^>]*?href\s*=\s*(?:"[^"]*"|'[^']*')[^>]*>[\s\S]*?<\/a>/gi;

/**
 * The links of a sanitised HTML fragment: its anchors, and the bare http(s) addresses in its text
 * outside them (a reader's browser does not follow those, but a reader copies them, and they are
 * what a spammer would paste).
 */
export function countLinks(html: string): number {
  const anchors = html.match(ANCHOR)?.length ?? 0;
  const rest = html.replace(ANCHOR, " ").replace(/<[^>]*>/g, " ");
  return anchors + (rest.match(URL_IN_TEXT)?.length ?? 0);
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "after 2 approved posts or on reaching the Member level": what ends the rules. */
export function newcomerEnds(rules: NewcomerRules): string {
  return `after ${plural(rules.linkPosts, "approved post", "approved posts")} or on reaching the ${rules.untilLevel} level`;
}

/** What the author of a post held for its link is told, with the post's success message. */
export function heldForLinkMessage(rules: NewcomerRules): string {
  return (
    "Your post has a link, so it waits for a moderator's review; until then only you can see it. " +
    `New members' posts with links are checked: members can post links without review ${newcomerEnds(rules)}.`
  );
}

export type LinkPlace = "comment" | "description";

/** The refusal of a newcomer's description or comment with more links than the cap. */
export function linkCapMessage(rules: NewcomerRules, place: LinkPlace): string {
  const cap =
    rules.linkCap === 0
      ? `New members cannot put links in a ${place}.`
      : `New members can put at most ${plural(rules.linkCap, "link", "links")} in a ${place}.`;
  return `${cap} Members can post more links ${newcomerEnds(rules)}.`;
}

/** The rules as the help page states them, one sentence each; none when they are off. */
export function newcomerRuleTexts(rules: NewcomerRules): string[] {
  if (rules.linkPosts <= 0) return [];
  return [
    `You are a new member until you have ${plural(rules.linkPosts, "approved post", "approved posts")} or reach the ${rules.untilLevel} level.`,
    "A new member's deal or discussion with a link (the deal's link, or a link in its description) waits for a moderator's review before it is public. You see it in My Account, marked “Waiting for review”.",
    rules.linkCap === 0
      ? "A new member's descriptions and comments cannot carry links."
      : `A new member's description or comment can carry at most ${plural(rules.linkCap, "link", "links")}.`,
  ];
}
