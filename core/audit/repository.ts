import { sql } from "kysely";
import type { DbOrTx } from "../../db/index.ts";
import { idInText } from "../list-query.ts";
import { containsPattern, startsWithPattern } from "../like-pattern.ts";
import type { AuditQueryInput } from "./schema.ts";

/** Reading the audit log (its one writer is recordAudit in ./audit-trail.ts). */

function filtered(db: DbOrTx, filter: Omit<AuditQueryInput, "page">) {
  let query = db.selectFrom("audit_log");
  if (filter.actor) {
    const id = idInText(filter.actor);
    query = query.where((eb) =>
      id === null
        ? eb("audit_log.actor_name", "ilike", containsPattern(filter.actor!))
        : eb.or([
            eb("audit_log.actor_id", "=", id),
            eb("audit_log.actor_name", "ilike", containsPattern(filter.actor!)),
          ]),
    );
  }
  if (filter.action) {
    // "post" is every action of that area; "post.hide" is that action alone.
    query = filter.action.includes(".")
      ? query.where("audit_log.action", "=", filter.action)
      : query.where("audit_log.action", "like", startsWithPattern(`${filter.action}.`));
  }
  if (filter.item_type) query = query.where("audit_log.item_type", "=", filter.item_type);
  if (filter.item_id) query = query.where("audit_log.item_id", "=", filter.item_id);
  return query;
}

export async function countAuditEntries(db: DbOrTx, filter: Omit<AuditQueryInput, "page">) {
  const row = await filtered(db, filter)
    .select(sql<number>`count(*)`.as("total"))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** An id in item_id, for joining the item's own row (null when the text is not one). */
const itemRowId = (type: string) =>
  sql<number | null>`CASE WHEN a.item_type = ${type} AND a.item_id ~ '^[0-9]{1,15}$'
    THEN a.item_id::bigint END`;

/**
 * One page of entries, newest first (the audit_log_created_idx index), each with what its link
 * needs: the post's slug, the user's, store's or category's current name, the commented post.
 */
export function findAuditEntries(
  db: DbOrTx,
  filter: Omit<AuditQueryInput, "page">,
  page: { limit: number; offset: number },
) {
  const entries = filtered(db, filter)
    .selectAll("audit_log")
    .orderBy("audit_log.created_at", "desc")
    .orderBy("audit_log.id", "desc")
    .limit(page.limit)
    .offset(page.offset);
  return db
    .selectFrom(entries.as("a"))
    .leftJoin("posts as p", (join) =>
      join.onRef("p.unique_id", "=", "a.item_id").on("a.item_type", "in", ["d", "g"]),
    )
    .leftJoin("users as u", (join) => join.on("u.id", "=", itemRowId("user")))
    .leftJoin("stores as s", (join) => join.on("s.id", "=", itemRowId("store")))
    .leftJoin("categories as c", (join) => join.on("c.id", "=", itemRowId("category")))
    .leftJoin("comments as cm", (join) => join.on("cm.id", "=", itemRowId("comment")))
    .leftJoin("posts as cp", "cp.id", "cm.post_id")
    .select([
      "a.id",
      "a.actor_id",
      "a.actor_name",
      "a.action",
      "a.item_type",
      "a.item_id",
      "a.reason",
      "a.before",
      "a.after",
      "a.created_at",
      "p.slug as post_slug",
      "p.post_type as post_type",
      "p.title as post_title",
      "u.name as user_name",
      "u.deleted_at as user_deleted_at",
      "s.slug as store_slug",
      "s.title as store_title",
      "c.slug as category_slug",
      "c.title as category_title",
      "cp.unique_id as comment_post_unique_id",
      "cp.slug as comment_post_slug",
      "cp.post_type as comment_post_type",
      "cp.title as comment_post_title",
    ])
    .orderBy("a.created_at", "desc")
    .orderBy("a.id", "desc")
    .execute();
}

export type AuditRow = Awaited<ReturnType<typeof findAuditEntries>>[number];

/** The actions and item types the log holds, for the filter's choices. */
export async function findAuditVocabulary(db: DbOrTx) {
  const [actions, itemTypes] = await Promise.all([
    db
      .selectFrom("audit_log")
      .select("action")
      .groupBy("action")
      .orderBy("action")
      .limit(200)
      .execute(),
    db
      .selectFrom("audit_log")
      .select("item_type")
      .where("item_type", "<>", "")
      .groupBy("item_type")
      .orderBy("item_type")
      .limit(50)
      .execute(),
  ]);
  return { actions: actions.map((r) => r.action), itemTypes: itemTypes.map((r) => r.item_type) };
}
