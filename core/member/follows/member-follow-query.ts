import { sql, type ExpressionBuilder } from "kysely";
import type { DbOrTx } from "../../../db/index.ts";
import type { Database } from "../../../db/schema.ts";

/**
 * Reads of members following members (the `follows` table) that the follow service and the
 * profile pages share: one count of a member's followers, one answer to "does A follow B".
 */

/** How many members, not deleted, follow the outer query's `users.id` (follows_followee_idx). */
export function followerCount(eb: ExpressionBuilder<Database, "users">) {
  return eb
    .selectFrom("follows")
    .innerJoin("users as f", "f.id", "follows.follower_id")
    .select(sql<number>`count(*)`.as("n"))
    .whereRef("follows.followee_id", "=", "users.id")
    .where("f.deleted_at", "is", null)
    .as("followers");
}

export async function isFollowingMember(db: DbOrTx, followerId: number, followeeId: number) {
  const row = await db
    .selectFrom("follows")
    .select("follower_id")
    .where("follower_id", "=", followerId)
    .where("followee_id", "=", followeeId)
    .executeTakeFirst();
  return row !== undefined;
}
