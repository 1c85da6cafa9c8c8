import type { DbOrTx } from "../../../db/index.ts";

/**
 * Whether a live account is a verified educator, read from its row (the session's copy of the user
 * does not carry the mark): the wishlist form's check, and the badge of a comment just posted.
 */
export async function isVerifiedEducator(db: DbOrTx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("verified_educator")
    .where("id", "=", userId)
    .where("deleted_at", "is", null)
    .executeTakeFirst();
  return row?.verified_educator === true;
}
