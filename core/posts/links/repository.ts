/** The SQL of honest links: the post behind /go/{unique_id} and the per-day click counters. */
import { sql } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";

/** A post's link, status and store template, by the unique_id index; any status (the service decides). */
export function findGoLink(db: DbOrTx, uniqueId: string) {
  return db
    .selectFrom("posts")
    .leftJoin("stores", "stores.id", "posts.store_id")
    .select([
      "posts.id",
      "posts.link",
      "posts.status",
      "posts.store_id",
      "stores.affiliate_template as store_affiliate_template",
    ])
    .where("posts.unique_id", "=", uniqueId)
    .executeTakeFirst();
}

export type GoLinkRow = NonNullable<Awaited<ReturnType<typeof findGoLink>>>;

/**
 * One more click on a post (and its store) on a UTC day: upserts of the per-day counters, nothing
 * about who clicked.
 */
export async function recordClick(
  db: DbOrTx,
  click: { postId: number; storeId: number | null; day: string },
) {
  await db
    .insertInto("post_link_clicks")
    .values({ post_id: click.postId, day: click.day, clicks: 1 })
    .onConflict((oc) =>
      oc.columns(["post_id", "day"]).doUpdateSet({ clicks: sql`post_link_clicks.clicks + 1` }),
    )
    .execute();
  if (click.storeId === null) return;
  await db
    .insertInto("store_link_clicks")
    .values({ store_id: click.storeId, day: click.day, clicks: 1 })
    .onConflict((oc) =>
      oc.columns(["store_id", "day"]).doUpdateSet({ clicks: sql`store_link_clicks.clicks + 1` }),
    )
    .execute();
}

/** Clicks on a store's deals from `fromDay` to `toDay` (UTC dates, both included): at most 30 rows. */
export async function sumStoreClicks(
  db: DbOrTx,
  storeId: number,
  fromDay: string,
  toDay: string,
): Promise<number> {
  const row = await db
    .selectFrom("store_link_clicks")
    .select(sql<string | number | null>`sum(clicks)`.as("total"))
    .where("store_id", "=", storeId)
    .where("day", ">=", fromDay)
    .where("day", "<=", toDay)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}
