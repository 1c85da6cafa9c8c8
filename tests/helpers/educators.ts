import { randomBytes } from "node:crypto";
import { hashToken } from "../../core/auth/sessions.ts";
import type { Db } from "../../db/index.ts";

/** Verified educators' fixtures, written straight to the database. */

export async function markVerifiedEducator(db: Db, userId: number) {
  await db.updateTable("users").set({ verified_educator: true }).where("id", "=", userId).execute();
}

/** An open review request of `userId`; answers its id. */
export async function insertReviewRequest(
  db: Db,
  userId: number,
  note = "I teach year 5 at Lincoln Elementary.",
) {
  const row = await db
    .insertInto("educator_requests")
    .values({ user_id: userId, method: "review", note })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An open school-address request of `userId` with a link valid for a day; answers its code. */
export async function insertSchoolEmailRequest(db: Db, userId: number, expiresAt?: Date) {
  const code = randomBytes(32).toString("base64url");
  await db
    .insertInto("educator_requests")
    .values({
      user_id: userId,
      method: "school_email",
      school_email: `teacher-${randomBytes(3).toString("hex")}@lincoln.k12.ca.us`,
      token_hash: hashToken(code),
      token_expires_at: expiresAt ?? new Date(Date.now() + 24 * 60 * 60 * 1000),
    })
    .execute();
  return code;
}

/** A teacher's own wishlist entry waiting for review; answers its id. */
export async function insertPendingWishlistEntry(db: Db, userId: number | null) {
  const row = await db
    .insertInto("teachers_wishlist")
    .values({
      first_name: "Pending",
      last_name: `Teacher ${randomBytes(3).toString("hex")}`,
      school_location: "Lincoln Elementary, Austin, TX",
      amazon_wishlist: "https://www.amazon.com/hz/wishlist/ls/PENDING1",
      status: "pending",
      user_id: userId,
      position: 0,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}
