import { COLD_REASON_LABELS } from "../posts/reactions/cold-reasons.ts";
import { DEGREES_PER_VOTE, UNREASONED_UNLIKE_WEIGHT } from "../posts/temperature.ts";
import { newcomerRuleTexts, type NewcomerRules } from "../moderation/newcomer-links.ts";
import { BADGES } from "../people/reputation/rules.ts";
import type { LevelThresholds } from "../people/reputation/levels.ts";
import { MAX_VOTE_WEIGHT, voteWeightTable } from "../people/reputation/privileges.ts";

/**
 * The help page, /help (docs/decisions/0089-newcomer-links.md): every rule that applies to members,
 * written from the module or setting that applies it (the reputation rules' texts, the levels'
 * thresholds and the newcomer rules as stored, the vote-weight table, the cold-vote reasons), so
 * the page cannot drift from what the site does. Plain text in sections, for a page without
 * client state.
 */

export interface HelpSection {
  /** The section's anchor: /help#privileges. */
  id: string;
  title: string;
  intro?: string;
  items: string[];
  table?: { caption: string; head: string[]; rows: string[][] };
}

export interface HelpFacts {
  /** The reputation rules' texts, as My Account's ledger explains them. */
  points: string[];
  thresholds: LevelThresholds;
  newcomer: NewcomerRules;
  holdNewUserPosts: boolean;
  holdNewUserDays: number;
}

const votes = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

export function helpPage(facts: HelpFacts): { sections: HelpSection[] } {
  const { thresholds } = facts;
  const privileges = newcomerRuleTexts(facts.newcomer);
  if (facts.holdNewUserPosts) {
    privileges.push(
      `While a new account is younger than ${facts.holdNewUserDays} days, its posts wait for a moderator's review until one of them is approved.`,
    );
  }
  if (!privileges.length) privileges.push("Every member's posts are published at once.");
  privileges.push(
    `A vote counts for more as its member's level grows, never for more than ${votes(MAX_VOTE_WEIGHT)}: see “Vote weight”.`,
  );
  return {
    sections: [
      {
        id: "points",
        title: "Reputation points",
        intro:
          "Members earn points when their posts help others, and lose them when a moderator removes a post. My Account lists every line.",
        items: facts.points,
      },
      {
        id: "levels",
        title: "Levels",
        intro: "Your level follows your points.",
        items: [],
        table: {
          caption: "Levels and the points they begin at",
          head: ["Level", "Points"],
          rows: [
            ["Newcomer", "0"],
            ["Member", String(thresholds.member)],
            ["Regular", String(thresholds.regular)],
            ["Trusted", String(thresholds.trusted)],
          ],
        },
      },
      {
        id: "badges",
        title: "Badges",
        intro: "Badges show on your profile once earned.",
        items: BADGES.map((badge) => `${badge.name}: ${badge.rule}.`),
      },
      {
        id: "privileges",
        title: "Privileges by level",
        intro:
          "New members' links are checked, so that spam never reaches the site; every rule below ends on its own as you take part.",
        items: privileges,
      },
      {
        id: "vote-weight",
        title: "Vote weight",
        intro: `A deal's temperature moves ${DEGREES_PER_VOTE}° for each vote, and a member's vote counts as many times as their level says, never more than ${MAX_VOTE_WEIGHT}.`,
        items: [],
        table: {
          caption: "What one vote counts for, by level",
          head: ["Level", "One vote counts as"],
          rows: voteWeightTable().map(({ level, weight }) => [level, votes(weight)]),
        },
      },
      {
        id: "cold-votes",
        title: "Cold votes",
        intro: `When you vote a deal cold, say why: the poster and moderators can act on a reason. A cold vote without one weighs ${UNREASONED_UNLIKE_WEIGHT === 0.5 ? "half" : UNREASONED_UNLIKE_WEIGHT} as much.`,
        items: Object.values(COLD_REASON_LABELS),
      },
    ],
  };
}
