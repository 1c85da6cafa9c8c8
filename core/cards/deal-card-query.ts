import { sql, type ExpressionBuilder } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { ChangeTopic } from "../cache/changes.ts";
import { TtlCache } from "../cache/ttl-cache.ts";
import { idIn, prepared } from "../../db/prepared.ts";
import type { Database, PostStatus } from "../../db/schema.ts";

/**
 * The one query behind every deal card (home, listings, search, profiles): live posts with their
 * store and author. Callers add their own where, order and paging. Only active posts are public:
 * held, hidden and removed posts never reach a list.
 */
export function dealCardQuery(db: DbOrTx) {
  return postCardQuery(db).where("posts.status", "=", ACTIVE);
}

/**
 * `status = 'active'` written as a literal, not sent as a parameter: the lists' indexes are partial
 * (`WHERE status = 'active'`), and a plan made once for a prepared statement (db/prepared.ts) can
 * only use them if it sees the value.
 */
export const ACTIVE = sql.lit<PostStatus>("active");

/**
 * The deal card's columns for posts of any status: only for a post page that its author or a
 * moderator may see when it is not public (core/moderation/policy.ts). Lists use dealCardQuery.
 */
export function postCardQuery(db: DbOrTx) {
  return db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .leftJoin("users", "users.id", "posts.user_id")
    .select([
      "posts.id",
      "posts.unique_id",
      "posts.slug",
      "posts.post_type",
      "posts.kind",
      "posts.title",
      "posts.image_url",
      "posts.price",
      "posts.list_price",
      "posts.discount",
      "posts.currency",
      "posts.deal_badge",
      "posts.link",
      "posts.coupon_code",
      "posts.expires_at",
      "posts.is_featured",
      "posts.views",
      "posts.likes_count",
      "posts.unlikes_count",
      "posts.damped_likes",
      "posts.damped_unlikes",
      "posts.unreasoned_unlikes",
      "posts.weight_bonus",
      "posts.comments_count",
      "posts.created_at",
      "posts.last_verified_at",
      "posts.user_id",
      "posts.store_id",
      "posts.category_id",
      "stores.title as store_title",
      "stores.slug as store_slug",
      "users.name as user_name",
      "users.image_url as user_image",
      "posts.lowest_in_90d",
    ]);
}

export type DealCardRow = Awaited<
  ReturnType<ReturnType<typeof dealCardQuery>["executeTakeFirstOrThrow"]>
>;

type PostsExpression = ExpressionBuilder<Database, "posts">;

/** Not expired: no expiry, or an expiry still ahead. */
export function isLive(now: Date) {
  return (eb: PostsExpression) =>
    eb.or([eb("posts.expires_at", "is", null), eb("posts.expires_at", ">", now)]);
}

/**
 * The changes a deal card shows (core/cache/changes.ts): the post itself, its likes, its comment
 * count, its poster's name and picture, its store's name. A cache of cards drops them on these.
 */
export const CARD_CHANGES = [
  "posts",
  "reactions",
  "comments",
  "users",
  "catalog",
] as const satisfies readonly ChangeTopic[];

/** How long the cards of one list of ids are kept (as the home lists are, core/home/service.ts). */
export const CARDS_BY_IDS_TTL_MS = 5_000;

const cardsByIds = new WeakMap<DbOrTx, TtlCache<DealCardRow[]>>();

/**
 * Drops the kept cards: the deals service calls it on each of CARD_CHANGES, from this process or
 * another (server/change-broadcast.ts).
 */
export function clearCardsByIds(db: DbOrTx): void {
  cardsByIds.get(db)?.clear();
}

/**
 * Deal cards by id, in the order of `ids`; the rows are shared, not to be changed. The ids go as
 * one array parameter, so the statement's text is the same for any number of them and it is
 * prepared once (a search page's cards: with an IN list each was parsed and planned anew, which on
 * the embedded database cost more than the read). The same list of ids (a search's page, a
 * ranking's first page, asked for again and again) is read once in CARDS_BY_IDS_TTL_MS: fetching
 * 15 cards was the one statement a search answered from its cached ranking still ran, about 1 ms of
 * the embedded database's thread. A transaction reads its own.
 */
export async function findCardsByIds(db: DbOrTx, ids: number[]): Promise<DealCardRow[]> {
  if (ids.length === 0) return [];
  const load = async () => {
    const rows = await findCardsByIdsQuery(db, ids).execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };
  if (db.isTransaction) return load();
  let cache = cardsByIds.get(db);
  if (!cache) {
    cache = new TtlCache<DealCardRow[]>(CARDS_BY_IDS_TTL_MS, 500);
    cardsByIds.set(db, cache);
  }
  return cache.get(ids.join(","), load);
}

export function findCardsByIdsQuery(db: DbOrTx, ids: number[]) {
  return prepared(dealCardQuery(db)).where(idIn("posts.id", ids));
}
