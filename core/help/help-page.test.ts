import { describe, expect, it } from "vitest";
import { DEFAULT_NEWCOMER_RULES } from "../moderation/newcomer-links.ts";
import { helpPage } from "./help-page.ts";

const facts = {
  points: ["Your deal reached 100°: 10 points"],
  thresholds: { member: 12, regular: 60, trusted: 250 },
  newcomer: DEFAULT_NEWCOMER_RULES,
  holdNewUserPosts: false,
  holdNewUserDays: 7,
};

const section = (page: ReturnType<typeof helpPage>, id: string) =>
  page.sections.find((s) => s.id === id)!;

describe("the help page", () => {
  it("states the levels' thresholds as stored", () => {
    expect(section(helpPage(facts), "levels").table!.rows).toEqual([
      ["Newcomer", "0"],
      ["Member", "12"],
      ["Regular", "60"],
      ["Trusted", "250"],
    ]);
  });

  it("states the vote weight of each level from the privileges module, capped at 3", () => {
    const rows = section(helpPage(facts), "vote-weight").table!.rows;
    expect(rows).toEqual([
      ["Newcomer", "1 vote"],
      ["Member", "1 vote"],
      ["Regular", "2 votes"],
      ["Trusted", "3 votes"],
    ]);
  });

  it("states the newcomer rules with the current settings", () => {
    const items = section(
      helpPage({ ...facts, newcomer: { linkPosts: 3, untilLevel: "Regular", linkCap: 2 } }),
      "privileges",
    ).items;
    expect(items[0]).toBe(
      "You are a new member until you have 3 approved posts or reach the Regular level.",
    );
    expect(items).toContain("A new member's description or comment can carry at most 2 links.");
  });

  it("says posts publish at once when no rule holds them, and states the new-account hold when on", () => {
    const off = section(
      helpPage({ ...facts, newcomer: { ...DEFAULT_NEWCOMER_RULES, linkPosts: 0 } }),
      "privileges",
    );
    expect(off.items[0]).toBe("Every member's posts are published at once.");
    const on = section(
      helpPage({ ...facts, holdNewUserPosts: true, holdNewUserDays: 3 }),
      "privileges",
    );
    expect(on.items).toContain(
      "While a new account is younger than 3 days, its posts wait for a moderator's review until one of them is approved.",
    );
  });

  it("lists the points rules, badges and cold-vote reasons", () => {
    const page = helpPage(facts);
    expect(section(page, "points").items).toEqual(facts.points);
    expect(section(page, "badges").items).toContain("Hot deal: A deal that reached 100°.");
    expect(section(page, "cold-votes").items).toContain("Spam or referral");
  });
});
