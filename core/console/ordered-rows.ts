/**
 * Lists the site owner puts in order (featured stores, the Teachers Wishlist, social links, forums
 * and their categories): each row has a `position`, and the public lists read them by position,
 * then id. The console moves one row at a time; the positions of its list are rewritten 1…n.
 */
import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import type { Direction } from "./content-fields.ts";

export type OrderedTable =
  "featured_stores" | "teachers_wishlist" | "social_links" | "forums" | "forum_categories";

/**
 * The rows of one list: a whole table, the categories of one forum, or the approved entries of the
 * Teachers Wishlist (entries waiting for review stand outside the order).
 */
export type OrderScope =
  { column: "forum_id"; value: number } | { column: "status"; value: "approved" } | null;

/** The Teachers Wishlist's ordered list: its approved entries. */
export const APPROVED_WISHLIST: OrderScope = { column: "status", value: "approved" };

function whereScope(scope: OrderScope) {
  return scope ? sql`WHERE ${sql.ref(scope.column)} = ${scope.value}` : sql``;
}

/** The ids of a list in its order, locked until the transaction ends. */
async function lockedOrder(tx: DbOrTx, table: OrderedTable, scope: OrderScope) {
  const result = await sql<{ id: number | string }>`
    SELECT id FROM ${sql.table(table)} ${whereScope(scope)}
    ORDER BY position, id FOR UPDATE`.execute(tx);
  return result.rows.map((row) => Number(row.id));
}

/** Writes positions 1…n in the order of `ids`. */
async function writeOrder(tx: DbOrTx, table: OrderedTable, ids: number[]) {
  for (const [index, id] of ids.entries()) {
    await sql`UPDATE ${sql.table(table)} SET position = ${index + 1}
      WHERE id = ${id} AND position IS DISTINCT FROM ${index + 1}`.execute(tx);
  }
}

/**
 * Moves a row one place up or down in its list. Answers the list's new order of ids, or null
 * when the row is not in the list; at either end the order stays as it is.
 */
export async function moveRow(
  tx: DbOrTx,
  table: OrderedTable,
  id: number,
  to: Direction,
  scope: OrderScope = null,
): Promise<number[] | null> {
  const ids = await lockedOrder(tx, table, scope);
  const from = ids.indexOf(id);
  if (from < 0) return null;
  const next = to === "up" ? from - 1 : from + 1;
  if (next >= 0 && next < ids.length) [ids[from], ids[next]] = [ids[next]!, ids[from]!];
  await writeOrder(tx, table, ids);
  return ids;
}

/** The position after the last row of a list (1 for an empty list). */
export async function nextPosition(
  tx: DbOrTx,
  table: OrderedTable,
  scope: OrderScope = null,
): Promise<number> {
  const result = await sql<{ next: number | string }>`
    SELECT coalesce(max(position), 0) + 1 AS next FROM ${sql.table(table)} ${whereScope(scope)}`.execute(
    tx,
  );
  return Number(result.rows[0]?.next ?? 1);
}

/** Closes the gap a deleted row left: positions 1…n again. */
export async function compactOrder(tx: DbOrTx, table: OrderedTable, scope: OrderScope = null) {
  await writeOrder(tx, table, await lockedOrder(tx, table, scope));
}
