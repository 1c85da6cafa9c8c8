import { randomBytes } from "node:crypto";
import type { Db } from "../../db/index.ts";

/** A fresh member for a test: confirmed unless told otherwise, with a unique address. */
export async function createTestUser(
  db: Db,
  options: { name?: string; confirmed?: boolean; imageUrl?: string | null } = {},
): Promise<number> {
  const tag = randomBytes(5).toString("hex");
  const row = await db
    .insertInto("users")
    .values({
      name: options.name ?? `Test Member ${tag}`,
      email: `member-${tag}@example.com`,
      password_hash: null,
      user_type: "Teacher",
      image_url: options.imageUrl ?? null,
      dob: null,
      gender: null,
      email_verified_at: options.confirmed === false ? null : new Date(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Makes a member past the newcomer rules (docs/decisions/0089-newcomer-links.md) as the reputation
 * job would: level Member, so that their posts with links publish at once and their links are not
 * capped. For tests of other features whose fresh members post deals.
 */
export async function establishMember(db: Db, userId: number): Promise<void> {
  await db
    .insertInto("member_reputation")
    .values({ user_id: userId, points: 10, level: "Member", computed_at: new Date() })
    .onConflict((oc) => oc.column("user_id").doUpdateSet({ points: 10, level: "Member" }))
    .execute();
}
