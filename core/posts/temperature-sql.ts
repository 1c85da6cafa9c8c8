import { sql } from "kysely";
import { DEGREES_PER_VOTE } from "./temperature.ts";

/*
 * The temperature's SQL (core/posts/temperature.ts), apart from it so that the browser, which
 * imports the temperature for the cards' badges, does not download the query builder
 * (docs/decisions/0051-javascript-budget.md).
 */

/**
 * netVotes in half votes (twice netVotes, whole: an unlike without a reason weighs half,
 * UNREASONED_UNLIKE_WEIGHT; the weights' bonus is kept in half votes), written exactly as
 * migration 037's index posts_heat_idx has it, so
 * that an ORDER BY of it walks the index. (Damped counts never exceed their counts: the trigger of
 * migration 011 damps only reactions that exist.)
 */
export const HALF_VOTES_SQL = sql<number>`(2 * ((posts.likes_count - posts.damped_likes) - (posts.unlikes_count - posts.damped_unlikes)) + posts.unreasoned_unlikes + posts.weight_bonus)`;

/** The temperature in degrees, as temperatureOf reckons it: DEGREES_PER_VOTE a vote, half a vote at a time. */
export const DEGREES_SQL = sql<number>`(${sql.lit(DEGREES_PER_VOTE / 2)} * ${HALF_VOTES_SQL})`;

/** The UTC day a post was created, as migration 016's index has it. */
export const CREATED_DAY_SQL = sql<string>`((posts.created_at AT TIME ZONE 'UTC')::date)`;
