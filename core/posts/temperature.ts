/**
 * A post's temperature: the degree badge of every card and of the deal page, and the order of
 * Trending (docs/decisions/0008-trending-score.md, "Temperature").
 *
 *     temperature = DEGREES_PER_VOTE · ((likes − damped likes) − (unlikes − damped unlikes)
 *                                       + (1 − UNREASONED_UNLIKE_WEIGHT) · unreasoned unlikes
 *                                       + weight bonus / 2)
 *
 * Each thumbs up warms a post by 10°, each thumbs down with a reason cools it by as much, and one
 * without a reason by half as much (record 0086); beyond two votes of one kind from one address
 * on one day (migration 011's damping) a vote moves nothing, so several accounts on one connection
 * cannot make a deal look hot. A vote counts as many votes as its voter's level weighs when it was
 * cast (voteWeightOf, record 0090): the weight bonus, in half votes, is what the counted votes'
 * weights add beyond one each. The like and unlike counts shown beside it stay the plain counts,
 * which are never negative; only the temperature can go below zero.
 */
export const DEGREES_PER_VOTE = 10;

/**
 * What a cold vote without a reason weighs against one with a reason (record 0086). It still
 * counts, since the spec's clients send no reason; but a reason makes a cold vote something the
 * poster and moderators can act on (expired, repost, wrong price), and a bare thumbs down costs
 * nothing to give, so it moves the temperature half as much (5°). Migration 034's index
 * posts_heat_idx and core/posts/temperature-sql.ts count in half votes for this weight: a
 * different one needs a migration that rebuilds that index.
 */
export const UNREASONED_UNLIKE_WEIGHT = 0.5;

/** At or above: a warm deal (5 net votes). */
export const WARM_DEGREES = 50;
/** At or above: a hot deal (10 net votes). */
export const HOT_DEGREES = 100;

export type Heat = "cold" | "mild" | "warm" | "hot";

export interface VoteCounts {
  likes_count: number;
  unlikes_count: number;
  damped_likes: number;
  damped_unlikes: number;
  /** Of the unlikes that count (not damped), those without a reason (migration 034). */
  unreasoned_unlikes: number;
  /**
   * What the counted votes' weights add beyond one vote each, in half votes (migration 037): a
   * like of weight w adds 2·(w − 1), a reasoned unlike −2·(w − 1), an unreasoned one −(w − 1).
   */
  weight_bonus: number;
}

/**
 * Net votes that count: likes minus unlikes, damped votes left out, an unlike without a reason
 * weighing UNREASONED_UNLIKE_WEIGHT, each vote as many as its weight (record 0090).
 */
export function netVotes(counts: VoteCounts): number {
  return (
    counts.likes_count -
    counts.damped_likes -
    (counts.unlikes_count - counts.damped_unlikes) +
    (1 - UNREASONED_UNLIKE_WEIGHT) * counts.unreasoned_unlikes +
    counts.weight_bonus / 2
  );
}

/** The temperature in whole degrees. */
export function temperatureOf(counts: VoteCounts): number {
  return Math.round(DEGREES_PER_VOTE * netVotes(counts));
}

/** The badge's band: cold below zero, warm and hot from their thresholds, mild between. */
export function heatOf(degrees: number): Heat {
  if (degrees < 0) return "cold";
  if (degrees >= HOT_DEGREES) return "hot";
  if (degrees >= WARM_DEGREES) return "warm";
  return "mild";
}

/** A vote as it weighs: a like, or an unlike with or without a reason. */
export type WeighedVote = "like" | "unlike" | "reasoned-unlike" | null;

/**
 * The temperature after the viewer's vote changes from `from` to `to` (either may be none), as
 * the server counts it when the votes are not damped: `from` weighs what it was cast with
 * (`fromWeight`), `to` what the viewer's level weighs now (`toWeight`, voteWeightOf), since a
 * changed vote is cast again (record 0090).
 */
export function temperatureAfterVote(
  degrees: number,
  from: WeighedVote,
  to: WeighedVote,
  fromWeight = 1,
  toWeight = 1,
): number {
  const votes = (vote: WeighedVote) =>
    vote === "like"
      ? 1
      : vote === "reasoned-unlike"
        ? -1
        : vote === "unlike"
          ? -UNREASONED_UNLIKE_WEIGHT
          : 0;
  return Math.round(degrees + DEGREES_PER_VOTE * (toWeight * votes(to) - fromWeight * votes(from)));
}
