import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { DEGREES_SQL } from "../../posts/temperature-sql.ts";
import { HOT_DEGREES } from "../../posts/temperature.ts";
import { HEAT_FLOOR_DEGREES } from "./rules.ts";

/*
 * The highest heat each deal has reached (reputation_post_peaks, migration 033): written by votes
 * as they come (core/posts/reactions) and by the reputation job's daily full run, read by the job.
 */

/** A peak kept where it is higher than the one before; the hot time only once. */
const KEEP_HIGHER_PEAK = sql`
    ON CONFLICT (post_id) DO UPDATE
       SET peak_degrees = excluded.peak_degrees,
           peak_at = excluded.peak_at,
           hot_at = coalesce(reputation_post_peaks.hot_at, excluded.hot_at)
     WHERE excluded.peak_degrees > reputation_post_peaks.peak_degrees`;

/**
 * Records each live post's temperature where it is higher than any seen before (only above the
 * heat floor: colder posts earn nothing), and when a post is first seen at the hot threshold. Reads
 * every live post: the daily full run's (core/people/reputation/job.ts); votes record their post's
 * peak as they come (recordPeak).
 */
export async function recordPeaks(db: DbOrTx, at: Date): Promise<void> {
  const degrees = DEGREES_SQL;
  await sql`
    INSERT INTO reputation_post_peaks (post_id, peak_degrees, peak_at, hot_at)
    SELECT posts.id, ${degrees}, ${at}::timestamptz,
           CASE WHEN ${degrees} >= ${HOT_DEGREES} THEN ${at}::timestamptz END
      FROM posts
     WHERE posts.status = 'active' AND posts.user_id IS NOT NULL
       AND ${degrees} > ${HEAT_FLOOR_DEGREES}
    ${KEEP_HIGHER_PEAK}`.execute(db);
}

/** One post's temperature after a vote, kept as its peak when above the floor and the last peak. */
export async function recordPeak(db: DbOrTx, postId: number, degrees: number, at: Date) {
  if (degrees <= HEAT_FLOOR_DEGREES) return;
  await sql`
    INSERT INTO reputation_post_peaks (post_id, peak_degrees, peak_at, hot_at)
    VALUES (${postId}, ${degrees}, ${at}::timestamptz,
            CASE WHEN ${degrees} >= ${HOT_DEGREES} THEN ${at}::timestamptz END)
    ${KEEP_HIGHER_PEAK}`.execute(db);
}
