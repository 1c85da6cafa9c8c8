import { describe, expect, it } from "vitest";
import { commentTextToHtml } from "../posts/comments/content.ts";
import {
  DEFAULT_NEWCOMER_RULES,
  countLinks,
  heldForLinkMessage,
  isNewcomer,
  linkCapMessage,
  newcomerRuleTexts,
  newcomerRulesOf,
} from "./newcomer-links.ts";

const rules = DEFAULT_NEWCOMER_RULES;

describe("who is a newcomer", () => {
  it("is a member below the ending level with fewer approved posts than the number", () => {
    expect(isNewcomer(rules, "Newcomer", 0)).toBe(true);
    expect(isNewcomer(rules, "Newcomer", 1)).toBe(true);
  });

  it("ends at the number of approved posts, or at the level, whichever comes first", () => {
    expect(isNewcomer(rules, "Newcomer", 2)).toBe(false);
    expect(isNewcomer(rules, "Member", 0)).toBe(false);
    expect(isNewcomer({ ...rules, untilLevel: "Regular" }, "Member", 0)).toBe(true);
    expect(isNewcomer({ ...rules, untilLevel: "Regular" }, "Regular", 0)).toBe(false);
    expect(isNewcomer({ ...rules, untilLevel: "Trusted" }, "Regular", 1)).toBe(true);
  });

  it("makes nobody a newcomer when the number is 0", () => {
    expect(isNewcomer({ ...rules, linkPosts: 0 }, "Newcomer", 0)).toBe(false);
  });

  it("reads the stored row, and the migration's defaults without one", () => {
    expect(newcomerRulesOf(undefined)).toEqual({ linkPosts: 2, untilLevel: "Member", linkCap: 1 });
    expect(
      newcomerRulesOf({
        newcomer_link_posts: 5,
        newcomer_until_level: "Trusted",
        newcomer_link_cap: 0,
      }),
    ).toEqual({ linkPosts: 5, untilLevel: "Trusted", linkCap: 0 });
  });
});

describe("counting links as the sanitiser writes them", () => {
  it("counts anchors", () => {
    expect(countLinks('<p><a href="https://a.example/x" rel="nofollow">a</a></p>')).toBe(1);
    expect(
      countLinks(
        "<p><a href=\"https://a.example/\">a</a> and <a href='https://b.example/'>b</a></p>",
      ),
    ).toBe(2);
  });

  it("counts bare addresses in the text, and an anchor's own text once", () => {
    expect(countLinks("<p>See https://a.example/deal and http://b.example.</p>")).toBe(2);
    expect(countLinks('<p><a href="https://a.example/">https://a.example/</a></p>')).toBe(1);
    expect(countLinks("<p>No links, only example.com as words.</p>")).toBe(0);
  });

  it("counts a comment's addresses as the comment linkifier makes them links", () => {
    const html = commentTextToHtml("Two shops: https://a.example/x, and https://b.example/y!");
    expect(countLinks(html)).toBe(2);
  });
});

describe("what members are told", () => {
  it("names the thresholds when a post is held", () => {
    expect(heldForLinkMessage(rules)).toBe(
      "Your post has a link, so it waits for a moderator's review; until then only you can see it. New members' posts with links are checked: members can post links without review after 2 approved posts or on reaching the Member level.",
    );
  });

  it("names the cap and the thresholds when links are refused", () => {
    expect(linkCapMessage(rules, "comment")).toBe(
      "New members can put at most 1 link in a comment. Members can post more links after 2 approved posts or on reaching the Member level.",
    );
    expect(linkCapMessage({ linkPosts: 1, untilLevel: "Regular", linkCap: 3 }, "description")).toBe(
      "New members can put at most 3 links in a description. Members can post more links after 1 approved post or on reaching the Regular level.",
    );
    expect(linkCapMessage({ ...rules, linkCap: 0 }, "comment")).toBe(
      "New members cannot put links in a comment. Members can post more links after 2 approved posts or on reaching the Member level.",
    );
  });

  it("states the rules on the help page, and none when they are off", () => {
    expect(newcomerRuleTexts(rules)).toEqual([
      "You are a new member until you have 2 approved posts or reach the Member level.",
      "A new member's deal or discussion with a link (the deal's link, or a link in its description) waits for a moderator's review before it is public. You see it in My Account, marked “Waiting for review”.",
      "A new member's description or comment can carry at most 1 link.",
    ]);
    expect(newcomerRuleTexts({ ...rules, linkPosts: 0 })).toEqual([]);
  });
});
