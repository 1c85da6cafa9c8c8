import type { DbOrTx } from "../../../db/index.ts";
import type { ColdReason } from "./cold-reasons.ts";
import type { Reaction } from "./schema.ts";

/**
 * The member's reaction to the post, with the key of the address it came from (the likes trigger of
 * migration 011 counts it against that key's allowance in the trending score) and, for a cold
 * vote, its reason (migration 034's trigger weighs an unlike without one half), and its weight by
 * the voter's level now (migration 037's trigger counts it in the temperature): a changed vote is
 * cast again, re-weighed; and the label of the network it came from (record 0091, for staff). A
 * like replacing an unlike clears the reason: the row never holds a reason its reaction does not
 * take.
 */
export async function setReaction(
  db: DbOrTx,
  vote: {
    userId: number;
    postId: number;
    reaction: Reaction;
    voterKey: string;
    reason: ColdReason | null;
    weight: number;
    voterNetwork: string;
  },
) {
  const reason = vote.reaction === "unlike" ? vote.reason : null;
  await db
    .insertInto("likes")
    .values({
      user_id: vote.userId,
      post_id: vote.postId,
      reaction: vote.reaction,
      voter_key: vote.voterKey,
      reason,
      weight: vote.weight,
      voter_network: vote.voterNetwork,
    })
    .onConflict((oc) =>
      oc.columns(["post_id", "user_id"]).doUpdateSet({
        reaction: vote.reaction,
        voter_key: vote.voterKey,
        reason,
        weight: vote.weight,
        voter_network: vote.voterNetwork,
      }),
    )
    .execute();
}

/**
 * The salt of a UTC day for voter keys: created by the first process that needs it, shared by all;
 * older days' salts are deleted, so older keys can no longer be tested against an address.
 */
export async function voteSalt(db: DbOrTx, day: string, candidate: string): Promise<string> {
  await db
    .insertInto("vote_salts")
    .values({ day, salt: candidate })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
  await db.deleteFrom("vote_salts").where("day", "<", day).execute();
  const row = await db
    .selectFrom("vote_salts")
    .select("salt")
    .where("day", "=", day)
    .executeTakeFirstOrThrow();
  return row.salt;
}

export async function removeReaction(db: DbOrTx, userId: number, postId: number) {
  await db
    .deleteFrom("likes")
    .where("post_id", "=", postId)
    .where("user_id", "=", userId)
    .execute();
}
