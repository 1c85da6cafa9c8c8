import type { DbOrTx } from "../../db/index.ts";

export function findTeachersWishlist(db: DbOrTx) {
  // Entries teachers sent wait for a moderator (docs/decisions/0041-verified-educators.md).
  return db
    .selectFrom("teachers_wishlist")
    .select(["id", "first_name", "last_name", "school_location", "amazon_wishlist"])
    .where("status", "=", "approved")
    .orderBy("position")
    .orderBy("id")
    .execute();
}
