/**
 * A post's temperature: the degree badge of every card and of the deal page, and the order of
 * Trending (docs/decisions/0008-trending-score.md, "Temperature").
 *
 *     temperature = DEGREES_PER_VOTE · ((likes − damped likes) − (unlikes − damped unlikes))
 *
 * Each thumbs up warms a post by 10°, each thumbs down cools it by as much; beyond two votes of one
 * kind from one address on one day (migration 011's damping) a vote moves nothing, so several
 * accounts on one connection cannot make a deal look hot. The like and unlike counts shown beside
 * it stay the plain counts, which are never negative; only the temperature can go below zero.
 */
export const DEGREES_PER_VOTE = 10;

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
}

/** Net votes that count: likes minus unlikes, damped votes left out. */
export function netVotes(counts: VoteCounts): number {
  return counts.likes_count - counts.damped_likes - (counts.unlikes_count - counts.damped_unlikes);
}

/** The temperature in whole degrees. */
export function temperatureOf(counts: VoteCounts): number {
  return DEGREES_PER_VOTE * netVotes(counts);
}

/** The badge's band: cold below zero, warm and hot from their thresholds, mild between. */
export function heatOf(degrees: number): Heat {
  if (degrees < 0) return "cold";
  if (degrees >= HOT_DEGREES) return "hot";
  if (degrees >= WARM_DEGREES) return "warm";
  return "mild";
}

/** The temperature after the viewer's reaction changes from `from` to `to` (either may be none). */
export function temperatureAfterVote(
  degrees: number,
  from: "like" | "unlike" | null,
  to: "like" | "unlike" | null,
): number {
  const weight = (reaction: "like" | "unlike" | null) =>
    reaction === "like" ? 1 : reaction === "unlike" ? -1 : 0;
  return degrees + DEGREES_PER_VOTE * (weight(to) - weight(from));
}
