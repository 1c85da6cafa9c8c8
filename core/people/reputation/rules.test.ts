import { describe, expect, it } from "vitest";
import {
  BADGES,
  DEFAULT_LEVEL_THRESHOLDS,
  HOT_DEGREES,
  badgeEarnedTimes,
  badgeStandings,
  commentLedger,
  commentLikePoints,
  dealLedger,
  earnedBadgeKeys,
  heatPoints,
  hotDealPoints,
  levelFor,
  numbersOf,
  pointsOf,
  removedLedger,
  removedPostPoints,
  thresholdProblems,
  workingCouponPoints,
  type DealFacts,
} from "./rules.ts";

const day = (n: number) => new Date(Date.UTC(2026, 10, n));
const deal = (postId: number, peakDegrees: number, extra: Partial<DealFacts> = {}): DealFacts => ({
  postId,
  peakDegrees,
  postedAt: day(1),
  hotAt: peakDegrees >= HOT_DEGREES ? day(2) : null,
  workingCouponReports: [],
  ...extra,
});

describe("reputation rules", () => {
  it("heat: nothing up to 20°, then 1 point per 10°, at most 20 per deal", () => {
    expect(heatPoints(-50)).toBe(0);
    expect(heatPoints(0)).toBe(0);
    expect(heatPoints(20)).toBe(0);
    expect(heatPoints(29)).toBe(0);
    expect(heatPoints(30)).toBe(1);
    expect(heatPoints(100)).toBe(8);
    expect(heatPoints(220)).toBe(20);
    expect(heatPoints(5000)).toBe(20);
  });

  it("hot: 10 points once a deal reaches the hot threshold, not before", () => {
    expect(HOT_DEGREES).toBe(100);
    expect(hotDealPoints(90)).toBe(0);
    expect(hotDealPoints(100)).toBe(10);
    expect(hotDealPoints(900)).toBe(10);
  });

  it("likes on comments: 1 point each", () => {
    expect(commentLikePoints(0)).toBe(0);
    expect(commentLikePoints(7)).toBe(7);
    expect(commentLikePoints(-1)).toBe(0);
    const postedAt = new Date("2026-11-02T10:00:00Z");
    expect(commentLedger({ commentId: 1, postId: 9, likes: 0, postedAt })).toEqual([]);
    expect(commentLedger({ commentId: 1, postId: 9, likes: 3, postedAt })).toEqual([
      {
        kind: "comment_likes",
        postId: 9,
        points: 3,
        detail: "3 likes on your comment",
        at: postedAt,
      },
    ]);
    expect(commentLedger({ commentId: 2, postId: 9, likes: 1, postedAt })[0]!.detail).toBe(
      "1 like on your comment",
    );
  });

  it("coupons reported as working: 2 points each for the first 5 members per deal", () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(workingCouponPoints)).toEqual([2, 2, 2, 2, 2, 0, 0]);
    const lines = dealLedger(
      deal(1, 0, { workingCouponReports: [1, 2, 3, 4, 5, 6, 7].map((n) => day(n)) }),
    );
    expect(lines.every((line) => line.kind === "working_coupon")).toBe(true);
    expect(pointsOf(lines)).toBe(10);
  });

  it("a post removed by a moderator costs 15 points, and points never go below zero", () => {
    expect(removedPostPoints()).toBe(-15);
    const lines = [...dealLedger(deal(1, 60)), removedLedger(2, day(3))];
    expect(lines.map((line) => line.points)).toEqual([4, -15]);
    expect(pointsOf(lines)).toBe(0);
  });

  it("a hot deal's ledger explains each line: heat, and reaching hot, dated", () => {
    const lines = dealLedger(deal(7, 140));
    expect(lines).toEqual([
      { kind: "heat", postId: 7, points: 12, detail: "Reached 140°", at: day(1) },
      { kind: "hot", postId: 7, points: 10, detail: "Reached 100°", at: day(2) },
    ]);
  });

  it("fifty deals that all stay under 20° earn no quality badge and no points", () => {
    const deals = Array.from({ length: 50 }, (_, i) => deal(i + 1, i % 20));
    const lines = deals.flatMap(dealLedger);
    expect(pointsOf(lines)).toBe(0);
    expect(earnedBadgeKeys(numbersOf(deals))).toEqual([]);
    expect(levelFor(pointsOf(lines), DEFAULT_LEVEL_THRESHOLDS)).toBe("Newcomer");
  });

  it("levels: Newcomer, Member, Regular, Trusted at their thresholds", () => {
    const t = DEFAULT_LEVEL_THRESHOLDS;
    expect(levelFor(0, t)).toBe("Newcomer");
    expect(levelFor(t.member - 1, t)).toBe("Newcomer");
    expect(levelFor(t.member, t)).toBe("Member");
    expect(levelFor(t.regular, t)).toBe("Regular");
    expect(levelFor(t.trusted, t)).toBe("Trusted");
    expect(levelFor(5, { member: 1, regular: 2, trusted: 3 })).toBe("Trusted");
  });

  it("thresholds must increase from at least 1", () => {
    expect(thresholdProblems(DEFAULT_LEVEL_THRESHOLDS)).toEqual({});
    expect(thresholdProblems({ member: 0, regular: 5, trusted: 5 })).toEqual({
      member: "Member must begin at 1 point or more.",
      trusted: "Trusted must begin at more points than Regular.",
    });
    expect(thresholdProblems({ member: 10, regular: 10, trusted: 20 })).toEqual({
      regular: "Regular must begin at more points than Member.",
    });
  });

  it("badges state their rule and the member's own number against it", () => {
    const deals = [deal(1, 120), deal(2, 100), deal(3, 310), deal(4, 90)];
    const standings = badgeStandings(numbersOf(deals));
    const streak = standings.find((badge) => badge.key === "hot_streak")!;
    expect(streak).toMatchObject({ have: 3, target: 5, earned: false });
    expect(streak.standing).toBe("Hot streak: 5 deals that reached 100° — you have 3");
    expect(earnedBadgeKeys(numbersOf(deals))).toEqual(["hot_deal", "scorcher"]);
    expect(standings.map((badge) => badge.key)).toEqual(BADGES.map((badge) => badge.key));
  });

  it("a badge is earned when the count reached its target", () => {
    const deals = [1, 2, 3, 4, 5, 6].map((n) => deal(n, 150, { hotAt: day(n + 2) }));
    const earned = badgeEarnedTimes(deals, day(30));
    expect(earned.get("hot_deal")).toEqual(day(3));
    expect(earned.get("hot_streak")).toEqual(day(7));
    expect(earned.has("scorcher")).toBe(false);
  });
});
