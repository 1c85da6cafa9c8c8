/**
 * The scopes lists are kept by, and how many posts each holds. A scope is a list one of the
 * `(…, (NOT expired) DESC, <sort key> DESC, id DESC) WHERE status = 'active'` indexes serves
 * (newest first, or in another sort: core/cards/deal-sort.ts; live deals first): every post of a
 * type (posts_live_recent_idx), or a store's or a category's posts (posts_live_store_idx,
 * posts_live_category_idx), and the sorts' indexes of migration 017. Only deals carry a store or
 * a category. `liveOnly` ("Hide expired") keeps the lists' live prefix.
 */
import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { prepared } from "../../db/prepared.ts";
import type { PostKind, PostType } from "../../db/schema.ts";

export type DealScope = (
  | { kind: "type"; postType: PostType }
  | { kind: "store"; storeId: number }
  | { kind: "category"; categoryId: number }
) & { liveOnly?: boolean };

/** A scope's name in caches and in post_scope_counts (migration 022 writes the same keys). */
export function scopeKey(scope: DealScope): string {
  const live = scope.liveOnly ? ":live" : "";
  switch (scope.kind) {
    case "type":
      return `type:${scope.postType}${live}`;
    case "store":
      return `store:${scope.storeId}${live}`;
    case "category":
      return `category:${scope.categoryId}${live}`;
  }
}

/**
 * How many active posts each scope holds, by scopeKey: kept by triggers as posts change
 * (migration 022), so one indexed read and exact at once. An empty scope has no row: 0.
 */
export async function countScopes(db: DbOrTx, scopes: DealScope[]): Promise<Map<string, number>> {
  const keys = scopes.map(scopeKey);
  if (keys.length === 0) return new Map();
  const rows = await prepared(db.selectFrom("post_scope_counts"))
    .select(["scope", "total"])
    .where("scope", "in", keys)
    .execute();
  const totals = new Map(rows.map((row) => [row.scope, Number(row.total)]));
  return new Map(keys.map((key) => [key, totals.get(key) ?? 0]));
}

export async function countScope(db: DbOrTx, scope: DealScope): Promise<number> {
  return (await countScopes(db, [scope])).get(scopeKey(scope))!;
}

/** Whose posts a count kept per row is of, as its key begins (migration 027). */
export type KeptCountOwner = "user" | "store" | "category" | "forum-category";

/**
 * The count the database keeps under `<owner>:<id>:<of>` (migration 027), the id read from
 * `idColumn` of the row it is selected beside: `all`, every post whatever its status; a post kind,
 * a member's active posts of that kind. One row read however many posts there are; none is 0.
 */
export function keptPostCount(owner: KeptCountOwner, idColumn: string, of: "all" | PostKind) {
  return sql<number>`coalesce((SELECT total::int FROM post_scope_counts
    WHERE scope = ${sql.lit(`${owner}:`)} || ${sql.ref(idColumn)} || ${sql.lit(`:${of}`)}), 0)`;
}
