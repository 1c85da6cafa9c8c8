import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import { findNearestTerms } from "../../cards/search-terms.ts";
import { PREVIEW_DAYS, INSTANT_MAIL_SPACING_MINUTES, type Delivery } from "./schema.ts";
import { DEAL_NAMING_COLUMNS } from "../../posts/deal-naming-columns.ts";

/** All SQL of keyword alerts (docs/decisions/0045-alert-matching.md). */

const WORD = /[\p{L}\p{N}]+/gu;

/** What keywords become: the tsquery (as text), its lexemes, and whether search can use it. */
export interface CompiledKeywords {
  query: string | null;
  lexemes: string[];
  searchable: boolean;
}

/**
 * The keywords as search reads them (english stemming: "crayons" is "crayon"), OR'd with the same
 * text with each misspelt word replaced by the nearest known word (pg_trgm over search_terms, as
 * search does), so "crayns" finds "crayon". Empty keywords compile to no query.
 */
export async function compileKeywords(db: DbOrTx, keywords: string): Promise<CompiledKeywords> {
  if (!keywords) return { query: null, lexemes: [], searchable: true };
  const lower = keywords.toLowerCase();
  const words = [...new Set(lower.match(WORD) ?? [])].filter(
    (word) => word.length >= 3 && /\p{L}/u.test(word),
  );
  const nearest = await findNearestTerms(db, words);
  const corrected = [...nearest].some(([word, term]) => word !== term)
    ? lower.replace(WORD, (word) => nearest.get(word) ?? word)
    : "";
  const { rows } = await sql<{ query: string; tree: string; lexemes: string[] }>`
    SELECT q::text AS query, querytree(q) AS tree,
      ARRAY(SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', ${keywords} || ' ' || ${corrected}))) ORDER BY 1) AS lexemes
    FROM (SELECT CASE WHEN ${corrected} = '' THEN websearch_to_tsquery('english', ${keywords})
      ELSE websearch_to_tsquery('english', ${keywords}) || websearch_to_tsquery('english', ${corrected})
      END AS q) AS compiled`.execute(db);
  const row = rows[0]!;
  const searchable = row.tree !== "T" && row.query !== "" && row.lexemes.length > 0;
  return {
    query: searchable ? row.query : null,
    lexemes: searchable ? row.lexemes : [],
    searchable,
  };
}

export interface AlertRow {
  id: number;
  user_id: number;
  keywords: string;
  store_ids: number[];
  category_id: number | null;
  max_price: number | null;
  min_discount: number | null;
  only_hot: boolean;
  delivery: Delivery;
  digest_hour: number;
  paused: boolean;
  created_at: Date;
  updated_at: Date;
}

function alertColumns(db: DbOrTx) {
  return db
    .selectFrom("alerts")
    .select([
      "alerts.id",
      "alerts.user_id",
      "alerts.keywords",
      sql<number[]>`alerts.store_ids::int4[]`.as("store_ids"),
      "alerts.category_id",
      "alerts.max_price",
      "alerts.min_discount",
      "alerts.only_hot",
      "alerts.delivery",
      "alerts.digest_hour",
      "alerts.paused",
      "alerts.created_at",
      "alerts.updated_at",
    ]);
}

export async function listAlerts(db: DbOrTx, userId: number): Promise<AlertRow[]> {
  return alertColumns(db).where("alerts.user_id", "=", userId).orderBy("alerts.id").execute();
}

export async function findAlert(db: DbOrTx, userId: number, id: number, lock = false) {
  let query = alertColumns(db).where("alerts.user_id", "=", userId).where("alerts.id", "=", id);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Serialises one member's saves, so two at once cannot pass the limit together. */
export async function lockUser(tx: DbOrTx, userId: number) {
  await tx.selectFrom("users").select("id").where("id", "=", userId).forUpdate().execute();
}

export async function countAlerts(db: DbOrTx, userId: number): Promise<number> {
  const row = await db
    .selectFrom("alerts")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("user_id", "=", userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function knownStoreIds(db: DbOrTx, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("stores").select("id").where("id", "in", ids).execute();
  return rows.map((r) => Number(r.id));
}

export async function categoryExists(db: DbOrTx, id: number): Promise<boolean> {
  return !!(await db.selectFrom("categories").select("id").where("id", "=", id).executeTakeFirst());
}

export interface AlertValues {
  keywords: string;
  compiled: CompiledKeywords;
  store_ids: number[];
  category_id: number | null;
  max_price: number | null;
  min_discount: number | null;
  only_hot: boolean;
  delivery: Delivery;
  digest_hour: number;
  paused: boolean;
}

function columns(values: AlertValues) {
  return {
    keywords: values.keywords,
    query: values.compiled.query === null ? null : sql<string>`${values.compiled.query}::tsquery`,
    lexemes: sql<string[]>`${values.compiled.lexemes}::text[]`,
    store_ids: sql<number[]>`${values.store_ids}::bigint[]`,
    category_id: values.category_id,
    max_price: values.max_price,
    min_discount: values.min_discount,
    only_hot: values.only_hot,
    delivery: values.delivery,
    digest_hour: values.digest_hour,
    paused: values.paused,
  };
}

export async function insertAlert(
  tx: DbOrTx,
  userId: number,
  values: AlertValues,
  tokenHash: string,
  at: Date,
): Promise<number> {
  const row = await tx
    .insertInto("alerts")
    .values({
      user_id: userId,
      ...columns(values),
      rss_token_hash: tokenHash,
      created_at: at,
      updated_at: at,
    } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateAlert(tx: DbOrTx, id: number, values: AlertValues, at: Date) {
  await tx
    .updateTable("alerts")
    .set({ ...columns(values), updated_at: at } as never)
    .where("id", "=", id)
    .execute();
}

export async function deleteAlert(tx: DbOrTx, userId: number, id: number): Promise<boolean> {
  const result = await tx
    .deleteFrom("alerts")
    .where("id", "=", id)
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function setTokenHash(tx: DbOrTx, id: number, tokenHash: string) {
  await tx.updateTable("alerts").set({ rss_token_hash: tokenHash }).where("id", "=", id).execute();
}

export async function findAlertByTokenHash(db: DbOrTx, tokenHash: string) {
  return alertColumns(db)
    .innerJoin("users", "users.id", "alerts.user_id")
    .where("alerts.rss_token_hash", "=", tokenHash)
    .where("users.deleted_at", "is", null)
    .executeTakeFirst();
}

/** A member who may receive alerts: not deleted, not suspended at `at`. */
const activeMember = (at: Date) => sql<boolean>`EXISTS (
  SELECT 1 FROM users u WHERE u.id = a.user_id AND u.deleted_at IS NULL
    AND (u.suspended_at IS NULL OR (u.suspended_until IS NOT NULL AND u.suspended_until <= ${at})))`;

/**
 * THE matching statement: every alert that one public deal satisfies, recorded in alert_matches
 * (once per alert and deal). Keyword alerts are found through the GIN index on their lexemes
 * (they share at least one lexeme with the deal's document) and only then tested with `@@`;
 * alerts without keywords through their partial index. `hot`: match the "only hot" alerts (the
 * deal has just become hot) instead of the others (the deal has just been published).
 */
export async function matchDeal(
  tx: DbOrTx,
  postId: number,
  hot: boolean,
  at: Date,
): Promise<{ alert_id: number; user_id: number; delivery: Delivery }[]> {
  const { rows } = await sql<{ alert_id: string; user_id: string; delivery: Delivery }>`
    WITH p AS (
      SELECT id, search, store_id, category_id, price, discount, user_id FROM posts
      WHERE id = ${postId} AND status = 'active' AND post_type = 'd'
    ),
    candidates AS (
      SELECT a.* FROM alerts a, p
      WHERE NOT a.paused AND a.query IS NOT NULL
        AND a.lexemes && (SELECT tsvector_to_array(search) FROM p)
        AND p.search @@ a.query
      UNION ALL
      SELECT a.* FROM alerts a WHERE NOT a.paused AND a.query IS NULL
    ),
    found AS (
      SELECT a.id, a.user_id, a.delivery FROM candidates a, p
      WHERE a.only_hot = ${hot}
        AND (cardinality(a.store_ids) = 0 OR p.store_id = ANY (a.store_ids))
        AND (a.category_id IS NULL OR a.category_id = p.category_id)
        AND (a.max_price IS NULL OR p.price <= a.max_price)
        AND (a.min_discount IS NULL OR p.discount >= a.min_discount)
        AND a.user_id IS DISTINCT FROM p.user_id
        AND ${activeMember(at)}
    ),
    inserted AS (
      INSERT INTO alert_matches (alert_id, post_id, matched_at)
      SELECT found.id, ${postId}, ${at}::timestamptz FROM found
      ON CONFLICT DO NOTHING
      RETURNING alert_id
    )
    SELECT found.id AS alert_id, found.user_id, found.delivery
    FROM found JOIN inserted ON inserted.alert_id = found.id`.execute(tx);
  return rows.map((r) => ({
    alert_id: Number(r.alert_id),
    user_id: Number(r.user_id),
    delivery: r.delivery,
  }));
}

/** The deal as notifications and mails name it. */
export async function findDealSummary(db: DbOrTx, postId: number) {
  return db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .select([...DEAL_NAMING_COLUMNS, "posts.created_at", "posts.description_text"])
    .where("posts.id", "=", postId)
    .executeTakeFirst();
}

export async function findKeywordsOf(db: DbOrTx, alertIds: number[]) {
  if (alertIds.length === 0) return new Map<number, string>();
  const rows = await db
    .selectFrom("alerts")
    .select(["id", "keywords"])
    .where("id", "in", alertIds)
    .execute();
  return new Map(rows.map((r) => [Number(r.id), r.keywords]));
}

/**
 * Instant alerts with matches not mailed yet whose last mail is at least the spacing ago (or that
 * never mailed), of members who may receive mail; locked, skipping ones another worker holds.
 */
export async function lockDueInstantAlerts(tx: DbOrTx, at: Date, alertIds?: number[]) {
  const spacing = new Date(at.getTime() - INSTANT_MAIL_SPACING_MINUTES * 60_000);
  const { rows } = await sql<{ id: string; user_id: string; keywords: string }>`
    SELECT a.id, a.user_id, a.keywords FROM alerts a
    WHERE a.delivery = 'instant' AND NOT a.paused
      AND (a.last_mailed_at IS NULL OR a.last_mailed_at <= ${spacing})
      AND EXISTS (SELECT 1 FROM alert_matches m WHERE m.alert_id = a.id AND m.mailed_at IS NULL)
      AND ${activeMember(at)}
      ${alertIds ? sql`AND a.id = ANY (${alertIds}::bigint[])` : sql``}
    ORDER BY a.id
    FOR UPDATE OF a SKIP LOCKED`.execute(tx);
  return rows.map((r) => ({ id: Number(r.id), user_id: Number(r.user_id), keywords: r.keywords }));
}

/** Daily alerts whose digest hour is `hour` (UTC) with matches not mailed yet; locked. */
export async function lockDueDigestAlerts(tx: DbOrTx, at: Date) {
  const { rows } = await sql<{ id: string; user_id: string; keywords: string }>`
    SELECT a.id, a.user_id, a.keywords FROM alerts a
    WHERE a.delivery = 'daily' AND NOT a.paused AND a.digest_hour = ${at.getUTCHours()}
      AND EXISTS (SELECT 1 FROM alert_matches m WHERE m.alert_id = a.id AND m.mailed_at IS NULL)
      AND ${activeMember(at)}
    ORDER BY a.user_id, a.id
    FOR UPDATE OF a SKIP LOCKED`.execute(tx);
  return rows.map((r) => ({ id: Number(r.id), user_id: Number(r.user_id), keywords: r.keywords }));
}

/** An alert's matches not mailed yet, of deals still public, oldest first. */
export async function findUnmailedDeals(db: DbOrTx, alertId: number) {
  return db
    .selectFrom("alert_matches as m")
    .innerJoin("posts", "posts.id", "m.post_id")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .select(DEAL_NAMING_COLUMNS)
    .where("m.alert_id", "=", alertId)
    .where("m.mailed_at", "is", null)
    .where("posts.status", "=", "active")
    .orderBy("m.matched_at")
    .orderBy("posts.id")
    .limit(50)
    .execute();
}

/** Every unmailed match of these alerts counts as mailed (sent, or of a deal no longer public). */
export async function markMailed(tx: DbOrTx, alertIds: number[], at: Date) {
  if (alertIds.length === 0) return;
  await tx
    .updateTable("alert_matches")
    .set({ mailed_at: at })
    .where("alert_id", "in", alertIds)
    .where("mailed_at", "is", null)
    .execute();
  await tx.updateTable("alerts").set({ last_mailed_at: at }).where("id", "in", alertIds).execute();
}

export async function findMember(db: DbOrTx, userId: number) {
  return db
    .selectFrom("users")
    .select(["id", "name", "email"])
    .where("id", "=", userId)
    .executeTakeFirst();
}

/** The feed: an alert's recent matches of deals still public, newest first. */
export async function findFeedDeals(db: DbOrTx, alertId: number, at: Date) {
  const since = new Date(at.getTime() - PREVIEW_DAYS * 86_400_000);
  return db
    .selectFrom("alert_matches as m")
    .innerJoin("posts", "posts.id", "m.post_id")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .select([
      "posts.unique_id",
      "posts.slug",
      "posts.post_type",
      "posts.title",
      "posts.price",
      "posts.currency",
      "posts.description_text",
      "stores.title as store_title",
      "m.matched_at",
    ])
    .where("m.alert_id", "=", alertId)
    .where("posts.status", "=", "active")
    .where("m.matched_at", ">=", since)
    .orderBy("m.matched_at", "desc")
    .limit(50)
    .execute();
}

/** The preview: ids of public deals of the last 30 days the criteria match, newest first. */
export async function findPreviewIds(
  db: DbOrTx,
  criteria: {
    query: string | null;
    store_ids: number[];
    category_id: number | null;
    max_price: number | null;
    min_discount: number | null;
  },
  at: Date,
  limit: number,
): Promise<{ ids: number[]; total: number }> {
  const since = new Date(at.getTime() - PREVIEW_DAYS * 86_400_000);
  const { rows } = await sql<{ id: string; total: string }>`
    SELECT id, count(*) OVER () AS total FROM posts
    WHERE status = 'active' AND post_type = 'd' AND created_at >= ${since} AND created_at <= ${at}
      ${criteria.query === null ? sql`` : sql`AND search @@ ${criteria.query}::tsquery`}
      ${criteria.store_ids.length ? sql`AND store_id = ANY (${criteria.store_ids}::bigint[])` : sql``}
      ${criteria.category_id === null ? sql`` : sql`AND category_id = ${criteria.category_id}`}
      ${criteria.max_price === null ? sql`` : sql`AND price <= ${criteria.max_price}`}
      ${criteria.min_discount === null ? sql`` : sql`AND discount >= ${criteria.min_discount}`}
    ORDER BY created_at DESC, id DESC
    LIMIT ${limit}`.execute(db);
  return { ids: rows.map((r) => Number(r.id)), total: rows.length ? Number(rows[0]!.total) : 0 };
}

/** The site's name as mails show it (general settings). */
export async function findSiteName(db: DbOrTx): Promise<string | null> {
  const row = await db
    .selectFrom("general_settings")
    .select("website_name")
    .where("id", "=", 1)
    .executeTakeFirst();
  return row?.website_name || null;
}
