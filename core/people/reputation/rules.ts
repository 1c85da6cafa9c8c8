import { HOT_DEGREES } from "../../posts/temperature.ts";

/**
 * Every rule of reputation, in one place (docs/decisions/0088-reputation.md): what earns points,
 * what costs them, the levels and the badges. Pure functions of what a member's posts reached;
 * the recompute job (job.ts) gathers those numbers and writes the ledger these rules return, and
 * the help texts shown to members are the `rule` strings here, so what is said is what is done.
 *
 * Points come from quality, never from volume: a deal earns nothing for being posted, only for the
 * heat members give it, for reaching Hot, and for a coupon members say works.
 */

/** A deal's peak heat earns nothing up to this (two net votes): fifty cold deals earn nothing. */
export const HEAT_FLOOR_DEGREES = 20;
/** One point per this many degrees of peak heat above the floor (one net vote). */
export const HEAT_STEP_DEGREES = 10;
/** No deal earns more heat points than this, so that one runaway deal does not make a member. */
export const HEAT_POINTS_CAP = 20;
/** A deal that reaches the hot threshold (core/posts/temperature.ts) earns this once. */
export const HOT_DEAL_POINTS = 10;
/** Each like on a member's comment. */
export const COMMENT_LIKE_POINTS = 1;
/** Each other member who reports the coupon of a member's deal as working… */
export const WORKING_COUPON_POINTS = 2;
/** …counted for at most this many reports per deal. */
export const WORKING_COUPON_REPORTS_CAP = 5;
/** A post a moderator removed costs this many points. */
export const REMOVED_POST_POINTS = -15;

export { HOT_DEGREES };

/** Points for the highest temperature one deal reached. */
export function heatPoints(peakDegrees: number): number {
  if (peakDegrees <= HEAT_FLOOR_DEGREES) return 0;
  return Math.min(
    HEAT_POINTS_CAP,
    Math.floor((peakDegrees - HEAT_FLOOR_DEGREES) / HEAT_STEP_DEGREES),
  );
}

/** Points for a deal reaching the hot threshold: once, however hot it gets. */
export function hotDealPoints(peakDegrees: number): number {
  return peakDegrees >= HOT_DEGREES ? HOT_DEAL_POINTS : 0;
}

/**
 * Points for likes on one comment from other members (the author's own like never counts; the
 * site refuses it, core/posts/comments/likes).
 */
export function commentLikePoints(likes: number): number {
  return Math.max(0, likes) * COMMENT_LIKE_POINTS;
}

/** Points for the `index`-th (0 first) "worked" report on one deal's coupon. */
export function workingCouponPoints(index: number): number {
  return index >= 0 && index < WORKING_COUPON_REPORTS_CAP ? WORKING_COUPON_POINTS : 0;
}

/** Points for a post a moderator removed. */
export function removedPostPoints(): number {
  return REMOVED_POST_POINTS;
}

/** What a ledger line is for; each kind is one rule above. */
export const LEDGER_KINDS = ["heat", "hot", "comment_likes", "working_coupon", "removed"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** How each kind of line reads to the member, with the rule behind it. */
export const LEDGER_TEXTS: Record<LedgerKind, string> = {
  heat: `Your deal's heat: 1 point per ${HEAT_STEP_DEGREES}° above ${HEAT_FLOOR_DEGREES}°, at most ${HEAT_POINTS_CAP} per deal`,
  hot: `Your deal reached ${HOT_DEGREES}°: ${HOT_DEAL_POINTS} points`,
  comment_likes: `Likes on your comment: ${COMMENT_LIKE_POINTS} point each`,
  working_coupon: `A member said your coupon works: ${WORKING_COUPON_POINTS} points, for up to ${WORKING_COUPON_REPORTS_CAP} members per deal`,
  removed: `A moderator removed your post: ${REMOVED_POST_POINTS} points`,
};

// Levels: in levels.ts (the console's form reads them without the rest) --------------------------

export {
  DEFAULT_LEVEL_THRESHOLDS,
  LEVELS,
  levelFor,
  thresholdProblems,
  type Level,
  type LevelThresholds,
  type ThresholdProblems,
} from "./levels.ts";

// Badges -----------------------------------------------------------------------------------------

/** The numbers badges are judged on, as the recompute job counts them. */
export interface MemberNumbers {
  /** Deals that reached the hot threshold. */
  hotDeals: number;
  /** Deals that reached SCORCHER_DEGREES. */
  scorchingDeals: number;
  /** "Worked" reports from other members on the member's coupons (every one, not only those counted). */
  workingCouponReports: number;
}

export const SCORCHER_DEGREES = 300;

export interface BadgeRule {
  key: string;
  name: string;
  /** How many of `count` earn it. */
  target: number;
  count: keyof MemberNumbers;
  /** The rule in words, with the target. */
  rule: string;
  /** The member's own number against it. */
  progress: (have: number) => string;
}

const youHave = (have: number) => `you have ${have}`;

export const BADGES: readonly BadgeRule[] = [
  {
    key: "hot_deal",
    name: "Hot deal",
    target: 1,
    count: "hotDeals",
    rule: `A deal that reached ${HOT_DEGREES}°`,
    progress: youHave,
  },
  {
    key: "hot_streak",
    name: "Hot streak",
    target: 5,
    count: "hotDeals",
    rule: `5 deals that reached ${HOT_DEGREES}°`,
    progress: youHave,
  },
  {
    key: "scorcher",
    name: "Scorcher",
    target: 1,
    count: "scorchingDeals",
    rule: `A deal that reached ${SCORCHER_DEGREES}°`,
    progress: youHave,
  },
  {
    key: "coupon_finder",
    name: "Coupon finder",
    target: 10,
    count: "workingCouponReports",
    rule: "10 reports from other members that your coupons work",
    progress: youHave,
  },
];

export interface BadgeStanding {
  key: string;
  name: string;
  rule: string;
  /** "Hot streak: 5 deals that reached 100° — you have 3" */
  standing: string;
  have: number;
  target: number;
  earned: boolean;
}

/** Every badge, with the member's own number against its rule. */
export function badgeStandings(numbers: MemberNumbers): BadgeStanding[] {
  return BADGES.map((badge) => {
    const have = numbers[badge.count];
    return {
      key: badge.key,
      name: badge.name,
      rule: badge.rule,
      standing: `${badge.name}: ${badge.rule} — ${badge.progress(have)}`,
      have,
      target: badge.target,
      earned: have >= badge.target,
    };
  });
}

/** The keys of the badges `numbers` earn. */
export function earnedBadgeKeys(numbers: MemberNumbers): string[] {
  return badgeStandings(numbers)
    .filter((badge) => badge.earned)
    .map((badge) => badge.key);
}

export const NO_NUMBERS: MemberNumbers = {
  hotDeals: 0,
  scorchingDeals: 0,
  workingCouponReports: 0,
};

// A member's ledger, from what their posts reached ---------------------------------------------

/** One of the member's deals, as the job reads it. */
export interface DealFacts {
  postId: number;
  /** The highest temperature seen (reputation_post_peaks), at least the current one. */
  peakDegrees: number;
  postedAt: Date;
  /** When it was first seen at or above the hot threshold. */
  hotAt: Date | null;
  /** The times other members reported its coupon as working, oldest first. */
  workingCouponReports: Date[];
}

export interface LedgerLine {
  kind: LedgerKind;
  postId: number | null;
  points: number;
  /** A few words about this line ("Reached 140°"). */
  detail: string;
  at: Date;
}

/** The ledger one deal earns. */
export function dealLedger(deal: DealFacts): LedgerLine[] {
  const lines: LedgerLine[] = [];
  const heat = heatPoints(deal.peakDegrees);
  if (heat > 0) {
    lines.push({
      kind: "heat",
      postId: deal.postId,
      points: heat,
      detail: `Reached ${deal.peakDegrees}°`,
      // Dated when posted: the heat of a deal comes within days of it, and a month's ranking
      // should not move a deal's points to a later month when it warms by one vote.
      at: deal.postedAt,
    });
  }
  const hot = hotDealPoints(deal.peakDegrees);
  if (hot > 0) {
    lines.push({
      kind: "hot",
      postId: deal.postId,
      points: hot,
      detail: `Reached ${HOT_DEGREES}°`,
      at: deal.hotAt ?? deal.postedAt,
    });
  }
  deal.workingCouponReports.forEach((at, index) => {
    const points = workingCouponPoints(index);
    if (points > 0) {
      lines.push({
        kind: "working_coupon",
        postId: deal.postId,
        points,
        detail: "A member said the coupon works",
        at,
      });
    }
  });
  return lines;
}

/** One of the member's live comments on a live post that other members like, as the job reads it. */
export interface CommentFacts {
  commentId: number;
  postId: number;
  /** Likes from other members. */
  likes: number;
  postedAt: Date;
}

/** The ledger line of one liked comment; none for a comment nobody else likes. */
export function commentLedger(comment: CommentFacts): LedgerLine[] {
  const points = commentLikePoints(comment.likes);
  if (points <= 0) return [];
  return [
    {
      kind: "comment_likes",
      postId: comment.postId,
      points,
      detail:
        comment.likes === 1 ? "1 like on your comment" : `${comment.likes} likes on your comment`,
      // Dated when posted, as a deal's heat is: a like does not move the comment to a later month.
      at: comment.postedAt,
    },
  ];
}

/** The ledger line of one post a moderator removed. */
export function removedLedger(postId: number, at: Date): LedgerLine {
  return {
    kind: "removed",
    postId,
    points: removedPostPoints(),
    detail: "Removed by a moderator",
    at,
  };
}

/** A member's points: the sum of their ledger, never below zero. */
export function pointsOf(lines: readonly LedgerLine[]): number {
  return Math.max(
    0,
    lines.reduce((sum, line) => sum + line.points, 0),
  );
}

/** The badge numbers of a member's deals. */
export function numbersOf(deals: readonly DealFacts[]): MemberNumbers {
  return {
    hotDeals: deals.filter((deal) => deal.peakDegrees >= HOT_DEGREES).length,
    scorchingDeals: deals.filter((deal) => deal.peakDegrees >= SCORCHER_DEGREES).length,
    workingCouponReports: deals.reduce((sum, deal) => sum + deal.workingCouponReports.length, 0),
  };
}

/**
 * When each earned badge was earned: the time the member's count reached its target (the hot
 * deals' hotAt, the reports' times), or `fallback` when the times are not known.
 */
export function badgeEarnedTimes(deals: readonly DealFacts[], fallback: Date): Map<string, Date> {
  const byTime = (dates: Date[]) => dates.sort((a, b) => a.getTime() - b.getTime());
  const times: Record<keyof MemberNumbers, Date[]> = {
    hotDeals: byTime(
      deals
        .filter((deal) => deal.peakDegrees >= HOT_DEGREES)
        .map((deal) => deal.hotAt ?? deal.postedAt),
    ),
    scorchingDeals: byTime(
      deals.filter((deal) => deal.peakDegrees >= SCORCHER_DEGREES).map((deal) => deal.postedAt),
    ),
    workingCouponReports: byTime(deals.flatMap((deal) => deal.workingCouponReports)),
  };
  const numbers = numbersOf(deals);
  const earned = new Map<string, Date>();
  for (const badge of BADGES) {
    if (numbers[badge.count] >= badge.target) {
      earned.set(badge.key, times[badge.count][badge.target - 1] ?? fallback);
    }
  }
  return earned;
}
