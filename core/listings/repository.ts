import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { matchesFilter, textQuery } from "../cards/deal-filter-query.ts";
import type { DealFilter, TextMatch } from "../cards/deal-filter-query.ts";

/** Freshness halves every 30 days (docs/decisions/0010-search-ranking.md). */
const FRESHNESS_HALF_LIFE_SECONDS = 30 * 24 * 60 * 60;

/** An expired deal keeps a quarter of its score: below any live deal of similar relevance. */
const EXPIRED_WEIGHT = 0.25;

/**
 * Ids of search results in rank order (docs/decisions/0010-search-ranking.md), live deals first
 * (posts.expired; record 0037), then:
 *   tier: 0 the title is the text, 1 a match of the text as typed, 2 a match of its correction;
 *   then relevance × freshness × liveness; newest first on a tie.
 * Ranks posts alone; the page's cards are read by id afterwards.
 */
export function searchIdsQuery(
  db: DbOrTx,
  text: TextMatch,
  filter: DealFilter,
  now: Date,
  offset: number,
  limit: number,
) {
  const asTyped = sql`posts.search @@ ${textQuery({ query: text.query })}`;
  const tier = sql`CASE
      WHEN lower(posts.title) = lower(${text.query}) THEN 0
      WHEN ${asTyped} THEN 1
      ELSE 2
    END`;
  const relevance = sql`ts_rank_cd(posts.search, ${textQuery(text)}, 32)::float8`;
  // float8 throughout: numeric power() costs tens of microseconds a row.
  const ageSeconds = sql`greatest(0, extract(epoch FROM (${now}::timestamptz - posts.created_at))::float8)`;
  const freshness = sql`(0.5 + 0.5 * power(0.5::float8, ${ageSeconds} / ${FRESHNESS_HALF_LIFE_SECONDS}::float8))`;
  const liveness = sql`CASE
      WHEN posts.expires_at IS NOT NULL AND posts.expires_at <= ${now}::timestamptz THEN ${EXPIRED_WEIGHT}::float8
      ELSE 1::float8
    END`;
  return db
    .selectFrom("posts")
    .select("posts.id")
    .where("posts.status", "=", "active")
    .where(matchesFilter({ ...filter, text }))
    .orderBy("posts.expired")
    .orderBy(tier)
    .orderBy(sql`${relevance} * ${freshness} * ${liveness}`, "desc")
    .orderBy("posts.created_at", "desc")
    .orderBy("posts.id", "desc")
    .offset(offset)
    .limit(limit);
}

export async function findSearchIds(
  db: DbOrTx,
  text: TextMatch,
  filter: DealFilter,
  now: Date,
  offset: number,
  limit: number,
): Promise<number[]> {
  const rows = await searchIdsQuery(db, text, filter, now, offset, limit).execute();
  return rows.map((row) => row.id);
}

// Shared with keyword alerts (core/member/alerts): the typo correction of search words.
export { findNearestTerms } from "../cards/search-terms.ts";
